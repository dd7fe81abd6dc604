#include "models/qwen2_model.h"

#include <ATen/ATen.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "models/hf_checkpoint.h"
#include "models/prefill_flops.h"
#include "util/device.h"
#include "util/error.h"

namespace once {
namespace {

// Inverse frequencies of the rotary embedding, with the scaling the config asks for.
at::Tensor inverseFrequencies(const Qwen2Config& c) {
    const std::int64_t d = c.headDim;
    at::Tensor inv =
        1.0 / at::pow(c.rope.theta, at::arange(0, d, 2, at::kLong).to(at::kDouble) / double(d));
    if (c.rope.type == "linear") {
        inv = inv / c.rope.factor;
    } else if (c.rope.type == "llama3") {
        // Llama 3.1's frequency-dependent scaling (transformers _compute_llama3_parameters).
        const double lowWavelen = double(c.rope.originalMaxPositions) / c.rope.lowFreqFactor;
        const double highWavelen = double(c.rope.originalMaxPositions) / c.rope.highFreqFactor;
        at::Tensor wavelen = 2 * M_PI / inv;
        at::Tensor scaled = at::where(wavelen > lowWavelen, inv / c.rope.factor, inv);
        at::Tensor smooth = (double(c.rope.originalMaxPositions) / wavelen - c.rope.lowFreqFactor) /
                            (c.rope.highFreqFactor - c.rope.lowFreqFactor);
        at::Tensor smoothed = (1 - smooth) * scaled / c.rope.factor + smooth * scaled;
        at::Tensor medium = (wavelen >= highWavelen) & (wavelen <= lowWavelen);
        inv = at::where(medium, smoothed, scaled);
    }
    return inv.to(at::kFloat);
}

std::string shapeString(const at::Tensor& t) {
    std::string s = "[";
    for (std::int64_t i = 0; i < t.dim(); ++i) {
        s += (i ? ", " : "") + std::to_string(t.size(i));
    }
    return s + "]";
}

}  // namespace

at::ScalarType parseModelDtype(const std::string& name, const std::string& field) {
    if (name == "float32" || name == "f32" || name == "fp32") {
        return at::kFloat;
    }
    if (name == "float16" || name == "f16" || name == "fp16" || name == "half") {
        return at::kHalf;
    }
    if (name == "bfloat16" || name == "bf16") {
        return at::kBFloat16;
    }
    fail("unsupported dtype", {}, field, "float32, float16 or bfloat16", name);
}

Qwen2Model Qwen2Model::load(const HfCheckpoint& ckpt, const Qwen2LoadOptions& options) {
    Qwen2Model m;
    const std::string configFile = ckpt.file("config.json");
    m.config_ = Qwen2Config::fromJson(ckpt.config(), configFile);
    const Qwen2Config& c = m.config_;
    const at::Device device = resolveDevice(options.device);
    const at::ScalarType dtype =
        parseModelDtype(options.dtype == "auto" ? c.dtype : options.dtype, "dtype");

    // Key layouts: plain causal LM, LLaVA original/HF hub, transformers-5 in-memory names.
    const std::string embedName =
        ckpt.firstPresent({"model.embed_tokens.weight", "language_model.model.embed_tokens.weight",
                           "model.language_model.embed_tokens.weight"});
    const std::string base =
        embedName.substr(0, embedName.size() - std::string("embed_tokens.weight").size());
    const std::int64_t H = c.hiddenSize, I = c.intermediateSize, hd = c.headDim;
    const std::int64_t qDim = c.numHeads * hd, kvDim = c.numKvHeads * hd;

    auto load = [&](const std::string& name, std::vector<std::int64_t> shape) {
        return ckpt.get(name, shape).to(device, dtype).contiguous();
    };
    auto optional = [&](const std::string& name, std::vector<std::int64_t> shape) {
        return ckpt.has(name) ? load(name, shape) : at::Tensor();
    };
    m.embedTokens_ = load(embedName, {c.vocabSize, H});
    m.norm_ = load(base + "norm.weight", {H});
    for (std::int64_t i = 0; i < c.numLayers; ++i) {
        const std::string p = base + "layers." + std::to_string(i) + ".";
        Layer l;
        l.inNorm = load(p + "input_layernorm.weight", {H});
        l.postNorm = load(p + "post_attention_layernorm.weight", {H});
        l.q = load(p + "self_attn.q_proj.weight", {qDim, H});
        l.k = load(p + "self_attn.k_proj.weight", {kvDim, H});
        l.v = load(p + "self_attn.v_proj.weight", {kvDim, H});
        l.o = load(p + "self_attn.o_proj.weight", {H, qDim});
        l.qb = optional(p + "self_attn.q_proj.bias", {qDim});
        l.kb = optional(p + "self_attn.k_proj.bias", {kvDim});
        l.vb = optional(p + "self_attn.v_proj.bias", {kvDim});
        l.ob = optional(p + "self_attn.o_proj.bias", {H});
        l.gate = load(p + "mlp.gate_proj.weight", {I, H});
        l.up = load(p + "mlp.up_proj.weight", {I, H});
        l.down = load(p + "mlp.down_proj.weight", {H, I});
        m.layers_.push_back(std::move(l));
    }
    // The head: untied checkpoints store it beside the decoder; tied ones reuse the embedding.
    const std::string headPrefix = base.substr(0, base.size() - std::string("model.").size());
    std::vector<std::string> headNames = {headPrefix + "lm_head.weight", "lm_head.weight"};
    bool haveHead = ckpt.has(headNames[0]) || ckpt.has(headNames[1]);
    if (haveHead) {
        m.lmHead_ = load(ckpt.firstPresent(headNames), {c.vocabSize, H});
    } else if (c.tieWordEmbeddings) {
        m.lmHead_ = m.embedTokens_;
    } else {
        ckpt.firstPresent(headNames);  // throws naming the folder and the tensor
    }
    m.invFreq_ = inverseFrequencies(c).to(device);
    return m;
}

at::Device Qwen2Model::device() const {
    return embedTokens_.device();
}
at::ScalarType Qwen2Model::dtype() const {
    return embedTokens_.scalar_type();
}

at::Tensor Qwen2Model::embed(const at::Tensor& ids) const {
    at::Tensor i = ids.to(device(), at::kLong);
    if (i.numel() > 0 &&
        (i.min().item<std::int64_t>() < 0 || i.max().item<std::int64_t>() >= config_.vocabSize)) {
        fail("token id outside the model's vocabulary", {}, "input_ids",
             "0.." + std::to_string(config_.vocabSize - 1),
             std::to_string(i.min().item<std::int64_t>()) + ".." +
                 std::to_string(i.max().item<std::int64_t>()));
    }
    return at::embedding(embedTokens_, i);
}

at::Tensor Qwen2Model::rmsNorm(const at::Tensor& x, const at::Tensor& w) const {
    // As transformers: normalise in F32, cast back, then scale.
    at::Tensor xf = x.to(at::kFloat);
    xf = xf * at::rsqrt(xf.pow(2).mean({-1}, true) + config_.rmsNormEps);
    return w * xf.to(x.scalar_type());
}

at::Tensor Qwen2Model::rope(const at::Tensor& x, const at::Tensor& cos,
                            const at::Tensor& sin) const {
    const std::int64_t half = x.size(-1) / 2;
    at::Tensor rotated = at::cat({-x.narrow(-1, half, half), x.narrow(-1, 0, half)}, -1);
    return x * cos + rotated * sin;
}

at::Tensor Qwen2Model::forward(const at::Tensor& embeddings, KvCache& cache, bool lastOnly) const {
    const auto& c = config_;
    if (embeddings.dim() != 2 || embeddings.size(1) != c.hiddenSize) {
        fail("input embeddings have the wrong shape", {}, "inputs_embeds",
             "[S, " + std::to_string(c.hiddenSize) + "]", shapeString(embeddings));
    }
    const std::int64_t S = embeddings.size(0), past = cache.length, hd = c.headDim;
    if (cache.keys.empty()) {
        cache.keys.assign(std::size_t(c.numLayers), at::Tensor());
        cache.values.assign(std::size_t(c.numLayers), at::Tensor());
    }
    at::Tensor h = embeddings.to(device(), dtype()).unsqueeze(0);  // [1, S, H]

    at::Tensor pos =
        at::arange(past, past + S, at::TensorOptions().device(device()).dtype(at::kFloat));
    at::Tensor freqs = at::outer(pos, invFreq_);
    at::Tensor emb = at::cat({freqs, freqs}, -1);
    at::Tensor cos = emb.cos().to(dtype()).view({1, 1, S, hd});
    at::Tensor sin = emb.sin().to(dtype()).view({1, 1, S, hd});

    // With a cache and several new tokens, causality needs an explicit mask over past + new.
    at::Tensor mask;
    if (S > 1 && past > 0) {
        at::Tensor rows = at::arange(S, at::TensorOptions().device(device())).unsqueeze(1) + past;
        at::Tensor cols = at::arange(past + S, at::TensorOptions().device(device())).unsqueeze(0);
        mask = (cols <= rows).view({1, 1, S, past + S});
    }
    for (std::size_t li = 0; li < layers_.size(); ++li) {
        const Layer& l = layers_[li];
        at::Tensor x = rmsNorm(h, l.inNorm);
        at::Tensor q = at::linear(x, l.q, l.qb).view({1, S, c.numHeads, hd}).transpose(1, 2);
        at::Tensor k = at::linear(x, l.k, l.kb).view({1, S, c.numKvHeads, hd}).transpose(1, 2);
        at::Tensor v = at::linear(x, l.v, l.vb).view({1, S, c.numKvHeads, hd}).transpose(1, 2);
        q = rope(q, cos, sin);
        k = rope(k, cos, sin);
        if (cache.keys[li].defined()) {
            k = at::cat({cache.keys[li], k}, 2);
            v = at::cat({cache.values[li], v}, 2);
        }
        cache.keys[li] = k;
        cache.values[li] = v;
        at::Tensor a = at::scaled_dot_product_attention(
            q, k, v, mask.defined() ? std::optional<at::Tensor>(mask) : std::nullopt, 0.0,
            /*is_causal=*/S > 1 && past == 0, std::nullopt, /*enable_gqa=*/true);
        a = a.transpose(1, 2).reshape({1, S, c.numHeads * hd});
        h = h + at::linear(a, l.o, l.ob);
        x = rmsNorm(h, l.postNorm);
        h = h + at::linear(at::silu(at::linear(x, l.gate)) * at::linear(x, l.up), l.down);
    }
    cache.length = past + S;
    if (lastOnly) {
        h = h.narrow(1, S - 1, 1);
    }
    h = rmsNorm(h, norm_);
    return at::linear(h, lmHead_).squeeze(0).to(at::kFloat);
}

double Qwen2Model::prefillFlops(std::int64_t n) const {
    return once::prefillFlops(LlmShape::of(config_, config_.modelType), n);
}

}  // namespace once
