#pragma once
// Prefill FLOPs of a decoder-only LLM from its actual input length (DESIGN §3, efficiency): what
// `once ask` reports, the evaluation records and the studio's budget chart draws. Counts
// multiply-adds as 2 FLOPs, all layers, the causal attention term, and the LM head for the last
// position only (prefill returns one next token). Checked against torch's FLOP counter in
// tests/pipeline/test_answer_parity.cpp.
#include <cstdint>
#include <string>

namespace once {

/// The sizes the count depends on.
struct LlmShape {
    std::string name;
    std::int64_t layers = 0, hidden = 0, intermediate = 0;
    std::int64_t heads = 0, kvHeads = 0, headDim = 0;
    std::int64_t vocab = 0;
    /// Hybrid stacks (Qwen3.5): `linearLayers` of the `layers` are Gated DeltaNet (linear
    /// attention) layers, counted in their recurrent form (projections, the depthwise
    /// convolution, three multiply-adds per state entry and token), so their cost grows
    /// linearly with the input; the others are softmax attention.
    std::int64_t linearLayers = 0;
    std::int64_t linearKeyHeads = 0, linearValueHeads = 0, linearKeyDim = 0, linearValueDim = 0;
    std::int64_t convKernel = 0;
    bool gatedQuery = false;  ///< the query projection also yields the output gate (Qwen3.5)
    bool valid() const { return layers > 0 && hidden > 0 && heads > 0 && headDim > 0; }

    /// Qwen2-7B, the LLM of LLaVA-OneVision-7B (the paper's main backbone): the reference used
    /// when no model folder is loaded.
    static LlmShape qwen2_7b();
    /// The sizes a transformer config names alike (each backbone's config maps itself:
    /// Qwen2Config::llmShape, Qwen3_5TextConfig::llmShape).
    template <class Config>
    static LlmShape transformer(const Config& c, std::string name) {
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
};

/// FLOPs to prefill `tokens` input tokens (text + visual); 0 for an invalid shape or no token.
double prefillFlops(const LlmShape& shape, std::int64_t tokens);

}  // namespace once
