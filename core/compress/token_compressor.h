#pragma once
// One interface for every visual-token compressor: ONCE (with its variants) and the peer
// baselines (core/compress/baselines/). The GUI, the CLI, the evaluation harness and the
// benchmarks pick compressors by name from this registry, so a new method is one new file that
// registers itself.
//
// The work is split like ONCE's: prepare() does the budget-independent part once per video
// (ONCE's first assignment, a baseline's segmentation or similarity graph) and compress() turns
// a budget into output tokens, so budget sweeps and the GUI's slider re-use the prepared state.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compress/compression.h"

namespace once {

class Codebook;

/// One video's visual tokens and the optional side inputs some peers need.
struct VideoTokens {
    VideoTokens() = default;
    explicit VideoTokens(at::Tensor tokens) : features(std::move(tokens)) {}

    at::Tensor features;  ///< [T, P, D] content tokens, frame-major (any float dtype)
    /// [T, P] optional per-token importance (e.g. vision-tower attention received). Methods
    /// that need it fall back to a documented features-only score when it is undefined.
    at::Tensor attention;
    /// [T, G] optional per-frame global descriptor (e.g. SigLIP pooled head). Undefined: the
    /// methods that need one use the frame's mean token.
    at::Tensor frameGlobals;
    int gridH = 0, gridW = 0;  ///< P = gridH × gridW when known (0: unknown, treated as 1×P)
};

/// Hyper-parameters by name, as given on a command line (`--param key=value`) or in a config.
using CompressorParams = std::map<std::string, std::string>;

struct CompressorSpec {
    std::string method = "once";         ///< registry name
    CompressorParams params;             ///< method-specific; unknown keys are an error
    const Codebook* codebook = nullptr;  ///< needed by "once"; ignored by the peers
    AssignOptions assign;                ///< used by "once"
};

class TokenCompressor {
  public:
    virtual ~TokenCompressor() = default;
    virtual std::string method() const = 0;
    /// Budget-independent work for one video. Throws OnceError on bad features.
    virtual void prepare(const VideoTokens& video, Progress* progress = nullptr) = 0;
    /// At most `budget` output tokens (M <= budget) for the prepared video. Fills `tokens`,
    /// `groupSizes`, `groupOfToken` (−1 for a dropped token), `numTokens`, `numOutputs`,
    /// `budget`, `coverage` and the timings; `codewordIds` is −1 for methods without codewords.
    /// Deterministic for a given seed. Throws OnceError when prepare() was not called or
    /// budget < 1.
    virtual CompressionResult compress(std::int64_t budget, std::uint64_t seed = 42) = 0;
};

struct CompressorInfo {
    std::string method;
    std::string summary;        ///< one line for --help and the GUI's tooltip
    std::string source;         ///< public code the method follows (file in its repository)
    CompressorParams defaults;  ///< every accepted parameter with its default value
    bool needsCodebook = false;
};

using CompressorFactory =
    std::function<std::unique_ptr<TokenCompressor>(const CompressorSpec& spec)>;

/// Called by static registrars in each method's file.
void registerCompressor(const CompressorInfo& info, CompressorFactory factory);
/// Throws OnceError naming the known methods for an unknown name, and naming the parameter for
/// an unknown parameter key (checked against info.defaults) or a missing codebook.
std::unique_ptr<TokenCompressor> makeCompressor(const CompressorSpec& spec);
std::vector<CompressorInfo> compressorInfos();
const CompressorInfo& compressorInfo(const std::string& method);

/// Parameter helpers for factories: the value of `key` in `params`, else the registered default;
/// a value that does not parse is an OnceError naming method, key, expected and found.
double paramDouble(const std::string& method, const CompressorParams& params,
                   const CompressorParams& defaults, const std::string& key);
std::int64_t paramInt(const std::string& method, const CompressorParams& params,
                      const CompressorParams& defaults, const std::string& key);
std::string paramString(const std::string& method, const CompressorParams& params,
                        const CompressorParams& defaults, const std::string& key);

/// Fills the result fields every method shares from `tokens` [M, D] and `groupOfToken` [N]
/// (−1 = dropped): groupSizes, numTokens, numOutputs, coverage, codewordIds (−1), and the
/// cosine of each output to its group's source mean (outputCosine). `features` is [N, D].
void finishResult(CompressionResult& result, const at::Tensor& features, std::int64_t budget);

}  // namespace once
