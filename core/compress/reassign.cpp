#include "compress/reassign.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

namespace once {

void reassignTokens(const at::Tensor& x, const at::Tensor& cn, const Assignment& a,
                    const std::vector<std::int32_t>& selected, std::int64_t groupOffset,
                    const std::vector<std::int64_t>& tokens, Reassignment& out) {
    const std::int64_t k = a.codebookSize, l = a.listSize();
    const bool all = tokens.empty();
    const std::int64_t n = all ? a.numTokens : std::int64_t(tokens.size());
    std::vector<std::int32_t> position(std::size_t(k), -1);
    for (std::size_t p = 0; p < selected.size(); ++p) {
        position[std::size_t(selected[p])] = std::int32_t(p);
    }
    const std::int32_t* ids = a.topIds.data_ptr<std::int32_t>();
    const float* scores = a.topScores.data_ptr<float>();

    std::vector<std::int64_t> misses;
    for (std::int64_t j = 0; j < n; ++j) {
        const std::int64_t i = all ? j : tokens[std::size_t(j)];
        std::int64_t p = 0;
        while (p < l && position[std::size_t(ids[i * l + p])] < 0) {
            ++p;
        }
        if (p < l) {
            out.groupOfToken[std::size_t(i)] = groupOffset + position[std::size_t(ids[i * l + p])];
            out.cosine[std::size_t(i)] = scores[i * l + p];
        } else {
            misses.push_back(i);
        }
    }
    out.fallbackTokens += std::int64_t(misses.size());
    if (misses.empty() || selected.empty()) {
        return;
    }
    // Dot products against the selected codewords only, tile by tile.
    const at::Tensor sel = at::from_blob(const_cast<std::int32_t*>(selected.data()),
                                         {std::int64_t(selected.size())}, at::kInt)
                               .to(at::kLong);
    // The same precision as the first assignment, so that a token's rule does not depend on
    // whether its list happened to hold a selected codeword.
    const bool bf16 = a.precision == "bfloat16";
    const at::Tensor cnSelT =
        cn.index_select(0, sel).to(bf16 ? at::kBFloat16 : at::kFloat).t().contiguous();
    const std::int64_t s = std::int64_t(selected.size());
    constexpr std::int64_t kTile = 256;
    const std::int64_t m = std::int64_t(misses.size());
    at::parallel_for(0, (m + kTile - 1) / kTile, 1, [&](std::int64_t t0, std::int64_t t1) {
        for (std::int64_t t = t0; t < t1; ++t) {
            const std::int64_t r0 = t * kTile, r1 = std::min(m, r0 + kTile);
            at::Tensor rows = at::from_blob(misses.data() + r0, {r1 - r0}, at::kLong);
            at::Tensor xf = x.index_select(0, rows).to(at::kFloat);
            at::Tensor xn = xf / xf.norm(2, 1, true).clamp_min(1e-12);
            at::Tensor sc = bf16 ? at::mm(xn.to(at::kBFloat16), cnSelT).to(at::kFloat)
                                 : at::mm(xn, cnSelT).contiguous();
            const float* sp = sc.data_ptr<float>();
            for (std::int64_t r = r0; r < r1; ++r) {
                const float* row = sp + (r - r0) * s;
                std::int64_t best = 0;
                for (std::int64_t c = 1; c < s; ++c) {
                    // Ties go to the lower codeword index, whatever the selection order.
                    if (row[c] > row[best] ||
                        (row[c] == row[best] &&
                         selected[std::size_t(c)] < selected[std::size_t(best)])) {
                        best = c;
                    }
                }
                const std::int64_t i = misses[std::size_t(r)];
                out.groupOfToken[std::size_t(i)] = groupOffset + best;
                out.cosine[std::size_t(i)] = row[best];
            }
        }
    });
}

}  // namespace once
