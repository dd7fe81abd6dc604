#pragma once
// The public-video stress diagnostic (paper appendix, "Public-video stress diagnostic"): per
// video, the cosine residual 1 − cos(x, nearest codeword) of every token under a learned
// codebook and under K-sized random-exemplar codebooks (K distinct tokens of the same videos,
// one per seed); the primary metric is each video's R95, with the mean residual and R50/R90/R99
// as sensitivity measures. Effects are random − learned, paired per video and averaged over
// seeds (positive favours the learned codebook), with percentile 95% CIs from a bootstrap that
// resamples videos and then seeds (diagnostics.h's scheme, SplitMix64 from an explicit seed).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/diagnostics.h"
#include "util/progress.h"

namespace once {

struct StressOptions {
    int randomCodebooks = 5;                 ///< the paper's five random-exemplar codebooks
    std::uint64_t randomSeed = 20260801;     ///< seeds randomSeed … randomSeed + n − 1
    std::int64_t bootstrap = 5000;           ///< the paper's 5,000 resamples
    std::uint64_t bootstrapSeed = 20260811;  ///< the paper's public-video bootstrap seed
};

struct StressMetric {
    std::string name;                 ///< "mean", "R50", "R90", "R95", "R99"
    double learned = 0, random = 0;   ///< means over videos (random: also over seeds)
    Estimate difference;              ///< random − learned, paired per video
    std::int64_t positiveVideos = 0;  ///< videos whose seed-averaged difference is > 0
    double reductionPct = 0;          ///< difference as % of the random value
};

struct StressResult {
    std::int64_t videos = 0, codewords = 0, tokens = 0;
    std::vector<std::uint64_t> seeds;
    std::vector<StressMetric> metrics;  ///< mean, R50, R90, R95, R99
    /// Per video and metric (same order): learned value and seed-averaged random value.
    std::vector<std::vector<double>> learnedPerVideo, randomPerVideo;
};

/// `videos`: one [N_v, D] (or [T, P, D]) token tensor per video; `codebook` [K, D]. Throws
/// OnceError for mismatched widths, no videos, or fewer tokens than K.
StressResult stressDiagnostic(const at::Tensor& codebook, const std::vector<at::Tensor>& videos,
                              const StressOptions& options = {}, Progress* progress = nullptr);

/// Two learned codebooks on the same videos (the paper's Hard-Lloyd − Full): per metric,
/// other − reference paired per video, with a bootstrap over videos (SplitMix64 from
/// `bootstrapSeed`); positiveVideos counts videos where `other` is worse.
struct CodebookComparison {
    std::string name;  ///< metric
    double reference = 0, other = 0;
    Estimate difference;
    std::int64_t positiveVideos = 0;
};
std::vector<CodebookComparison> compareCodebooks(const at::Tensor& reference,
                                                 const at::Tensor& other,
                                                 const std::vector<at::Tensor>& videos,
                                                 std::int64_t bootstrap = 5000,
                                                 std::uint64_t bootstrapSeed = 20260811);
std::string comparisonTableText(const std::vector<CodebookComparison>& c,
                                const std::string& referenceName, const std::string& otherName);
/// metric,reference,other,difference,ci_lo,ci_hi,positive_videos
std::string comparisonCsv(const std::vector<CodebookComparison>& c);

std::string stressTableText(const StressResult& r);
/// metric,learned,random,difference,ci_lo,ci_hi,positive_videos,videos,reduction_pct
std::string stressCsv(const StressResult& r);
/// video,metric,learned,random (the per-video points of the paper's figure)
std::string stressPerVideoCsv(const StressResult& r);

}  // namespace once
