#include "models/prefill_flops.h"

#include <algorithm>

namespace once {

LlmShape LlmShape::qwen2_7b() {
    // Qwen/Qwen2-7B's config.json: name, layers, hidden, intermediate, heads, kv heads, head
    // dim, vocabulary (the order of LlmShape's fields).
    return {"Qwen2-7B", 28, 3584, 18944, 28, 4, 128, 152064};
}

double prefillFlops(const LlmShape& s, std::int64_t n) {
    if (!s.valid() || n <= 0) {
        return 0;
    }
    const double H = double(s.hidden), I = double(s.intermediate), N = double(n);
    const double q = double(s.heads * s.headDim);
    const double kv = double((s.kvHeads > 0 ? s.kvHeads : s.heads) * s.headDim);
    const double mlp = 2.0 * 3 * H * I;  // the gated MLP's three matrices
    // Q (and its gate) and O projections, K and V (grouped-query width).
    const double attnPerToken = 2.0 * (H * q * (s.gatedQuery ? 2 : 1) + 2 * H * kv + q * H);
    // QKᵀ and AV over the causal triangle.
    const double attention = 2.0 * 2.0 * q * N * double(n + 1) / 2.0;
    const std::int64_t linear = std::max<std::int64_t>(0, std::min(s.linearLayers, s.layers));
    const double full = double(s.layers - linear);
    double total = full * ((attnPerToken + mlp) * N + attention);
    if (linear > 0) {
        const double kd = double(s.linearKeyHeads * s.linearKeyDim);
        const double vd = double(s.linearValueHeads * s.linearValueDim);
        const double conv = 2 * kd + vd;  // channels of the depthwise convolution
        // in_proj_qkv, in_proj_z, in_proj_b and _a, out_proj; the convolution; the state
        // (decay, read, write, query: three multiply-adds per entry).
        const double perToken =
            2.0 * (H * conv + H * vd + 2 * H * double(s.linearValueHeads) + vd * H) +
            2.0 * double(s.convKernel) * conv +
            2.0 * 3 * double(s.linearValueHeads) * double(s.linearKeyDim * s.linearValueDim);
        total += double(linear) * (perToken + mlp) * N;
    }
    const double head = 2.0 * H * double(s.vocab);  // logits of the last position only
    return total + head;
}

}  // namespace once
