#include "models/gguf_llama_loader.h"

#include <ATen/ATen.h>

#include <cmath>

#include "models/gguf_file.h"
#include "models/qwen2/qwen2_model.h"
#include "util/device.h"
#include "util/error.h"

namespace once {

Qwen2Config qwen2ConfigFromGguf(const GgufFile& g) {
    const std::string arch = g.getString("general.architecture");
    if (arch != "llama") {
        // Other architectures differ in tensor names, biases or rotary layout; refuse rather
        // than load them wrongly.
        fail("unsupported GGUF architecture", g.path(), "general.architecture", "llama", arch);
    }
    const std::string p = arch + ".";
    // Sizes are bounded so that products of them (heads × head size, …) cannot overflow; the
    // tensors themselves must then be in the file with exactly those shapes.
    auto positive = [&](const std::string& key) {
        const std::int64_t v = g.getInt(key);
        if (v <= 0 || v > kMaxGgufModelSize) {
            fail("a GGUF model size is out of range", g.path(), key,
                 "an integer from 1 to " + std::to_string(kMaxGgufModelSize), std::to_string(v));
        }
        return v;
    };
    auto positiveFloat = [&](const std::string& key, double fallback) {
        const double v = g.getFloatOr(key, fallback);
        if (!std::isfinite(v) || v <= 0) {
            fail("a GGUF model parameter is not a positive number", g.path(), key,
                 "a finite number > 0", std::to_string(v));
        }
        return v;
    };
    Qwen2Config c;
    c.modelType = arch;
    c.hiddenSize = positive(p + "embedding_length");
    c.numLayers = positive(p + "block_count");
    c.intermediateSize = positive(p + "feed_forward_length");
    c.numHeads = positive(p + "attention.head_count");
    if (c.numHeads > c.hiddenSize) {
        // Each head is a slice of the hidden state: more heads than values leaves them empty.
        fail("more attention heads than hidden values", g.path(), p + "attention.head_count",
             "at most embedding_length (" + std::to_string(c.hiddenSize) + ")",
             std::to_string(c.numHeads));
    }
    c.numKvHeads =
        g.has(p + "attention.head_count_kv") ? positive(p + "attention.head_count_kv") : c.numHeads;
    if (c.numHeads % c.numKvHeads != 0) {
        fail("attention heads are not a multiple of key/value heads", g.path(),
             p + "attention.head_count_kv", "a divisor of " + std::to_string(c.numHeads),
             std::to_string(c.numKvHeads));
    }
    c.headDim = g.has(p + "attention.key_length") ? positive(p + "attention.key_length")
                                                  : c.hiddenSize / c.numHeads;
    if (c.headDim % 2 != 0) {
        fail("the attention head size is odd (rotary embeddings pair values)", g.path(),
             p + "attention.key_length", "an even head size", std::to_string(c.headDim));
    }
    if (g.has(p + "rope.dimension_count") && g.getInt(p + "rope.dimension_count") != c.headDim) {
        fail("partial rotary embeddings are not supported", g.path(), p + "rope.dimension_count",
             std::to_string(c.headDim), std::to_string(g.getInt(p + "rope.dimension_count")));
    }
    // The vocabulary: the explicit key, else the tokenizer's token list, else the embedding.
    if (g.has(p + "vocab_size")) {
        c.vocabSize = positive(p + "vocab_size");
    } else if (g.has("tokenizer.ggml.tokens")) {
        c.vocabSize = std::int64_t(g.find("tokenizer.ggml.tokens")->arraySize());
    } else {
        c.vocabSize = g.tensorInfo("token_embd.weight").shape().front();
    }
    c.rmsNormEps = positiveFloat(p + "attention.layer_norm_rms_epsilon", 1e-5);
    c.rope.theta = positiveFloat(p + "rope.freq_base", 10000.0);
    const std::string scaling = g.getStringOr(p + "rope.scaling.type", "none");
    if (scaling == "linear") {
        c.rope.type = "linear";
        if (!g.has(p + "rope.scaling.factor")) {
            g.getFloat(p + "rope.scaling.factor");  // names the missing key
        }
        c.rope.factor = positiveFloat(p + "rope.scaling.factor", 1.0);
    } else if (scaling != "none") {
        fail("unsupported rotary scaling", g.path(), p + "rope.scaling.type", "none or linear",
             scaling);
    }
    if (g.hasTensor("rope_freqs.weight")) {
        // Llama 3.1 stores its frequency factors as a tensor; not mapped yet.
        fail("rotary frequency factors are not supported", g.path(), "rope_freqs.weight", "absent",
             "present");
    }
    c.tieWordEmbeddings = !g.hasTensor("output.weight");
    if (g.has("tokenizer.ggml.eos_token_id")) {
        c.eosTokenIds.push_back(g.getInt("tokenizer.ggml.eos_token_id"));
    }
    if (g.has("tokenizer.ggml.eot_token_id") &&
        g.getInt("tokenizer.ggml.eot_token_id") != g.getIntOr("tokenizer.ggml.eos_token_id", -1)) {
        c.eosTokenIds.push_back(g.getInt("tokenizer.ggml.eot_token_id"));
    }
    c.dtype = "float32";  // everything is de-quantised to F32 first
    return c;
}

at::Tensor unpermuteRotaryRows(const at::Tensor& w, std::int64_t heads) {
    // convert_hf_to_gguf.py: w.reshape(heads, 2, rows/heads/2, *rest).swapaxes(1, 2); inverse as
    // transformers' reverse_permute: reshape(heads, rows/heads/2, 2, *rest).swapaxes(1, 2).
    const std::int64_t rows = w.size(0);
    std::vector<std::int64_t> split = {heads, rows / heads / 2, 2};
    for (std::int64_t d = 1; d < w.dim(); ++d) {
        split.push_back(w.size(d));
    }
    return w.reshape(split).transpose(1, 2).reshape(w.sizes()).contiguous();
}

Qwen2Model Qwen2Model::loadGguf(const GgufFile& g, const Qwen2LoadOptions& options) {
    Qwen2Model m;
    m.config_ = qwen2ConfigFromGguf(g);
    const Qwen2Config& c = m.config_;
    const at::Device device = resolveDevice(options.device);
    const at::ScalarType dtype =
        parseModelDtype(options.dtype == "auto" ? c.dtype : options.dtype, "dtype");
    const std::int64_t H = c.hiddenSize, hd = c.headDim;
    // De-quantised in F32 on the CPU, then un-permuted, then cast: the same order as
    // transformers, so a float32 model holds the very same values.
    m.loadDecoder(
        {.embed = "token_embd.weight",
         .norm = "output_norm.weight",
         .layers = "blk.",
         .inNorm = "attn_norm.weight",
         .postNorm = "ffn_norm.weight",
         .q = "attn_q.weight",
         .k = "attn_k.weight",
         .v = "attn_v.weight",
         .o = "attn_output.weight",
         .qb = "attn_q.bias",
         .kb = "attn_k.bias",
         .vb = "attn_v.bias",
         .ob = "attn_output.bias",
         .gate = "ffn_gate.weight",
         .up = "ffn_up.weight",
         .down = "ffn_down.weight"},
        [&](const std::string& name, const std::vector<std::int64_t>& shape,
            std::int64_t rotaryHeads, bool optional) {
            if (optional && !g.hasTensor(name)) {
                return at::Tensor();
            }
            const at::Tensor t = g.tensor(name, shape);
            return rotaryHeads > 0 ? unpermuteRotaryRows(t, rotaryHeads) : t;
        },
        device, dtype);
    auto load = [&](const std::string& name, std::vector<std::int64_t> shape) {
        return g.tensor(name, shape).to(device, dtype).contiguous();
    };
    m.lmHead_ = c.tieWordEmbeddings ? m.embedTokens_ : load("output.weight", {c.vocabSize, H});
    // Rotary inverse frequencies as Qwen2Model::load computes them (default or linear).
    at::Tensor inv =
        1.0 / at::pow(c.rope.theta, at::arange(0, hd, 2, at::kLong).to(at::kDouble) / double(hd));
    if (c.rope.type == "linear") {
        inv = inv / c.rope.factor;
    }
    m.invFreq_ = inv.to(at::kFloat).to(device);
    return m;
}

}  // namespace once
