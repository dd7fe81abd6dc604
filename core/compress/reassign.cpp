#include "compress/reassign.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <atomic>

#include "compress/certified_topl.h"

namespace once {
namespace {

// The argmax of one row of F32 scores against the selection; ties go to the lower codeword
// index, whatever the selection order.
std::int64_t bestOfRow(const float* row, const std::vector<std::int32_t>& selected) {
    std::int64_t best = 0;
    for (std::int64_t c = 1; c < std::int64_t(selected.size()); ++c) {
        if (row[c] > row[best] ||
            (row[c] == row[best] && selected[std::size_t(c)] < selected[std::size_t(best)])) {
            best = c;
        }
    }
    return best;
}

}  // namespace

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
        // The list is the exact top of the ranking up to its end (L entries, or a certified
        // prefix ended by −1): its first selected entry is the argmax over the selection.
        std::int64_t p = 0;
        while (p < l && ids[i * l + p] >= 0 && position[std::size_t(ids[i * l + p])] < 0) {
            ++p;
        }
        if (p < l && ids[i * l + p] >= 0) {
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
    // Dot products against the selected codewords only: one GEMM on all cores per block of
    // misses, then the argmax of each row on all cores, in the precision of the first
    // assignment, so that a token's rule does not depend on whether its list happened to hold a
    // selected codeword. The certified kernel's float32 uses the BF16 product and re-scores in
    // F32 only the codewords its error bound cannot rule out (about 4 of 256 per far token at
    // D = 3584). Blocks of 1024 rows keep each gathered block at a few MB that the allocator
    // reuses: 4096-row blocks were fresh mmap'd pages on every call, and faulting them in took
    // longer than the GEMM (docs/performance.md).
    const at::Tensor sel = at::from_blob(const_cast<std::int32_t*>(selected.data()),
                                         {std::int64_t(selected.size())}, at::kInt)
                               .to(at::kLong);
    const bool bf16 = a.precision == "bfloat16";
    const bool certified = a.kernel == "bf16-certified";
    const bool bf16Product = bf16 || certified;
    const at::Tensor cnSel = cn.index_select(0, sel).to(at::kFloat).contiguous();
    const at::Tensor cnSelB = bf16Product ? cnSel.to(at::kBFloat16) : at::Tensor();
    const at::Tensor cnSelT = (bf16Product ? cnSelB : cnSel).t().contiguous();
    const std::int64_t s = std::int64_t(selected.size()), d = cn.size(1);
    const float* codes = cnSel.data_ptr<float>();
    const Bf16RowNorms codeNorms = certified ? maxBf16RowNorms(cnSel, cnSelB) : Bf16RowNorms{};
    constexpr std::int64_t kBlock = 1024;
    const std::int64_t m = std::int64_t(misses.size());
    std::atomic<std::int64_t> rescored{0};
    for (std::int64_t r0 = 0; r0 < m; r0 += kBlock) {
        const std::int64_t r1 = std::min(m, r0 + kBlock);
        const at::Tensor rows = at::from_blob(misses.data() + r0, {r1 - r0}, at::kLong);
        const at::Tensor xf = x.index_select(0, rows).to(at::kFloat);
        const at::Tensor xn = (xf / xf.norm(2, 1, true).clamp_min(1e-12)).contiguous();
        const at::Tensor xb = bf16Product ? xn.to(at::kBFloat16) : at::Tensor();
        const at::Tensor sc = bf16Product ? at::mm(xb, cnSelT).to(at::kFloat).contiguous()
                                          : at::mm(xn, cnSelT).contiguous();
        const float* sp = sc.data_ptr<float>();
        const float* xp = xn.data_ptr<float>();
        const std::uint16_t* xbp = certified ? bf16Bits(xb) : nullptr;
        at::parallel_for(r0, r1, 64, [&](std::int64_t b, std::int64_t e) {
            std::int64_t looked = 0;
            for (std::int64_t r = b; r < e; ++r) {
                const float* row = sp + (r - r0) * s;
                const std::int64_t i = misses[std::size_t(r)];
                std::int64_t best;
                float score;
                if (certified) {
                    const float* xr = xp + (r - r0) * d;
                    const double slack =
                        bf16TokenSlack(bf16RowNorms(xr, xbp + (r - r0) * d, d), codeNorms, d);
                    best = certifiedArgmax(xr, codes, d, row, selected.data(), s, slack, score,
                                           looked);
                } else {
                    best = bestOfRow(row, selected);
                    score = row[best];
                }
                out.groupOfToken[std::size_t(i)] = groupOffset + best;
                out.cosine[std::size_t(i)] = score;
            }
            rescored += looked;
        });
    }
    out.rescoredScores += rescored.load();
}

}  // namespace once
