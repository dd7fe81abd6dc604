#include "models/prefill_flops.h"

#include "models/qwen2_config.h"

namespace once {

LlmShape LlmShape::qwen2_7b() {
    LlmShape s;
    s.name = "Qwen2-7B";
    s.layers = 28;
    s.hidden = 3584;
    s.intermediate = 18944;
    s.heads = 28;
    s.kvHeads = 4;
    s.headDim = 128;
    s.vocab = 152064;
    return s;
}

LlmShape LlmShape::of(const Qwen2Config& c, std::string name) {
    LlmShape s;
    s.name = std::move(name);
    s.layers = c.numLayers;
    s.hidden = c.hiddenSize;
    s.intermediate = c.intermediateSize;
    s.heads = c.numHeads;
    s.kvHeads = c.numKvHeads;
    s.headDim = c.headDim;
    s.vocab = c.vocabSize;
    return s;
}

double prefillFlops(const LlmShape& s, std::int64_t n) {
    if (!s.valid() || n <= 0) {
        return 0;
    }
    const double H = double(s.hidden), I = double(s.intermediate);
    const double q = double(s.heads * s.headDim);
    const double kv = double((s.kvHeads > 0 ? s.kvHeads : s.heads) * s.headDim);
    // Q and O projections, K and V (grouped-query width), the gated MLP's three matrices.
    const double perToken = 2.0 * (H * q + 2 * H * kv + q * H + 3 * H * I);
    // QKᵀ and AV over the causal triangle.
    const double attention = 2.0 * 2.0 * q * double(n) * double(n + 1) / 2.0;
    const double head = 2.0 * H * double(s.vocab);  // logits of the last position only
    return double(s.layers) * (perToken * double(n) + attention) + head;
}

}  // namespace once
