#include "compress/baselines/density.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>

#include "compress/baselines/baseline_common.h"

namespace once::baselines {

std::vector<double> dpcKnnScores(const at::Tensor& x, std::int64_t k, SplitMix64& rng) {
    const std::int64_t n = x.size(0);
    if (n == 0) {
        return {};
    }
    // Squared distances / D from one Gram product, ‖xᵢ − xⱼ‖² = ‖xᵢ‖² + ‖xⱼ‖² − 2 xᵢ·xⱼ, written
    // over the product in place. at::cdist forms the same product from two concatenated
    // [n, D + 2] copies, then roots and (here) divides all n² entries in two more passes; the k
    // nearest, the maximum and each δ are monotone in the squares, so only the n results are
    // rooted. This is FastVID's per-frame cost at every budget with contextual tokens (one
    // [n, D] × [D, n] product a frame, docs/performance.md), so the passes around it count.
    const at::Tensor xc = x.contiguous();
    at::Tensor gramT = at::mm(xc, xc.t()).contiguous();
    const at::Tensor normsT = (xc * xc).sum(1).contiguous();
    double* d2 = gramT.data_ptr<double>();
    const double* norm2 = normsT.data_ptr<double>();
    const double invD = 1.0 / double(x.size(1));
    double d2Max = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        double* r = d2 + i * n;
        for (std::int64_t j = 0; j < n; ++j) {
            r[j] = std::max(0.0, norm2[i] + norm2[j] - 2.0 * r[j]) * invD;
        }
        r[i] = 0.0;  // exactly, as the reference's differences give (the product leaves ~1e-16)
        d2Max = std::max(d2Max, *std::max_element(r, r + n));
    }
    k = std::clamp<std::int64_t>(k, 1, n);
    std::vector<double> density(static_cast<std::size_t>(n)), row(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        std::copy(d2 + i * n, d2 + (i + 1) * n, row.begin());
        std::partial_sort(row.begin(), row.begin() + k, row.end());
        double sq = 0;
        for (std::int64_t j = 0; j < k; ++j) {
            sq += row[std::size_t(j)];
        }
        density[std::size_t(i)] = std::exp(-sq / double(k));
    }
    for (std::int64_t i = 0; i < n; ++i) {
        density[std::size_t(i)] += uniform01(rng.next()) * 1e-6;
    }
    std::vector<double> score(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        const double* r = d2 + i * n;
        const double own = density[std::size_t(i)];
        double delta2 = d2Max;
        for (std::int64_t j = 0; j < n; ++j) {
            if (density[std::size_t(j)] > own) {
                delta2 = std::min(delta2, r[j]);
            }
        }
        score[std::size_t(i)] = std::sqrt(delta2) * own;
    }
    return score;
}

}  // namespace once::baselines
