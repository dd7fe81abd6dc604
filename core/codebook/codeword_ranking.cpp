#include "codebook/codeword_ranking.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "codebook/codebook.h"
#include "util/error.h"

namespace once {

CodewordRanking::CodewordRanking(const Codebook& codebook, const at::Tensor& vector) {
    if (vector.dim() != 1 || vector.size(0) != codebook.dim()) {
        fail("codeword ranking: the vector is not of the codebook's dimension", codebook.origin(),
             "dimension", std::to_string(codebook.dim()),
             vector.dim() == 1 ? std::to_string(vector.size(0))
                               : std::to_string(vector.dim()) + "-d tensor");
    }
    // ν(v) with the norm clamped as the codebook's own normalisation clamps it.
    const at::Tensor v = vector.to(at::kCPU, at::kFloat);
    const at::Tensor unit = v / v.norm(2).clamp_min(1e-12);
    const at::Tensor s = at::mv(codebook.normalized(), unit).contiguous();
    scores_.assign(s.data_ptr<float>(), s.data_ptr<float>() + s.numel());
}

bool CodewordRanking::before(std::int64_t a, std::int64_t b) const {
    const float sa = scores_[static_cast<std::size_t>(a)];
    const float sb = scores_[static_cast<std::size_t>(b)];
    const bool na = std::isnan(sa), nb = std::isnan(sb);
    if (na != nb) {
        return nb;
    }
    if (!na && sa != sb) {
        return sa > sb;
    }
    return a < b;
}

std::vector<NearestCodeword> CodewordRanking::nearest(std::int64_t k, std::int64_t skip) const {
    std::vector<std::int64_t> ids(scores_.size());
    std::iota(ids.begin(), ids.end(), std::int64_t{0});
    if (skip >= 0 && skip < size()) {
        ids.erase(ids.begin() + skip);
    }
    const auto n = static_cast<std::ptrdiff_t>(
        std::clamp<std::int64_t>(k, 0, static_cast<std::int64_t>(ids.size())));
    std::partial_sort(ids.begin(), ids.begin() + n, ids.end(),
                      [this](std::int64_t a, std::int64_t b) { return before(a, b); });
    std::vector<NearestCodeword> out;
    out.reserve(static_cast<std::size_t>(n));
    for (std::ptrdiff_t i = 0; i < n; ++i) {
        out.push_back({ids[static_cast<std::size_t>(i)], cosine(ids[static_cast<std::size_t>(i)])});
    }
    return out;
}

std::int64_t CodewordRanking::rankOf(std::int64_t codeword) const {
    std::int64_t rank = 0;
    for (std::int64_t j = 0; j < size(); ++j) {
        rank += before(j, codeword) ? 1 : 0;
    }
    return rank;
}

float CodewordRanking::cosine(std::int64_t codeword) const {
    return scores_.at(static_cast<std::size_t>(codeword));
}

}  // namespace once
