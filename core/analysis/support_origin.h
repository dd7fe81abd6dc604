#pragma once
// The support-origin diagnostic (paper appendix, after the public-video stress diagnostic): does
// the current video's own codeword support pool it better than a similar video's? Even and odd
// frames form two views. One view selects up to B codebook ids (ONCE's rule: the most used
// nearest codewords, ties to the lower id); the other view is fully reassigned to that support
// and mean-pooled from its own tokens; the direction is then reversed and averaged. "Current"
// takes the support from the same video's other view, "donor" from the paired video's view of
// the same parity. Videos form disjoint reciprocal pairs by projected-feature-centroid cosine
// (greedy, most similar first; optional groups, e.g. creators, are kept apart whenever an
// eligible partner remains). Effects are donor − current per video, averaged within each pair;
// pairs are resampled (SplitMix64 from an explicit seed). Pooled R95 gets the non-studentized
// max-deviation 95% simultaneous band across budgets; mean residual and the retained share of
// the target view's initial assignments get pointwise percentile intervals.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/diagnostics.h"
#include "util/progress.h"

namespace once {

struct SupportOriginOptions {
    std::vector<std::int64_t> budgets{32, 64, 128, 256};  ///< prespecified budgets (upper bounds)
    std::int64_t bootstrap = 5000;
    std::uint64_t bootstrapSeed = 20260811;
    /// Optional group label per video (creator/uploader); empty: no constraint.
    std::vector<std::string> groups;
};

struct SupportOriginBudget {
    std::int64_t budget = 0;
    double currentR95 = 0, donorR95 = 0;  ///< means over videos of pooled R95
    Estimate deltaR95;                    ///< donor − current, simultaneous band
    std::int64_t positivePairs = 0;       ///< pairs with donor − current R95 > 0
    Estimate deltaMeanResidual;           ///< donor − current, pointwise 95% CI
    Estimate retainedGainPts;  ///< current − donor % of target tokens whose initial code is kept
};

struct SupportOriginResult {
    std::int64_t videos = 0;
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
    std::vector<double> pairCosines;  ///< centroid cosine of each pair
    double bandHalfWidth = 0;         ///< critical value of the simultaneous band
    std::vector<SupportOriginBudget> budgets;
    /// [pair][budget] pair-level R95 effect (donor − current), for plots.
    std::vector<std::vector<double>> pairDeltaR95;
};

/// `videos`: [T, P, D] tokens per video (T >= 2); `codebook` [K, D]. Throws OnceError for fewer
/// than 2 videos, a video of one frame, mismatched widths or a budget < 1.
SupportOriginResult supportOrigin(const at::Tensor& codebook, const std::vector<at::Tensor>& videos,
                                  const SupportOriginOptions& options = {},
                                  Progress* progress = nullptr);

/// Greedy disjoint pairs by centroid cosine (see above); exposed for tests.
std::vector<std::pair<std::int64_t, std::int64_t>> pairVideosByCentroid(
    const std::vector<at::Tensor>& videos, const std::vector<std::string>& groups = {});

std::string supportOriginTableText(const SupportOriginResult& r);
/// budget,current_r95,donor_r95,delta_r95,band_lo,band_hi,positive_pairs,pairs,
/// delta_mean_residual,ci_lo,ci_hi,retained_gain_pts,ci_lo,ci_hi
std::string supportOriginCsv(const SupportOriginResult& r);

}  // namespace once
