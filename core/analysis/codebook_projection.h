#pragma once
// The codebook projector's map (issue 30, view 16): codewords and a video's tokens in two
// dimensions, TensorBoard's projector for a codebook. PCA of the unit codewords ν(c) — ONCE
// compares directions (cosine), so the map shows directions too — fitted on the codebook alone,
// so every video lands on the same axes and two videos' maps compare. Tokens are projected as
// ν(x) onto those axes. Deterministic: axes by decreasing variance, each axis's sign fixed so its
// largest-magnitude loading is positive (PCA's sign is otherwise arbitrary).
// Why PCA and not t-SNE/UMAP: both need a library Debian does not ship for C++ (umappp,
// FIt-SNE are not packaged), their maps change from run to run, and a new video would need a new
// fit, so tokens and codewords could not share fixed axes; PCA is exact and instantaneous.
#include <ATen/core/Tensor.h>

#include <array>

#include "util/progress.h"

namespace once {

class Codebook;

struct CodebookProjection {
    at::Tensor mean;  ///< [D] F32: mean of ν(c) over the codebook
    at::Tensor axes;  ///< [2, D] F32: unit principal axes, the larger variance first
    std::array<double, 2> explained{};  ///< share of the total variance on each axis (0…1)
    at::Tensor codewords;               ///< [K, 2] F32: every codeword on the map

    /// Rows [N, D] (or [T, P, D]) on the map as (ν(x) − mean)·axesᵀ: [N, 2] F32. Throws
    /// OnceError when D differs from the codebook's.
    at::Tensor project(const at::Tensor& rows) const;
};

struct CodebookProjectionLimits {
    /// Largest min(K, D) whose eigenproblem is solved (a 4096² double matrix: 128 MiB, seconds).
    /// Beyond it the map would take minutes; the projector says so rather than hang.
    static constexpr std::int64_t kMaxSide = 4096;
};

/// Fits the map on `codebook` (K ≥ 3 codewords). Cancellable between its steps.
CodebookProjection fitCodebookProjection(const Codebook& codebook, Progress* progress = nullptr);

}  // namespace once
