// Uniform frame drop: keep F = min(T, floor(budget / P)) whole frames at round(linspace(0, T−1,
// F)) (numpy.linspace, the frame sampler of the LLaVA-OneVision evaluation code), every token of
// the other frames dropped. A budget below P gives an empty result.
#include <ATen/ATen.h>

#include "compress/baselines/baseline_common.h"

namespace once::baselines {
namespace {

class FrameDrop final : public BaselineCompressor {
  public:
    FrameDrop() : BaselineCompressor("frame-drop") {}

  protected:
    std::int64_t smallestBudget() const override { return video().patches; }  // one whole frame
    CompressionResult run(std::int64_t budget, std::uint64_t /*seed*/) override {
        const PreparedVideo& v = video();
        const std::int64_t keep = std::min(v.frames, budget / v.patches);
        std::vector<std::int64_t> frames = linspaceIndices(v.frames, keep);
        std::vector<std::int64_t> group(std::size_t(v.numTokens()), -1);
        for (std::size_t k = 0; k < frames.size(); ++k) {
            for (std::int64_t p = 0; p < v.patches; ++p) {
                group[std::size_t(frames[k] * v.patches + p)] = std::int64_t(k) * v.patches + p;
            }
        }
        at::Tensor kept =
            v.x.index_select(0, at::tensor(at::ArrayRef<std::int64_t>(frames), at::kLong));
        return makeResult(kept.reshape({-1, v.dim}), group, v, budget);
    }
};

const bool registered = [] {
    registerCompressor({"frame-drop",
                        "Uniform frame drop: whole frames at linspace positions, floor(budget/P) "
                        "of them",
                        "numpy.linspace frame sampling as in LLaVA-VL/LLaVA-NeXT "
                        "playground/demo/video_demo.py (load_video); frame count from the budget",
                        {},
                        false,
                        "Frame drop",
                        false,
                        [](const BudgetShape& s, const CompressorParams&) {
                            return BudgetRange{s.patches, s.tokens(),
                                               "whole frames: floor(B / P) of them, all P "
                                               "tokens each"};
                        }},
                       [](const CompressorSpec&) { return std::make_unique<FrameDrop>(); });
    return true;
}();

}  // namespace
}  // namespace once::baselines
