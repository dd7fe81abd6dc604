#pragma once
// What every peer baseline shares: checking the video it is given, the prepare-then-compress
// protocol, the budget check, and turning "output rows + which source token went where" into a
// CompressionResult. The baselines compute in float64 on the CPU so that their selections
// (top-k, argmax, sorting) match the NumPy/PyTorch ports in tests/reference/ exactly.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "compress/token_compressor.h"

namespace once::baselines {

/// A validated video: x is [T, P, D] float64 on the CPU, attention [T, P] float64 or undefined,
/// frameGlobals [T, G] float64 or undefined, and the grid (gridH × gridW = P; 1 × P if unknown).
struct PreparedVideo {
    at::Tensor x;
    at::Tensor attention;
    at::Tensor frameGlobals;
    std::int64_t frames = 0, patches = 0, dim = 0;
    std::int64_t gridH = 1, gridW = 0;
    std::int64_t numTokens() const { return frames * patches; }
};

/// Throws OnceError naming `method` when features are not [T, P, D] with T, P, D >= 1, or a
/// side input or the grid does not match them.
PreparedVideo prepareVideo(const std::string& method, const EncodedVideo& video);

/// Base class of the baselines: prepare() validates and keeps the video, compress() checks the
/// call order and the budget, then calls run().
class BaselineCompressor : public TokenCompressor {
  public:
    explicit BaselineCompressor(std::string method) : method_(std::move(method)) {}
    std::string method() const override { return method_; }
    void prepare(const EncodedVideo& video, Progress* progress) override;
    CompressionResult compress(std::int64_t budget, std::uint64_t seed) override;

  protected:
    /// Budget-independent work after validation (default: none).
    virtual void prepareMore() {}
    /// The smallest budget the method can spend (e.g. one token per frame for a per-frame
    /// method); below it compress() gives emptyResult() without calling run(). Default: 1.
    virtual std::int64_t smallestBudget() const { return 1; }
    /// The method itself; budget >= smallestBudget() and the video is prepared. compress() records
    /// its time as seconds.pool and prepare()'s as seconds.assign.
    virtual CompressionResult run(std::int64_t budget, std::uint64_t seed) = 0;

    const PreparedVideo& video() const { return video_; }

  private:
    std::string method_;
    PreparedVideo video_;
    bool prepared_ = false;
    double prepareSeconds_ = 0;
};

/// The result from output rows `tokens` [M, D] (any float dtype) and the output row of every
/// source token (−1 dropped), through finishResult().
CompressionResult makeResult(const at::Tensor& tokens,
                             const std::vector<std::int64_t>& groupOfToken,
                             const PreparedVideo& video, std::int64_t budget);

/// An empty result (M = 0): the budget is below what the method can produce (e.g. fewer output
/// slots than frames for a per-frame method). Every token is dropped.
CompressionResult emptyResult(const PreparedVideo& video, std::int64_t budget);

/// Indices of the k largest scores, largest first, ties to the lower index (a stable sort, so
/// the Python ports reproduce it with a stable argsort of −score).
std::vector<std::int64_t> topKIndices(const std::vector<double>& scores, std::int64_t k);

/// round(linspace(0, n − 1, k)) with halves rounded up, in integers (k <= n gives distinct
/// indices). k = 1 gives {0}, as numpy.linspace does.
std::vector<std::int64_t> linspaceIndices(std::int64_t n, std::int64_t k);

/// Features-only stand-in for "attention received" ([T, P] float64): the cosine of each token
/// to its frame's mean token. An attention-pooling head (SigLIP's probe) or a mean over queries
/// attends most to the tokens its pooled output resembles, and the frame mean is the pooled
/// output available without the vision tower's internals.
at::Tensor frameMeanSimilarity(const at::Tensor& x);

/// Rows divided by their L2 norm (float64; a zero row stays zero).
at::Tensor normalizeRows(const at::Tensor& x);

/// For each row of `from` [n, D], the row of `to` [m, D] with the highest cosine (ties to the
/// lower index, as torch/numpy argmax). m >= 1.
std::vector<std::int64_t> nearestByCosine(const at::Tensor& from, const at::Tensor& to);

/// Uniform double in [0, 1) from SplitMix64 (53 bits), the same in the Python ports.
double uniform01(std::uint64_t bits);

}  // namespace once::baselines
