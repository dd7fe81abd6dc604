// Uniform spatial average pooling per frame (the plain baseline of LLaVA-OneVision's own 2×2
// pooling): each frame's gridH × gridW tokens are averaged in non-overlapping s × s blocks, the
// blocks at the right and bottom edges over the cells they have (avg_pool2d, ceil_mode). The
// stride s is the smallest one for which T · ceil(H/s) · ceil(W/s) <= budget; a budget below T
// (one block per frame) gives an empty result.
#include <ATen/ATen.h>

#include "compress/baselines/baseline_common.h"

namespace once::baselines {
namespace {

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) {
    return (a + b - 1) / b;
}

class SpatialPool final : public BaselineCompressor {
  public:
    SpatialPool() : BaselineCompressor("spatial-pool") {}

  protected:
    CompressionResult run(std::int64_t budget, std::uint64_t /*seed*/) override {
        const PreparedVideo& v = video();
        const std::int64_t h = v.gridH, w = v.gridW;
        std::int64_t stride = 1;
        while (stride < std::max(h, w) &&
               v.frames * ceilDiv(h, stride) * ceilDiv(w, stride) > budget) {
            ++stride;
        }
        const std::int64_t bh = ceilDiv(h, stride), bw = ceilDiv(w, stride);
        if (v.frames * bh * bw > budget) {
            return emptyResult(v, budget);
        }
        std::vector<std::int64_t> group(std::size_t(v.numTokens()));
        for (std::int64_t t = 0; t < v.frames; ++t) {
            for (std::int64_t r = 0; r < h; ++r) {
                for (std::int64_t c = 0; c < w; ++c) {
                    group[std::size_t(t * v.patches + r * w + c)] =
                        (t * bh + r / stride) * bw + c / stride;
                }
            }
        }
        // Every token is in one block, so the outputs are exactly the group means.
        at::Tensor g = at::tensor(at::ArrayRef<std::int64_t>(group), at::kLong);
        at::Tensor sums = at::zeros({v.frames * bh * bw, v.dim}, at::kDouble)
                              .index_add_(0, g, v.x.view({-1, v.dim}));
        at::Tensor counts = at::bincount(g, {}, v.frames * bh * bw).to(at::kDouble);
        return makeResult(sums / counts.unsqueeze(1), group, v, budget);
    }
};

const bool registered = [] {
    registerCompressor({"spatial-pool",
                        "Uniform spatial average pooling per frame, stride chosen so that "
                        "T x ceil(H/s) x ceil(W/s) <= budget",
                        "LLaVA-VL/LLaVA-NeXT llava/model/llava_arch.py (get_2dPool, average "
                        "pooling); stride from the budget",
                        {},
                        false,
                        "Spatial pooling",
                        false,
                        [](const BudgetShape& s, const CompressorParams&) {
                            // The coarsest stride leaves one token per frame.
                            return BudgetRange{s.frames, s.tokens(),
                                               "every frame pooled with the smallest stride "
                                               "that fits T x ceil(H/s) x ceil(W/s) <= B"};
                        }},
                       [](const CompressorSpec&) { return std::make_unique<SpatialPool>(); });
    return true;
}();

}  // namespace
}  // namespace once::baselines
