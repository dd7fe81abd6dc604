// DyCoke's temporal token merging (TTM, its first stage), following ModelTC/llmc
// llmc/compression/token_reduction/dycoke.py (dycole_ttm, a port of KD-TAO/DyCoke):
//   pass 1  frames go in pairs (i, i+1), i even: frame i is kept whole, frame i+1 keeps the
//           `keep` tokens least cosine-similar to the same position in frame i;
//   pass 2  for i = 0, 4, 8, … < T−4: frame i+2 is instead pruned the same way against frame i.
// So in each full group of four frames one is whole and three are pruned. DyCoke's ratio K
// (public default 0.7, keep = int((1−K)·P)) is set from the budget instead: with W whole and Q
// pruned frames, keep = min(P, floor((budget − W·P) / Q)). A budget below W·P cannot be met by
// TTM; there the pruned frames keep nothing and floor(budget / P) of the whole frames are kept,
// chosen by linspace (an empty result below P). Kept tokens of a pruned frame come in order of
// increasing similarity, as topk(largest=False) returns them. DyCoke's second stage prunes the
// LLM's KV cache during decoding and has no place here. One deviation: with an odd T the public
// pair loop drops the last frame; here it is kept whole.
#include <ATen/ATen.h>

#include <algorithm>

#include "compress/baselines/baseline_common.h"

namespace once::baselines {
namespace {

class DyCoke final : public BaselineCompressor {
  public:
    DyCoke() : BaselineCompressor("dycoke") {}

  protected:
    void prepareMore() override {
        // reference_[t] = −1 for a whole frame, else the frame it is compared with.
        const std::int64_t T = video().frames;
        reference_.assign(std::size_t(T), -1);
        for (std::int64_t i = 0; i + 1 < T; i += 2) {
            reference_[std::size_t(i + 1)] = i;
        }
        for (std::int64_t i = 0; i < T - 4; i += 4) {
            reference_[std::size_t(i + 2)] = i;
        }
        // Same-position cosine of each pruned frame to its reference (budget-independent).
        const at::Tensor unit = normalizeRows(video().x);
        similarity_.assign(std::size_t(T), {});
        for (std::int64_t t = 0; t < T; ++t) {
            if (reference_[std::size_t(t)] >= 0) {
                at::Tensor s = (unit[t] * unit[reference_[std::size_t(t)]]).sum(1).contiguous();
                similarity_[std::size_t(t)].assign(s.data_ptr<double>(),
                                                   s.data_ptr<double>() + s.numel());
            }
        }
    }

    CompressionResult run(std::int64_t budget, std::uint64_t /*seed*/) override {
        const PreparedVideo& v = video();
        std::vector<std::int64_t> whole;
        std::int64_t pruned = 0;
        for (std::int64_t t = 0; t < v.frames; ++t) {
            if (reference_[std::size_t(t)] < 0) {
                whole.push_back(t);
            } else {
                ++pruned;
            }
        }
        const std::int64_t wholeTokens = std::int64_t(whole.size()) * v.patches;
        std::int64_t keep = 0;
        std::vector<bool> keepWhole(std::size_t(v.frames), false);
        if (budget >= wholeTokens) {
            keep = pruned > 0 ? std::min(v.patches, (budget - wholeTokens) / pruned) : 0;
            for (std::int64_t t : whole) {
                keepWhole[std::size_t(t)] = true;
            }
        } else {
            const std::int64_t frames = budget / v.patches;
            if (frames < 1) {
                return emptyResult(v, budget);
            }
            for (std::int64_t i : linspaceIndices(std::int64_t(whole.size()), frames)) {
                keepWhole[std::size_t(whole[std::size_t(i)])] = true;
            }
        }
        std::vector<std::int64_t> group(std::size_t(v.numTokens()), -1), kept;
        for (std::int64_t t = 0; t < v.frames; ++t) {
            std::vector<std::int64_t> positions;
            if (keepWhole[std::size_t(t)]) {
                for (std::int64_t p = 0; p < v.patches; ++p) {
                    positions.push_back(p);
                }
            } else if (reference_[std::size_t(t)] >= 0 && keep > 0) {
                std::vector<double> negated = similarity_[std::size_t(t)];
                for (double& s : negated) {
                    s = -s;
                }
                positions = topKIndices(negated, keep);
            }
            for (std::int64_t p : positions) {
                group[std::size_t(t * v.patches + p)] = std::int64_t(kept.size());
                kept.push_back(t * v.patches + p);
            }
        }
        at::Tensor rows =
            v.x.view({-1, v.dim})
                .index_select(0, at::tensor(at::ArrayRef<std::int64_t>(kept), at::kLong));
        return makeResult(rows, group, v, budget);
    }

  private:
    std::vector<std::int64_t> reference_;
    std::vector<std::vector<double>> similarity_;
};

const bool registered = [] {
    registerCompressor({"dycoke",
                        "DyCoke temporal token merging: frame i whole, its neighbours keep their "
                        "least similar tokens, keep ratio from the budget",
                        "ModelTC/llmc llmc/compression/token_reduction/dycoke.py (dycole_ttm, "
                        "port of KD-TAO/DyCoke)",
                        {},
                        false,
                        "DyCoke",
                        false,
                        [](const BudgetShape& s, const CompressorParams&) {
                            // One whole frame, or one token per pruned frame when all are pruned.
                            return BudgetRange{std::max(s.patches, s.frames), s.tokens(),
                                               "whole key frames first, then the least similar "
                                               "tokens of the others"};
                        }},
                       [](const CompressorSpec&) { return std::make_unique<DyCoke>(); });
    return true;
}();

}  // namespace
}  // namespace once::baselines
