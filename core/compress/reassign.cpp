#include "compress/reassign.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <limits>
#include <utility>

#include "compress/certified_topl.h"
#include "compress/top_l_scan.h"

namespace once {
namespace {

// The certified argmax over the selection of one unit token `xr` from its BF16 scores `row` [s]
// (certified_topl.h): the best candidates re-scored in F32; {codeword, cosine}, or {−1, 0} when
// the best is not certified.
std::pair<std::int32_t, float> certifiedBest(const c10::BFloat16* row, const float* xr,
                                             const at::Tensor& cnF,
                                             const std::vector<std::int32_t>& selected,
                                             double eps) {
    const std::int64_t s = std::int64_t(selected.size()), d = cnF.size(1);
    const int candidates = int(std::min<std::int64_t>(s, 16));
    std::int32_t pos[16], ids[16];
    float scores[16];
    scanTopL(row, s, candidates, pos, scores);
    for (int j = 0; j < candidates; ++j) {
        ids[j] = selected[std::size_t(pos[j])];
    }
    const float tau =
        candidates < s ? scores[candidates - 1] : -std::numeric_limits<float>::infinity();
    std::int32_t best = -1;
    float cosine = 0;
    certifyTopL(xr, cnF.data_ptr<float>(), d, ids, candidates, tau, eps, 1, &best, &cosine);
    return {best, best >= 0 ? cosine : 0.f};
}

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
    // Dot products against the selected codewords only, tile by tile.
    const at::Tensor sel = at::from_blob(const_cast<std::int32_t*>(selected.data()),
                                         {std::int64_t(selected.size())}, at::kInt)
                               .to(at::kLong);
    // The same precision as the first assignment, so that a token's rule does not depend on
    // whether its list happened to hold a selected codeword. After the certified kernel the
    // argmax over the selection is certified the same way (certified_topl.h): BF16 scores pick
    // candidates, F32 re-scores them, and a row whose best is not certified is scored in F32.
    const bool bf16 = a.precision == "bfloat16";
    const bool certified = a.kernel == "bf16-certified";
    const at::Tensor cnSelT =
        cn.index_select(0, sel).to(bf16 || certified ? at::kBFloat16 : at::kFloat).t().contiguous();
    const at::Tensor cnF = cn.to(at::kFloat).contiguous();
    const at::Tensor cnSelF32T =
        certified ? cnF.index_select(0, sel).t().contiguous() : at::Tensor();
    const std::int64_t s = std::int64_t(selected.size()), d = cnF.size(1);
    const double eps = bf16ScoreErrorBound(d);
    constexpr std::int64_t kTile = 256;
    const std::int64_t m = std::int64_t(misses.size());
    at::parallel_for(0, (m + kTile - 1) / kTile, 1, [&](std::int64_t t0, std::int64_t t1) {
        for (std::int64_t t = t0; t < t1; ++t) {
            const std::int64_t r0 = t * kTile, r1 = std::min(m, r0 + kTile);
            at::Tensor rows = at::from_blob(misses.data() + r0, {r1 - r0}, at::kLong);
            at::Tensor xf = x.index_select(0, rows).to(at::kFloat);
            at::Tensor xn = (xf / xf.norm(2, 1, true).clamp_min(1e-12)).contiguous();
            if (certified) {
                const at::Tensor sc = at::mm(xn.to(at::kBFloat16), cnSelT).contiguous();
                at::Tensor exact;  // the F32 product of the tile, only if a row needs it
                for (std::int64_t r = r0; r < r1; ++r) {
                    const std::int64_t i = misses[std::size_t(r)];
                    auto [id, cosine] =
                        certifiedBest(sc.data_ptr<c10::BFloat16>() + (r - r0) * s,
                                      xn.data_ptr<float>() + (r - r0) * d, cnF, selected, eps);
                    std::int64_t p = id >= 0 ? position[std::size_t(id)] : -1;
                    if (p < 0) {  // not certified: as the F32 kernel scores it
                        if (!exact.defined()) {
                            exact = at::mm(xn, cnSelF32T).contiguous();
                        }
                        const float* row = exact.data_ptr<float>() + (r - r0) * s;
                        p = bestOfRow(row, selected);
                        cosine = row[p];
                    }
                    out.groupOfToken[std::size_t(i)] = groupOffset + p;
                    out.cosine[std::size_t(i)] = cosine;
                }
                continue;
            }
            at::Tensor sc = bf16 ? at::mm(xn.to(at::kBFloat16), cnSelT).to(at::kFloat)
                                 : at::mm(xn, cnSelT).contiguous();
            const float* sp = sc.data_ptr<float>();
            for (std::int64_t r = r0; r < r1; ++r) {
                const float* row = sp + (r - r0) * s;
                const std::int64_t best = bestOfRow(row, selected);
                const std::int64_t i = misses[std::size_t(r)];
                out.groupOfToken[std::size_t(i)] = groupOffset + best;
                out.cosine[std::size_t(i)] = row[best];
            }
        }
    });
}

}  // namespace once
