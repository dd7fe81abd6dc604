#pragma once
// The Qwen2/Llama decoder written functionally with ATen ops (no torch::nn): token embedding,
// RMSNorm, rotary embeddings, grouped-query attention through LibTorch's scaled-dot-product
// attention, SwiGLU MLP, tied or untied head, and a key/value cache for generation.
// Checked against transformers' Qwen2ForCausalLM and LlavaOnevisionForConditionalGeneration.
#include <ATen/core/Tensor.h>

#include <functional>
#include <string>
#include <vector>

#include "models/qwen2/qwen2_config.h"

namespace once {

class HfCheckpoint;
class GgufFile;
struct DecoderKernels;

/// Past keys/values per layer, [1, kvHeads, length, headDim] each.
///
/// keys[i]/values[i] are views of the first `length` positions of keyStore[i]/valueStore[i],
/// buffers with room for more positions, so that a decoding step writes its key and value in
/// place instead of copying the whole cache (at::cat) in every layer. Only the cache that
/// allocated the buffers writes into them, and only beyond its `length`: a copy shares them for
/// reading and takes fresh buffers when it appends, so a cache copied after a prefill can be
/// continued in two ways and both stay valid.
struct KvCache {
    /// Whether this object allocated its buffers: false in a copy (copying resets it, moving
    /// carries it over).
    struct StoreOwner {
        bool owns = false;
        StoreOwner() = default;
        StoreOwner(const StoreOwner&) noexcept {}
        StoreOwner(StoreOwner&& o) noexcept : owns(o.owns) { o.owns = false; }
        StoreOwner& operator=(const StoreOwner&) noexcept {
            owns = false;
            return *this;
        }
        StoreOwner& operator=(StoreOwner&& o) noexcept {
            owns = o.owns;
            o.owns = false;
            return *this;
        }
    };
    std::vector<at::Tensor> keys, values;
    std::int64_t length = 0;
    std::vector<at::Tensor> keyStore, valueStore;  ///< [1, kvHeads, capacity, headDim]
    StoreOwner storeOwner;
    void clear() {
        keys.clear();
        values.clear();
        keyStore.clear();
        valueStore.clear();
        storeOwner.owns = false;
        length = 0;
    }
};

struct Qwen2LoadOptions {
    std::string device = "cpu";     ///< "cpu", "cuda" or "cuda:N"
    std::string dtype = "float32";  ///< "float32", "float16", "bfloat16" or "auto" (config's)
};

class Qwen2Model {
  public:
    /// Loads the decoder from a checkpoint whose tensors may sit under "", "language_model." or
    /// "model.language_model." (LLaVA layouts). Throws OnceError naming the folder and tensor
    /// for a missing tensor or a wrong shape.
    static Qwen2Model load(const HfCheckpoint& ckpt, const Qwen2LoadOptions& options = {});
    /// Loads a Llama-architecture GGUF file, de-quantised (defined in gguf_llama_loader.cpp).
    /// Throws OnceError naming the file and the key or tensor that is missing or wrong.
    static Qwen2Model loadGguf(const GgufFile& file, const Qwen2LoadOptions& options = {});

    const Qwen2Config& config() const noexcept { return config_; }
    at::Device device() const;
    at::ScalarType dtype() const;

    /// Token embeddings [S, hidden] of ids [S] (any integer dtype, any device).
    at::Tensor embed(const at::Tensor& ids) const;
    /// Runs embeddings [S, hidden] at positions cache.length … cache.length+S-1, appends their
    /// keys/values to `cache`, and returns logits [S, vocab] in F32 (only the last row when
    /// `lastOnly`, which is what generation needs: the full [S, vocab] matrix is large).
    at::Tensor forward(const at::Tensor& embeddings, KvCache& cache, bool lastOnly = false) const;

    /// Multiply-accumulate FLOPs (×2) of a prefill of `length` tokens: projections, MLP, head
    /// and attention scores (causal: length²/2 per head and layer).
    double prefillFlops(std::int64_t length) const;

  private:
    friend class Qwen2StaticDecoder;  // the fixed-shape decoding step (qwen2_static_decode.h)
    /// The q, k and v projections are one matrix (and one bias, undefined when the checkpoint
    /// has none), gate and up another: one GEMV each in a decoding step instead of five, whose
    /// row blocks the fused kernels of decoder_kernels.h read in place.
    struct Layer {
        at::Tensor inNorm, postNorm, qkv, qkvBias, o, ob, gateUp, down;
    };
    /// Tensor names of one file layout (Hugging Face or GGUF): the embedding, the final norm, the
    /// prefix of layer i (`layers` + i + ".") and, after it, each layer tensor's name.
    struct TensorNames {
        std::string embed, norm, layers;
        std::string inNorm, postNorm, q, k, v, o, qb, kb, vb, ob, gate, up, down;
    };
    /// Reads tensor `name` of `shape` (any dtype, any device); `rotaryHeads` > 0 marks the rows
    /// of a rotary projection of that many heads (GGUF stores them permuted). Returns an undefined
    /// tensor when `optional` and absent; throws OnceError naming the file and tensor otherwise.
    using TensorSource =
        std::function<at::Tensor(const std::string& name, const std::vector<std::int64_t>& shape,
                                 std::int64_t rotaryHeads, bool optional)>;
    /// Fills the embedding, the final norm and the layers (config_ set) from `read`, cast to
    /// `dtype` on `device`: the one decoder layout both loaders read.
    void loadDecoder(const TensorNames& names, const TensorSource& read, at::Device device,
                     at::ScalarType dtype);
    at::Tensor rmsNorm(const at::Tensor& x, const at::Tensor& w) const;
    /// The fusable parts of a layer on this model's device (decoder_kernels.h).
    const DecoderKernels& kernels() const;
    /// Rows per chunk of a layer's position-wise parts (projections, rope, MLP) for S rows.
    std::int64_t rowChunk(std::int64_t S) const;

    Qwen2Config config_;
    at::Tensor embedTokens_, norm_, lmHead_, invFreq_;
    std::vector<Layer> layers_;
};

/// Rows of the embedding `table` [vocab, hidden] for token `ids` [S] (any integer dtype, any
/// device; moved to the table's); throws OnceError naming input_ids when one is outside the
/// vocabulary. The token embedding of every decoder here.
at::Tensor embedTokenIds(const at::Tensor& table, const at::Tensor& ids);

/// Rotary position embedding as transformers applies it: x·cos + rotate_half(x)·sin for x
/// [1, n, heads, hd] and cos/sin [n, hd/2] (transformers' tables repeat that half twice), into
/// `out` (same shape, any strides): out₁ = x₁·c − x₂·s, out₂ = x₂·c + x₁·s, one rounding per
/// product and one per sum as transformers, without the concatenated copy of rotate_half.
void applyRotary(const at::Tensor& x, const at::Tensor& cos, const at::Tensor& sin, at::Tensor out);

/// "float32"/"float16"/"bfloat16" (also "f32", "fp16", "bf16") → dtype; throws OnceError.
at::ScalarType parseModelDtype(const std::string& name, const std::string& field = "dtype");

}  // namespace once
