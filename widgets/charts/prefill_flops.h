#pragma once
// Prefill FLOPs of a decoder-only LLM from its actual input length (DESIGN §3, efficiency):
// the budget chart's second axis. Counts multiply-adds as 2 FLOPs, all layers, the quadratic
// attention term, and the LM head for the last position only (prefill returns one next token).
#include <QString>
#include <cstdint>

namespace once::studio {

struct LlmDims {
    QString name;
    int layers = 0;
    int hidden = 0;
    int intermediate = 0;
    int heads = 0;
    int kvHeads = 0;
    std::int64_t vocab = 0;
    bool isValid() const { return layers > 0 && hidden > 0 && heads > 0; }

    /// Qwen2-7B, the LLM of LLaVA-OneVision-7B (the paper's main backbone): the reference used
    /// when no model folder is loaded.
    static LlmDims qwen2_7b();
};

/// FLOPs to prefill `tokens` input tokens (text + visual).
double prefillFlops(const LlmDims& dims, std::int64_t tokens);

}  // namespace once::studio
