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
    const at::Tensor distT = (at::cdist(x, x) / std::sqrt(double(x.size(1)))).contiguous();
    const double* dist = distT.data_ptr<double>();
    k = std::clamp<std::int64_t>(k, 1, n);
    std::vector<double> density(static_cast<std::size_t>(n)), row(static_cast<std::size_t>(n));
    double distMax = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        std::copy(dist + i * n, dist + (i + 1) * n, row.begin());
        std::partial_sort(row.begin(), row.begin() + k, row.end());
        double sq = 0;
        for (std::int64_t j = 0; j < k; ++j) {
            sq += row[std::size_t(j)] * row[std::size_t(j)];
        }
        density[std::size_t(i)] = std::exp(-sq / double(k));
        distMax = std::max(distMax, *std::max_element(dist + i * n, dist + (i + 1) * n));
    }
    for (std::int64_t i = 0; i < n; ++i) {
        density[std::size_t(i)] += uniform01(rng.next()) * 1e-6;
    }
    std::vector<double> score(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        double delta = distMax;
        for (std::int64_t j = 0; j < n; ++j) {
            if (density[std::size_t(j)] > density[std::size_t(i)]) {
                delta = std::min(delta, dist[i * n + j]);
            }
        }
        score[std::size_t(i)] = delta * density[std::size_t(i)];
    }
    return score;
}

}  // namespace once::baselines
