#pragma once
// A compressor prepared for one video (TokenCompressor::prepare done) and the cache of them: ONCE
// (its assignment) and the peers alike. The pipeline session keeps one cache per video, the
// studio one for the video on screen and hands its compressors to the session, so a question
// about what is on screen prepares nothing again. compress() is not re-entrant; users on several
// threads (the studio's compression and sweep workers, its answering pipeline) take turns
// through a mutex.
//
// Budgets above the method's range (BudgetRange::max: "a larger one gives the same tokens") are
// served from the one compression at that maximum: VQToken clusters the whole video again for
// every budget, minutes on a long video on a laptop, although every budget above its k_max gives
// the same clusters (issue 16: the slider left stale numbers for seconds to minutes).
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "compress/token_compressor.h"
#include "util/progress.h"

namespace once {

class PreparedCompressor {
  public:
    /// The seed of the studio's compressions (the paper's runs use 42).
    static constexpr std::uint64_t kSeed = 42;

    /// Builds `spec` and prepares it for `video` (cancellable through `progress`): the
    /// expensive part, counted by workCounters().prepares. `codebook` (null for a method
    /// without one) is kept alive as long as the compressor; spec.codebook is set from it.
    static std::shared_ptr<PreparedCompressor> prepare(CompressorSpec spec,
                                                       std::shared_ptr<const Codebook> codebook,
                                                       const EncodedVideo& video,
                                                       Progress* progress = nullptr);
    /// The same method with `params` over `from`'s prepared assignment (ONCE at another variant):
    /// nothing is computed again and nothing counted. Null when `from` has no assignment.
    static std::shared_ptr<PreparedCompressor> adopt(const PreparedCompressor& from,
                                                     const CompressorParams& params);

    const std::string& method() const { return method_; }
    const CompressorParams& params() const { return params_; }
    /// preparedKey(method(), params()).
    const std::string& key() const { return key_; }
    /// The video it was prepared for (its tensors shared) and the codebook it uses (null: none).
    const EncodedVideo& video() const { return video_; }
    const std::shared_ptr<const Codebook>& codebook() const { return codebook_; }
    /// The codeword assignment (CompressorInfo::hasAssignment), else null.
    std::shared_ptr<const Assignment> assignment() const { return compressor_->assignment(); }

    /// The compression at `budget`, its method named (the peers leave that to callers); above
    /// the range's maximum, the maximum's tokens (computed once per seed kSeed) with `budget`
    /// recorded. Thread-safe.
    std::shared_ptr<const CompressionResult> compress(std::int64_t budget,
                                                      std::uint64_t seed = kSeed);
    /// A fresh compression at `budget`, never a kept one (the sweep times these).
    CompressionResult measure(std::int64_t budget, std::uint64_t seed = kSeed);
    /// prepare()'s wall time (adopted: the original's).
    double prepareMs() const { return prepareMs_; }
    /// Compressions run so far (tests: budgets above the maximum run none).
    int compressions() const;

  private:
    std::string method_;
    CompressorParams params_;
    std::string key_;
    EncodedVideo video_;
    std::shared_ptr<const Codebook> codebook_;
    std::unique_ptr<TokenCompressor> compressor_;
    double prepareMs_ = 0;
    std::int64_t maxUseful_ = 0;  // BudgetRange::max on this video
    mutable std::mutex mutex_;
    std::shared_ptr<const CompressionResult> atMax_;  // the compression at maxUseful_
    int compressions_ = 0;
};

/// "method\nkey=value…" over every parameter of `method`, the registered defaults filled in, so
/// one setting spelled with or without its defaults is one key. Throws OnceError for an unknown
/// method.
std::string preparedKey(const std::string& method, const CompressorParams& params);

/// The prepared compressors of one video by preparedKey. Not thread-safe: one owner thread (the
/// pipeline session's caller, the studio's GUI thread) finds and puts; the compressors
/// themselves may be used from any thread.
class PreparedCompressors {
  public:
    /// The kept compressor of `method` with `params`, else one adopting the assignment of a kept
    /// compressor of `method` with other parameters (kept from then on), else null.
    std::shared_ptr<PreparedCompressor> find(const std::string& method,
                                             const CompressorParams& params);
    /// find(), else `spec` prepared now for `video` and kept.
    std::shared_ptr<PreparedCompressor> get(const CompressorSpec& spec,
                                            std::shared_ptr<const Codebook> codebook,
                                            const EncodedVideo& video, Progress* progress);
    /// Keeps `compressor` (replacing one of the same key).
    void put(std::shared_ptr<PreparedCompressor> compressor);
    /// Whether some compressor of `method` is kept (any parameters).
    bool has(const std::string& method) const;
    /// Forgets everything (a new video).
    void clear();
    /// Forgets the compressors that use a codebook (a new codebook).
    void forgetCodebook();
    /// The assignment of a kept compressor that has one (the overlay's and charts' codewords).
    std::shared_ptr<const Assignment> assignment() const;
    std::vector<std::shared_ptr<PreparedCompressor>> all() const;

  private:
    std::map<std::string, std::shared_ptr<PreparedCompressor>> byKey_;
};

}  // namespace once
