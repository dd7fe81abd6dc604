#pragma once
// Codebook diagnostics (paper §"Codebook Analysis" and appendix): active codes, entropy-effective
// capacity, mean cosine error, usage by equal-count deciles, per-video cosine-residual
// percentiles, video-level bootstrap 95% CIs and the paired comparison with random-exemplar
// codebooks. Every resample is drawn with SplitMix64 from an explicit seed, so the NumPy
// reference (tests/reference/analysis_diagnostics.py) reproduces the intervals exactly.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "util/progress.h"

namespace once {

/// Rows to diagnose, grouped by video: cache representatives (weight = source count) or the
/// tokens of feature files (weight 1). The rows are either held in memory (`x`) or read on
/// request (`readRows`/`gatherRows`: a Stage-A cache through CacheReader, which at the paper's
/// scale is 33 GiB); either way the diagnostics go over them in tiles of
/// kDiagnosticsTileRows, so that with readRows memory is bounded by a tile and the per-row
/// scalars (docs/cluster.md), and the results are the same for both.
struct TokenSet {
    at::Tensor x;        ///< [N, D] any float dtype; undefined when readRows is set
    at::Tensor weights;  ///< [N] (source tokens each row stands for)
    at::Tensor video;    ///< [N] int64 in 0..numVideos-1
    std::int64_t numVideos = 0;
    /// Rows [begin, end) as [end − begin, D], any float dtype (used when x is undefined).
    std::function<at::Tensor(std::int64_t begin, std::int64_t end)> readRows{};
    /// The given rows in the given order, [rows, D] (the random-exemplar codebooks' K rows).
    std::function<at::Tensor(const std::vector<std::int64_t>& rows)> gatherRows{};
    std::int64_t rowCount = 0, dim = 0;  ///< N and D of a set read through readRows

    std::int64_t rows() const { return x.defined() ? x.size(0) : rowCount; }
    std::int64_t width() const { return x.defined() ? x.size(1) : dim; }
};

/// Rows per tile of the diagnostics' passes over a TokenSet: at D = 3,584 a tile is 112 MiB
/// read as BF16 and 224 MiB normalised to F32; large enough that the nearest-codeword products
/// (K × tile) run at full speed.
constexpr std::int64_t kDiagnosticsTileRows = 16384;

struct DiagnosticsOptions {
    std::int64_t bootstrap = 1000;           ///< resamples (0: no intervals)
    std::uint64_t bootstrapSeed = 20260729;  ///< the paper's training-cache bootstrap seed
    int randomCodebooks = 5;                 ///< random-exemplar codebooks (0: none)
    std::uint64_t randomSeed = 20260801;     ///< seeds randomSeed … randomSeed + n − 1
};

struct Estimate {
    double value = 0, lo = 0, hi = 0;  ///< lo/hi: percentile 95% interval (= value without CI)
};

struct Diagnostics {
    std::int64_t codewords = 0, rows = 0, videos = 0;
    double sourceTokens = 0;
    Estimate activeCodesPct, entropyCapacityPct, meanCosineError;
    std::vector<double> decileShares;           ///< 10 shares, most used decile first
    std::map<std::string, Estimate> residuals;  ///< "R50" … "R99": mean over videos
    bool hasRandom = false;
    std::vector<std::uint64_t> randomSeeds;
    double randomMeanResidual = 0, randomR95 = 0, fullMeanResidual = 0, fullR95 = 0;
    Estimate diffMeanResidual, diffR95;  ///< random − full, paired per video
    std::string toJson(int indent = 2) const;
};

/// Percentile with linear interpolation (NumPy's default) of an unsorted sample.
double percentileLinear(std::vector<double> values, double p);

/// The diagnostics of `codebook` [K, D] on `tokens`. One pass over the rows for the codebook
/// and one per random-exemplar codebook, each in tiles of `tileRows` (results do not depend on
/// it). Throws OnceError when the widths differ or a TokenSet without x lacks readRows.
Diagnostics diagnoseCodebook(const at::Tensor& codebook, const TokenSet& tokens,
                             const DiagnosticsOptions& options = {}, Progress* progress = nullptr,
                             std::int64_t tileRows = kDiagnosticsTileRows);

}  // namespace once
