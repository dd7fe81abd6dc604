#include "compress/baselines/forest_matcher.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace once::baselines {

ForestMatcher::ForestMatcher(const at::Tensor& unit, const std::vector<std::int64_t>& position,
                             std::int64_t gridH, std::int64_t gridW, double tau, double tauSpatial)
    : position_(position),
      dim_(unit.size(1)),
      width_(gridW),
      tau_(tau),
      eps_((double(unit.size(1)) + 4) * std::ldexp(1.0, -24) * 1.01 + 1e-12),
      reach_(float(1.0 - tauSpatial)),
      unit64_(unit.contiguous()) {
    const auto total = std::int64_t(position.size());
    const float rowScale = float(std::max<std::int64_t>(gridH - 1, 1));
    const float colScale = float(std::max<std::int64_t>(gridW - 1, 1));
    for (std::int64_t r = 0; r < gridH; ++r) {
        rowCoord_.push_back(float(r) / rowScale);
    }
    for (std::int64_t p : position) {
        col_.push_back(float(p % gridW) / colScale);
    }
    // The grid rows within reach of each grid row: a range (the coordinates are monotone).
    for (std::size_t a = 0; a < rowCoord_.size(); ++a) {
        std::int64_t lo = 1, hi = 0;
        for (std::size_t b = 0; b < rowCoord_.size(); ++b) {
            if (std::abs(rowCoord_[a] - rowCoord_[b]) <= reach_) {
                lo = lo > hi ? std::int64_t(b) : lo;
                hi = std::int64_t(b);
            }
        }
        reachable_.emplace_back(lo, hi);
    }
    // Nodes by (grid row, id): the earlier nodes of a grid row are a prefix of its block.
    byRow_.resize(std::size_t(total));
    std::iota(byRow_.begin(), byRow_.end(), std::int64_t(0));
    std::stable_sort(byRow_.begin(), byRow_.end(),
                     [&](std::int64_t a, std::int64_t b) { return rowOf(a) < rowOf(b); });
    rowStart_.assign(rowCoord_.size() + 1, 0);
    for (std::int64_t g : byRow_) {
        ++rowStart_[std::size_t(rowOf(g)) + 1];
    }
    std::partial_sum(rowStart_.begin(), rowStart_.end(), rowStart_.begin());
    filled_.assign(rowCoord_.size(), 0);
    unit32_ = unit64_.to(at::kFloat);
    byRow32_ = unit32_.index_select(0, at::tensor(at::ArrayRef<std::int64_t>(byRow_)));
}

std::vector<std::int64_t> ForestMatcher::frame(std::int64_t begin, std::int64_t end,
                                               const std::vector<std::int64_t>& tree) {
    const std::size_t rows = rowCoord_.size();
    std::vector<std::int64_t> first(rows + 1, end);  // first node of the frame at row >= r
    for (std::int64_t j = end - 1; j >= begin; --j) {
        first[std::size_t(rowOf(j))] = j;
    }
    for (std::size_t r = rows; r-- > 0;) {
        first[r] = std::min(first[r], first[r + 1]);
    }
    // Float32 candidates of each node: earlier nodes in reach, cosine >= tau − eps.
    std::vector<std::vector<std::pair<std::int64_t, float>>> cand(std::size_t(end - begin));
    const double tauLow = tau_ - eps_;
    for (std::size_t a = 0; a < rows; ++a) {
        const auto [lo, hi] = reachable_[a];
        const std::int64_t n = filled_[a];
        if (n == 0 || lo > hi) {
            continue;
        }
        const std::int64_t j0 = first[std::size_t(lo)], j1 = first[std::size_t(hi) + 1];
        if (j0 == j1) {
            continue;
        }
        const at::Tensor s =
            at::mm(byRow32_.slice(0, rowStart_[a], rowStart_[a] + n), unit32_.slice(0, j0, j1).t())
                .contiguous();
        const float* sp = s.data_ptr<float>();
        for (std::int64_t r = 0; r < n; ++r) {
            const std::int64_t i = byRow_[std::size_t(rowStart_[a] + r)];
            for (std::int64_t j = j0; j < j1; ++j) {
                const float sv = sp[r * (j1 - j0) + (j - j0)];
                if (sv >= tauLow &&
                    std::abs(col_[std::size_t(i)] - col_[std::size_t(j)]) <= reach_) {
                    cand[std::size_t(j - begin)].emplace_back(i, sv);
                }
            }
        }
    }
    // Float64 decides among those that can be the best.
    std::vector<std::int64_t> best(std::size_t(end - begin), -1);
    for (std::int64_t j = begin; j < end; ++j) {
        const auto& c = cand[std::size_t(j - begin)];
        float top = -1e30f;
        for (const auto& [i, sv] : c) {
            top = std::max(top, sv);
        }
        const double keep = std::max(tauLow, double(top) - 2 * eps_);
        double bestS = 0;
        float bestD = 0;
        std::int64_t& b = best[std::size_t(j - begin)];
        for (const auto& [i, sv] : c) {
            if (sv < keep) {
                continue;
            }
            const double s = dot(i, j);
            const float d = distance(i, j);
            if (s >= tau_ &&
                (b < 0 || s > bestS ||
                 (s == bestS &&
                  (d < bestD || (d == bestD && tree[std::size_t(i)] < tree[std::size_t(b)]))))) {
                b = i;
                bestS = s;
                bestD = d;
            }
        }
    }
    for (std::int64_t j = begin; j < end; ++j) {
        ++filled_[std::size_t(rowOf(j))];
    }
    return best;
}

double ForestMatcher::dot(std::int64_t i, std::int64_t j) const {
    const double* a = unit64_.data_ptr<double>() + i * dim_;
    const double* b = unit64_.data_ptr<double>() + j * dim_;
    double s[4] = {0, 0, 0, 0};  // four independent sums (the compiler may vectorise them)
    std::int64_t k = 0;
    for (; k + 4 <= dim_; k += 4) {
        for (int l = 0; l < 4; ++l) {
            s[l] += a[k + l] * b[k + l];
        }
    }
    for (; k < dim_; ++k) {
        s[0] += a[k] * b[k];
    }
    return (s[0] + s[1]) + (s[2] + s[3]);
}

float ForestMatcher::distance(std::int64_t i, std::int64_t j) const {
    const float dr = std::abs(rowCoord_[std::size_t(rowOf(i))] - rowCoord_[std::size_t(rowOf(j))]);
    return std::max(dr, std::abs(col_[std::size_t(i)] - col_[std::size_t(j)]));
}

}  // namespace once::baselines
