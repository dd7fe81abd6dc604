#pragma once
// A peer method prepared for one video (TokenCompressor::prepare done), kept by the compression
// controller per method. compress() is not re-entrant, so the compression worker and the sweep
// worker take turns through the mutex.
//
// Budgets above the method's range (BudgetRange::max: "a larger one gives the same tokens") are
// served from the one compression at that maximum: VQToken clusters the whole video again for
// every budget, minutes on a long video on a laptop, although every budget above its k_max gives
// the same clusters (issue 16: the slider left stale numbers for seconds to minutes).
#include <QString>
#include <memory>
#include <mutex>
#include <string>

#include "compress/token_compressor.h"
#include "util/progress.h"

namespace once::studio {

class PreparedPeer {
  public:
    /// The seed of every peer compression (the paper's runs use 42).
    static constexpr std::uint64_t kSeed = 42;

    /// Builds `method` and prepares it for `video` (worker thread; cancellable).
    static std::shared_ptr<PreparedPeer> prepare(const QString& method,
                                                 const once::EncodedVideo& video,
                                                 once::Progress& progress);
    /// The compression at `budget`, its method named (the peers leave that to callers); above
    /// the range's maximum, the maximum's tokens (computed once) with `budget` recorded.
    std::shared_ptr<const once::CompressionResult> compress(std::int64_t budget);
    /// A fresh compression at `budget`, never a kept one (the sweep times these).
    once::CompressionResult measure(std::int64_t budget);
    /// prepare()'s time.
    double prepareMs() const { return prepareMs_; }
    /// Compressions run so far (tests: budgets above the maximum run none).
    int compressions() const;

  private:
    std::string method_;  // registry name
    std::unique_ptr<once::TokenCompressor> compressor_;
    double prepareMs_ = 0;
    std::int64_t maxUseful_ = 0;  // BudgetRange::max on this video
    mutable std::mutex mutex_;
    std::shared_ptr<const once::CompressionResult> atMax_;  // the compression at maxUseful_
    int compressions_ = 0;
};

}  // namespace once::studio
