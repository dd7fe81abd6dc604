#pragma once
// The Qwen3.5 hybrid language model (Qwen3_5TextModel + lm_head of transformers 5) written
// functionally with ATen ops: Gated DeltaNet layers (causal depthwise convolution, the gated
// delta rule chunked for prefill and recurrent for decoding) interleaved with gated full
// attention (q/k RMSNorm, partial interleaved M-RoPE with 3-D positions, sigmoid output gate,
// grouped key/value heads), zero-centred RMSNorms and a SwiGLU MLP. The per-request state (key/
// value cache of the attention layers, convolution and recurrent state of the DeltaNet layers,
// and the M-RoPE position offset) is carried across calls in Qwen3_5State.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/generation.h"
#include "models/qwen3_5/qwen3_5_config.h"

namespace once {

class HfCheckpoint;

/// Everything a request carries between forward calls.
struct Qwen3_5State {
    std::vector<at::Tensor> keys, values;  ///< full-attention layers: [1, kvHeads, L, headDim]
    std::vector<at::Tensor> conv;          ///< DeltaNet layers: last kernel-1 inputs [1, K-1, C]
    std::vector<at::Tensor> recurrent;     ///< DeltaNet layers: [1, vHeads, kDim, vDim] F32
    std::int64_t length = 0;               ///< tokens seen
    /// Text position of the next token = length + ropeDelta (M-RoPE compresses a video's
    /// positions, so the offset is max(position) + 1 - prompt length after the prefill).
    std::int64_t ropeDelta = 0;
    void clear() { *this = Qwen3_5State(); }
};

struct Qwen3_5LoadOptions {
    std::string device = "cpu";     ///< "cpu", "cuda" or "cuda:N"
    std::string dtype = "float32";  ///< "float32", "float16", "bfloat16" or "auto" (config's)
};

/// How a prefill longer than one token runs the DeltaNet layers.
enum class DeltaRuleMode {
    Chunked,    ///< the chunked (UT transform) form, as transformers' prefill (default)
    Recurrent,  ///< token by token, as transformers' decoding (for tests and short inputs)
};

class Qwen3_5TextModel {
  public:
    /// Loads the language model from `ckpt` (tensors under "model.language_model." and
    /// "lm_head."). Throws OnceError naming the folder and tensor for a missing weight or a
    /// wrong shape.
    static Qwen3_5TextModel load(const HfCheckpoint& ckpt, const Qwen3_5Config& config,
                                 const Qwen3_5LoadOptions& options = {});

    const Qwen3_5TextConfig& config() const noexcept { return config_; }
    at::Device device() const;
    at::ScalarType dtype() const;

    /// Token embeddings [S, hidden] of ids [S]; throws OnceError for an id outside the vocabulary.
    at::Tensor embed(const at::Tensor& ids) const;

    /// Embeddings of a prompt whose `videoTokenId` placeholders take the rows of `visual`
    /// [n, hidden] in order (transformers' masked_scatter). Throws OnceError when the number of
    /// placeholders differs from n.
    at::Tensor embedWithVisual(const std::vector<std::int64_t>& ids, std::int64_t videoTokenId,
                               const at::Tensor& visual) const;

    /// Runs embeddings [S, hidden] with M-RoPE `positions` [3, S] (t, h, w; integer) and updates
    /// `state`; an undefined `positions` means text positions length + ropeDelta + 0..S-1 on all
    /// three axes (what decoding uses). Returns logits [S, vocab] F32 (the last row only when
    /// `lastOnly`). The first call on an empty state sets state.ropeDelta from `positions`.
    at::Tensor forward(const at::Tensor& embeddings, const at::Tensor& positions,
                       Qwen3_5State& state, bool lastOnly = false,
                       DeltaRuleMode mode = DeltaRuleMode::Chunked) const;

  private:
    struct Layer {
        bool full = false;
        at::Tensor inNorm, postNorm, gate, up, down;
        // full attention
        at::Tensor q, k, v, o, qNorm, kNorm;
        // Gated DeltaNet
        at::Tensor inQkv, inZ, inB, inA, dtBias, aLog, norm, out;
        at::Tensor conv;  ///< depthwise convolution taps, F32 [kernel, channels]
    };
    at::Tensor rmsNorm(const at::Tensor& x, const at::Tensor& w) const;
    at::Tensor attention(const Layer& l, std::size_t slot, const at::Tensor& x,
                         const at::Tensor& cos, const at::Tensor& sin, Qwen3_5State& s) const;
    at::Tensor deltaNet(const Layer& l, std::size_t slot, const at::Tensor& x, Qwen3_5State& s,
                        DeltaRuleMode mode) const;

    Qwen3_5TextConfig config_;
    at::Tensor embedTokens_, norm_, lmHead_, invFreq_;
    std::vector<Layer> layers_;
    std::vector<std::size_t> slot_;  ///< per layer: index into the state's attention/DeltaNet lists
    std::size_t numFull_ = 0, numLinear_ = 0;
};

/// Chunks of the chunked delta rule whose intermediates exist at once (2 × 64 = 128 tokens).
/// Measured on one CPU thread with 8 value heads of 128 (bench/bench_qwen3_5.py's geometry), µs
/// a token at 1k / 16k tokens: 1 chunk 36 / 36, 2: 40 / 37, 4: 56 / 43, 16: 74 / 42, all at once
/// (transformers' form) 82 / 104. Past 2 the intermediates fall out of cache; the per-op
/// overhead a smaller block would save is already small against the [heads, 64, 128] matmuls.
constexpr std::int64_t kDeltaRuleChunksPerBlock = 2;

/// The gated delta rule, transformers' torch_chunk_gated_delta_rule: q, k [1, S, kHeads, dk],
/// v [1, S, vHeads, dv], g (log decay) and beta [1, S, vHeads]; `state` [1, vHeads, dk, dv] F32
/// or undefined (zeros), replaced by the final state. Returns [1, S, vHeads, dv] in v's dtype.
/// Streams over blocks of `chunksPerBlock` chunks carrying the state: memory bounded by the
/// block, time linear in S; the result does not depend on the block size.
at::Tensor gatedDeltaRuleChunked(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                 const at::Tensor& g, const at::Tensor& beta, at::Tensor& state,
                                 std::int64_t chunk = 64,
                                 std::int64_t chunksPerBlock = kDeltaRuleChunksPerBlock);
/// The same token by token (torch_recurrent_gated_delta_rule).
at::Tensor gatedDeltaRuleRecurrent(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                   const at::Tensor& g, const at::Tensor& beta, at::Tensor& state);

/// Prefills `embeddings` [S, hidden] at `positions` [3, S] into a fresh state and generates as
/// generate() does for Qwen2Model (greedy or sampled, stop tokens, callbacks, cancellation).
GenerationResult generateQwen3_5(const Qwen3_5TextModel& model, const at::Tensor& embeddings,
                                 const at::Tensor& positions, const GenerationOptions& options,
                                 Qwen3_5State* finalState = nullptr);

}  // namespace once
