#include "charts/prefill_flops.h"

namespace once::studio {

LlmDims LlmDims::qwen2_7b() {
    LlmDims d;
    d.name = QStringLiteral("Qwen2-7B");
    d.layers = 28;
    d.hidden = 3584;
    d.intermediate = 18944;
    d.heads = 28;
    d.kvHeads = 4;
    d.vocab = 152064;
    return d;
}

double prefillFlops(const LlmDims& d, std::int64_t tokens) {
    if (!d.isValid() || tokens <= 0) {
        return 0;
    }
    const double n = static_cast<double>(tokens);
    const double h = d.hidden;
    const double kv = h * (d.kvHeads > 0 ? d.kvHeads : d.heads) / d.heads;  // GQA: K/V width
    // Q and O projections h×h, K and V h×kv, gated MLP three h×I matrices.
    const double linear = 2.0 * n * (2.0 * h * h + 2.0 * h * kv + 3.0 * h * d.intermediate);
    // Scores QKᵀ and the weighted sum of V, causal: about half of the n×n pairs.
    const double attention = 2.0 * 2.0 * h * n * (n + 1) / 2.0;
    const double head = 2.0 * h * static_cast<double>(d.vocab);
    return d.layers * (linear + attention) + head;
}

}  // namespace once::studio
