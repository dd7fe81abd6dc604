#pragma once
// Weighted spherical Lloyd (k-means on the unit sphere). Used three times by training: per
// timeline bin in Stage A, to refine the Stage-B initialiser, and as the `hard-lloyd` control.
// Deterministic on the CPU: tiles are processed in a fixed order and every reduction uses a
// fixed partition, so the same inputs and thread count give the same bits.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>

namespace once {

/// ν(x) = x / max(‖x‖₂, 1e-12) row-wise, returned as F32.
at::Tensor normalizeRows(const at::Tensor& x);

/// Nearest unit centroid of every unit row: (ids [N] int64, cosines [N] F32). Ties go to the
/// lower index. The N×K matrix only exists tile by tile (at most `tileRows` rows, fewer when
/// needed to keep a tile's scores near 4 MiB).
struct Nearest {
    at::Tensor ids;
    at::Tensor cosines;
};
Nearest nearestCentroids(const at::Tensor& xUnit, const at::Tensor& centroidsUnit,
                         std::int64_t tileRows = 8192);
/// The rows per tile nearestCentroids works in for k centroids of width d (before it is capped
/// at N). Calls over consecutive slices whose lengths are multiples of it give the same bits
/// as one call over all the rows (the diagnostics stream a cache this way).
std::int64_t nearestCentroidsTile(std::int64_t k, std::int64_t d, std::int64_t tileRows = 8192);

struct SphericalLloydResult {
    at::Tensor centroids;  ///< [k, D] F32 unit rows: ν(Σ w ν(x)) of each group
    at::Tensor assign;     ///< [N] int64: the partition the final centroids were computed from
    at::Tensor mass;       ///< [k] F64: Σ w of each group (counts when unweighted)
    double objective = 0;  ///< Σ w·cos(x, centroid of its group) for `assign`
};

/// Runs `iterations` (assign, update) rounds from `init` [k, D] (unit rows). `weights` [N] may
/// be undefined (all 1). A group left empty by an assignment is reseeded with the row of lowest
/// cosine among groups of two or more rows (ties: lower row index), so no group is empty while
/// k ≤ the number of distinct rows. `onIteration(i, objective)` may throw to cancel.
SphericalLloydResult sphericalLloyd(const at::Tensor& xUnit, const at::Tensor& weights,
                                    const at::Tensor& init, int iterations,
                                    const std::function<void(int, double)>& onIteration = {},
                                    std::int64_t tileRows = 8192);

}  // namespace once
