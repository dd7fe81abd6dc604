// ToMe bipartite soft matching (Bolya et al.), following facebookresearch/ToMe tome/merge.py
// (bipartite_soft_matching with merge_wavg), applied to the whole video's tokens, round after
// round, until at most `budget` remain:
//   1. metric = current tokens, L2-normalised (ToMe uses the attention keys averaged over heads;
//      the interface carries only the tokens);
//   2. alternate split A = positions 0, 2, 4, …, B = 1, 3, 5, …; each A token's best edge is its
//      most cosine-similar B token;
//   3. the r = min(r_param, t/2, t − budget) A tokens with the best edges merge into their B
//      token by size-weighted mean (so every output is exactly the mean of its source tokens);
//   4. the new order is [unmerged A in order of decreasing edge score, all of B], as ToMe
//      concatenates them, and the next round splits that order again.
// ToMe's own r = 16 is per layer of a 24-layer ViT on ~600 tokens. A whole video has ~23k
// tokens, where r = 16 would take over a thousand rounds of a (t/2)² similarity matrix, so the
// default here is r = 0: as many merges per round as bipartite matching allows (t/2, or what is
// left above the budget), which reaches any budget in about log2(N / B) rounds. `--param r=16`
// gives the public per-layer schedule. Ties sort stably (lower index first); the public code's
// argsort is not stable, which matters only for exact ties.
#include <ATen/ATen.h>

#include <numeric>

#include "compress/baselines/baseline_common.h"
#include "util/error.h"

namespace once::baselines {
namespace {

class Tome final : public BaselineCompressor {
  public:
    explicit Tome(std::int64_t r) : BaselineCompressor("tome"), r_(r) {}

  protected:
    CompressionResult run(std::int64_t budget, std::uint64_t /*seed*/) override {
        const PreparedVideo& v = video();
        const std::int64_t n = v.numTokens();
        at::Tensor x = v.x.view({-1, v.dim}).clone();
        at::Tensor size = at::ones({n, 1}, at::kDouble);
        std::vector<std::int64_t> owner(
            static_cast<std::size_t>(n));  // current row of each source token
        std::iota(owner.begin(), owner.end(), std::int64_t(0));
        std::int64_t t = n;
        while (t > budget) {
            const std::int64_t r = std::min({r_ > 0 ? r_ : t, t / 2, t - budget});
            const std::int64_t na = (t + 1) / 2, nb = t / 2;
            const at::Tensor metric = normalizeRows(x);
            const at::Tensor a = metric.slice(0, 0, t, 2), b = metric.slice(0, 1, t, 2);
            auto [nodeMax, nodeIdx] = at::matmul(a, b.t()).max(1);
            nodeMax = nodeMax.contiguous();
            nodeIdx = nodeIdx.contiguous();
            std::vector<double> best(nodeMax.data_ptr<double>(), nodeMax.data_ptr<double>() + na);
            const std::vector<std::int64_t> edges = topKIndices(best, na);  // all, best first
            const std::int64_t* dstOf = nodeIdx.data_ptr<std::int64_t>();

            // Size-weighted merge of the r best A tokens into their B tokens.
            at::Tensor xa = x.slice(0, 0, t, 2), xb = x.slice(0, 1, t, 2).clone();
            at::Tensor sa = size.slice(0, 0, t, 2), sb = size.slice(0, 1, t, 2).clone();
            std::vector<std::int64_t> src(edges.begin(), edges.begin() + r), dst;
            for (std::int64_t s : src) {
                dst.push_back(dstOf[s]);
            }
            const at::Tensor srcT = at::tensor(at::ArrayRef<std::int64_t>(src), at::kLong);
            const at::Tensor dstT = at::tensor(at::ArrayRef<std::int64_t>(dst), at::kLong);
            at::Tensor weighted = (xb * sb).index_add_(0, dstT, (xa * sa).index_select(0, srcT));
            sb.index_add_(0, dstT, sa.index_select(0, srcT));
            xb = weighted / sb;

            // New order: unmerged A (edge order), then B. Remap every source token's row.
            std::vector<std::int64_t> unm(edges.begin() + r, edges.end());
            std::vector<std::int64_t> newRow(static_cast<std::size_t>(t));
            for (std::size_t i = 0; i < unm.size(); ++i) {
                newRow[std::size_t(2 * unm[i])] = std::int64_t(i);
            }
            const std::int64_t nu = std::int64_t(unm.size());
            for (std::int64_t i = 0; i < r; ++i) {
                newRow[std::size_t(2 * src[std::size_t(i)])] = nu + dst[std::size_t(i)];
            }
            for (std::int64_t j = 0; j < nb; ++j) {
                newRow[std::size_t(2 * j + 1)] = nu + j;
            }
            for (auto& o : owner) {
                o = newRow[std::size_t(o)];
            }
            const at::Tensor unmT = at::tensor(at::ArrayRef<std::int64_t>(unm), at::kLong);
            x = at::cat({xa.index_select(0, unmT), xb});
            size = at::cat({sa.index_select(0, unmT), sb});
            t = x.size(0);
        }
        return makeResult(x, owner, v, budget);
    }

  private:
    std::int64_t r_;
};

const bool registered = [] {
    registerCompressor({"tome",
                        "ToMe bipartite soft matching on the video's tokens, r merges per round "
                        "(0: as many as allowed) until the budget is met",
                        "facebookresearch/ToMe tome/merge.py (bipartite_soft_matching, "
                        "merge_wavg)",
                        {{"r", "0"}},
                        false,
                        "ToMe",
                        false,
                        {}},
                       [](const CompressorSpec& spec) {
                           const std::int64_t r =
                               paramInt("tome", spec.params, compressorInfo("tome").defaults, "r");
                           if (r < 0) {
                               fail("parameter of method 'tome' out of range", {}, "r",
                                    ">= 0 (0: as many as allowed)", std::to_string(r));
                           }
                           return std::make_unique<Tome>(r);
                       });
    return true;
}();

}  // namespace
}  // namespace once::baselines
