#pragma once
// Stage A for one video (paper §"Temporally Stratified Corpus Sketch", DESIGN §3): L equal
// timeline bins, an adaptive sketch size m spread across the non-empty bins, spherical Lloyd per
// bin from distinct seed tokens, representatives r_j = ν(Σ ν(x_i)) with source counts w_j.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace once {

struct SketchOptions {
    int bins = 4;               ///< L; 1 gives the single-bin ablation
    double tokensPerRep = 256;  ///< R
    std::int64_t mMin = 16;
    std::int64_t mMax = 128;  ///< requested; the global cap may lower it
    int iterations = 10;      ///< spherical-Lloyd rounds per bin
    std::uint64_t seed = 42;

    /// OnceError naming the option (bins, R, m-min, m-max, iters) when a value is meaningless:
    /// bins outside 1..kMaxSketchBins, R not a finite number > 0, m_min < 1, m_min < bins (a
    /// bin without a representative would break Σ w = N: docs/training.md), m_max < m_min,
    /// counts above kMaxStageACount, negative iterations.
    void validate() const;
};

/// m = min(N, clip(⌈N/R⌉, m_min, m_max)).
std::int64_t sketchSize(std::int64_t numTokens, const SketchOptions& options);

/// Splits m across bins of the given token counts: as evenly as the bin sizes allow (water
/// filling: small bins filled first, the rest equal, remainder to the earliest), at least one
/// per non-empty bin when m ≥ #non-empty bins; when m is
/// smaller, one each to m evenly spaced non-empty bins. Never more than a bin holds.
std::vector<std::int64_t> spreadAcrossBins(std::int64_t m, const std::vector<std::int64_t>& sizes);

/// Timeline bin of every frame: τ = (t − t_first)/(t_last − t_first) (0 for one frame, or by
/// frame index when `frameTimes` is undefined), bin = min(⌊τ·L⌋, L − 1). Throws OnceError
/// (field frame_times) when a time is NaN or infinite or the span is not a finite number.
std::vector<int> frameBins(std::int64_t numFrames, const at::Tensor& frameTimes, int bins);

/// Largest m_max' ≤ m_max with Σ_v m_v(m_max') ≤ cap. `tokenCounts[v]` < 0 means unknown (a
/// video not yet encoded): it is counted at the upper bound m_max'. Throws when even m_min
/// does not fit.
std::int64_t resolveCappedMMax(const std::vector<std::int64_t>& tokenCounts,
                               const SketchOptions& options, std::int64_t cap);

struct VideoSketch {
    at::Tensor reps;     ///< [m, D] F32 unit rows, bin-major
    at::Tensor weights;  ///< [m] int32, Σ = N
    at::Tensor bins;     ///< [m] int32 timeline bin of each representative
    /// [m] int64: the token (frame-major index into the video's N tokens) of each
    /// representative's group that is nearest to it (highest cosine, ties to the lower index):
    /// the representative's exemplar patch, kept as provenance (train/sketch_provenance.h).
    at::Tensor medoids;
    std::int64_t numTokens = 0;
};

/// Sketches features [T, P, D] (or [N, D] as one frame per row when frameTimes is [N]).
/// `videoIndex` decorrelates the seeds of different videos.
VideoSketch sketchVideo(const at::Tensor& features, const at::Tensor& frameTimes,
                        const SketchOptions& options, std::int64_t videoIndex);

}  // namespace once
