// VisionZip (Yang et al.), per frame, in its SigLIP / LLaVA-OneVision form, following ModelTC/llmc
// llmc/compression/token_reduction/visionzip.py (visionzip_hook):
//   dominant    the `dom` tokens with the highest importance (SigLIP has no CLS: attention
//               received averaged over heads and queries), kept in position order;
//   contextual  of the remaining `rem` tokens, targets at stride max(1, rem // ctx) (the first
//               ctx of them); every other remaining token joins its most cosine-similar target,
//               and a contextual token is target + mean(members) (a sum, as in the public code).
// Per frame R = min(P, floor(budget / T)) tokens, split like the README default 54 + 10:
// ctx = floor(R · contextual / (dominant + contextual)), dom = R − ctx; a budget below T gives
// an empty result. Features-only substitutes: importance = cosine of a token to its frame mean
// when no attention is given (frameMeanSimilarity); the matching metric is the tokens' own
// features (the public code uses the attention keys, which the interface does not carry).
#include <ATen/ATen.h>

#include "compress/baselines/baseline_common.h"
#include "util/error.h"

namespace once::baselines {
namespace {

class VisionZip final : public BaselineCompressor {
  public:
    VisionZip(std::int64_t dominant, std::int64_t contextual)
        : BaselineCompressor("visionzip"), dominant_(dominant), contextual_(contextual) {}

  protected:
    std::int64_t smallestBudget() const override { return video().frames; }  // one token per frame
    CompressionResult run(std::int64_t budget, std::uint64_t /*seed*/) override {
        const PreparedVideo& v = video();
        const std::int64_t retain = std::min(v.patches, budget / v.frames);
        const std::int64_t ctx = retain * contextual_ / (dominant_ + contextual_);
        const std::int64_t dom = retain - ctx;
        const at::Tensor score = v.attention.defined() ? v.attention : frameMeanSimilarity(v.x);
        std::vector<std::int64_t> group(std::size_t(v.numTokens()), -1);
        std::vector<at::Tensor> rows;
        for (std::int64_t t = 0; t < v.frames; ++t) {
            at::Tensor st = score[t].contiguous();
            std::vector<double> s(st.data_ptr<double>(), st.data_ptr<double>() + v.patches);
            std::vector<bool> dominant(std::size_t(v.patches), false);
            for (std::int64_t p : topKIndices(s, dom)) {
                dominant[std::size_t(p)] = true;
            }
            std::vector<std::int64_t> rest;
            for (std::int64_t p = 0; p < v.patches; ++p) {
                if (dominant[std::size_t(p)]) {
                    group[std::size_t(t * v.patches + p)] = std::int64_t(rows.size());
                    rows.push_back(v.x[t][p]);
                } else {
                    rest.push_back(p);
                }
            }
            if (ctx == 0) {
                continue;
            }
            const std::int64_t remaining = std::int64_t(rest.size());
            const std::int64_t step = std::max<std::int64_t>(1, remaining / ctx);
            std::vector<std::int64_t> targets, others;
            for (std::int64_t i = 0; i < remaining; ++i) {
                const bool target = i % step == 0 && i / step < ctx;
                (target ? targets : others).push_back(rest[std::size_t(i)]);
            }
            const at::Tensor frame = v.x[t];
            auto pick = [&](const std::vector<std::int64_t>& idx) {
                return frame.index_select(0,
                                          at::tensor(at::ArrayRef<std::int64_t>(idx), at::kLong));
            };
            const at::Tensor targetRows = pick(targets);
            const std::int64_t first = std::int64_t(rows.size());
            at::Tensor sums = at::zeros({std::int64_t(targets.size()), v.dim}, at::kDouble);
            at::Tensor counts = at::zeros({std::int64_t(targets.size()), 1}, at::kDouble);
            if (!others.empty()) {
                const at::Tensor otherRows = pick(others);
                const std::vector<std::int64_t> nearest = nearestByCosine(otherRows, targetRows);
                const at::Tensor n = at::tensor(at::ArrayRef<std::int64_t>(nearest), at::kLong);
                sums.index_add_(0, n, otherRows);
                counts =
                    at::bincount(n, {}, std::int64_t(targets.size())).to(at::kDouble).unsqueeze(1);
                for (std::size_t i = 0; i < others.size(); ++i) {
                    group[std::size_t(t * v.patches + others[i])] = first + nearest[i];
                }
            }
            const at::Tensor contextual = targetRows + sums / counts.clamp_min(1.0);
            for (std::size_t i = 0; i < targets.size(); ++i) {
                group[std::size_t(t * v.patches + targets[i])] = first + std::int64_t(i);
                rows.push_back(contextual[std::int64_t(i)]);
            }
        }
        return makeResult(at::stack(rows), group, v, budget);
    }

  private:
    std::int64_t dominant_, contextual_;
};

const bool registered = [] {
    registerCompressor(
        {"visionzip",
         "VisionZip per frame: dominant tokens by attention (frame-mean cosine without it) plus "
         "contextual tokens merged into strided targets",
         "ModelTC/llmc llmc/compression/token_reduction/visionzip.py (port of "
         "dvlab-research/VisionZip); SigLIP importance as in cokeshao/HoliTom "
         "llava/model/multimodal_encoder/siglip_encoder.py",
         {{"dominant", "54"}, {"contextual", "10"}},
         false,
         "VisionZip",
         false,
         [](const BudgetShape& s, const CompressorParams&) {
             return BudgetRange{s.frames, s.tokens(),
                                "floor(B / T) tokens per frame, dominant then contextual"};
         }},
        [](const CompressorSpec& spec) {
            const auto& d = compressorInfo("visionzip").defaults;
            const std::int64_t dom = paramInt("visionzip", spec.params, d, "dominant");
            const std::int64_t ctx = paramInt("visionzip", spec.params, d, "contextual");
            if (dom < 0 || ctx < 0 || dom + ctx < 1) {
                fail("parameter of method 'visionzip' out of range", {}, "dominant, contextual",
                     ">= 0 with a positive sum", std::to_string(dom) + ", " + std::to_string(ctx));
            }
            return std::make_unique<VisionZip>(dom, ctx);
        });
    return true;
}();

}  // namespace
}  // namespace once::baselines
