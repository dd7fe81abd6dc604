#include "models/qwen2/qwen2_model.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "models/decoder_kernels.h"
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

// Positions of room a cache buffer gets beyond what it needs when it is (re)allocated, so that
// the decoding steps after a prefill append in place; later growth adds half again.
constexpr std::int64_t kCacheHeadroom = 256;
// Bytes of a chunk's widest intermediate on the CPU (Qwen2Model::rowChunk), and the fewest rows
// a chunk has (fewer make the matrix products inefficient).
constexpr std::int64_t kChunkBytes = std::int64_t(16) << 20;
constexpr std::int64_t kMinChunkRows = 64;

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

void Qwen2Model::loadDecoder(const TensorNames& n, const TensorSource& read, at::Device device,
                             at::ScalarType dtype) {
    const Qwen2Config& c = config_;
    const std::int64_t H = c.hiddenSize, I = c.intermediateSize, hd = c.headDim;
    const std::int64_t qDim = c.numHeads * hd, kvDim = c.numKvHeads * hd;
    auto get = [&](const std::string& name, std::vector<std::int64_t> shape,
                   std::int64_t rotaryHeads = 0, bool optional = false) {
        const at::Tensor t = read(name, shape, rotaryHeads, optional);
        return t.defined() ? t.to(device, dtype).contiguous() : t;
    };
    embedTokens_ = get(n.embed, {c.vocabSize, H});
    norm_ = get(n.norm, {H});
    for (std::int64_t i = 0; i < c.numLayers; ++i) {
        const std::string p = n.layers + std::to_string(i) + ".";
        Layer l;
        l.inNorm = get(p + n.inNorm, {H});
        l.postNorm = get(p + n.postNorm, {H});
        l.qkv = at::cat({get(p + n.q, {qDim, H}, c.numHeads),
                         get(p + n.k, {kvDim, H}, c.numKvHeads), get(p + n.v, {kvDim, H})});
        const at::Tensor qb = get(p + n.qb, {qDim}, c.numHeads, true);
        const at::Tensor kb = get(p + n.kb, {kvDim}, c.numKvHeads, true);
        const at::Tensor vb = get(p + n.vb, {kvDim}, 0, true);
        if (qb.defined() || kb.defined() || vb.defined()) {  // a missing one adds zeros
            const at::TensorOptions opts = l.qkv.options();
            l.qkvBias = at::cat({qb.defined() ? qb : at::zeros({qDim}, opts),
                                 kb.defined() ? kb : at::zeros({kvDim}, opts),
                                 vb.defined() ? vb : at::zeros({kvDim}, opts)});
        }
        l.o = get(p + n.o, {H, qDim});
        l.ob = get(p + n.ob, {H}, 0, true);
        l.gateUp = at::cat({get(p + n.gate, {I, H}), get(p + n.up, {I, H})});
        l.down = get(p + n.down, {H, I});
        layers_.push_back(std::move(l));
    }
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
    const std::int64_t H = c.hiddenSize;
    auto load = [&](const std::string& name, std::vector<std::int64_t> shape) {
        return ckpt.get(name, shape).to(device, dtype).contiguous();
    };
    m.loadDecoder(
        {.embed = embedName,
         .norm = base + "norm.weight",
         .layers = base + "layers.",
         .inNorm = "input_layernorm.weight",
         .postNorm = "post_attention_layernorm.weight",
         .q = "self_attn.q_proj.weight",
         .k = "self_attn.k_proj.weight",
         .v = "self_attn.v_proj.weight",
         .o = "self_attn.o_proj.weight",
         .qb = "self_attn.q_proj.bias",
         .kb = "self_attn.k_proj.bias",
         .vb = "self_attn.v_proj.bias",
         .ob = "self_attn.o_proj.bias",
         .gate = "mlp.gate_proj.weight",
         .up = "mlp.up_proj.weight",
         .down = "mlp.down_proj.weight"},
        [&](const std::string& name, const std::vector<std::int64_t>& shape, std::int64_t,
            bool optional) {
            return optional && !ckpt.has(name) ? at::Tensor() : ckpt.get(name, shape);
        },
        device, dtype);
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

at::Tensor embedTokenIds(const at::Tensor& table, const at::Tensor& ids) {
    // The range check runs where the ids are: a decoding step's single id is a host tensor, and
    // checking it after the copy would stall the GPU queue twice per token for two scalars.
    at::Tensor i = ids.to(at::kLong);
    const std::int64_t vocab = table.size(0);
    if (i.numel() > 0 &&
        (i.min().item<std::int64_t>() < 0 || i.max().item<std::int64_t>() >= vocab)) {
        fail("token id outside the model's vocabulary", {}, "input_ids",
             "0.." + std::to_string(vocab - 1),
             std::to_string(i.min().item<std::int64_t>()) + ".." +
                 std::to_string(i.max().item<std::int64_t>()));
    }
    return at::embedding(table, i.to(table.device()));
}

void applyRotary(const at::Tensor& x, const at::Tensor& cos, const at::Tensor& sin,
                 at::Tensor out) {
    const std::int64_t n = x.size(1), half = x.size(-1) / 2;
    const at::Tensor cs = cos.view({1, n, 1, half}), sn = sin.view({1, n, 1, half});
    const at::Tensor x1 = x.narrow(-1, 0, half), x2 = x.narrow(-1, half, half);
    at::Tensor o1 = out.narrow(-1, 0, half), o2 = out.narrow(-1, half, half);
    at::mul_out(o1, x1, cs);
    o1.sub_(x2 * sn);
    at::mul_out(o2, x2, cs);
    o2.add_(x1 * sn);
}

at::Tensor Qwen2Model::embed(const at::Tensor& ids) const {
    return embedTokenIds(embedTokens_, ids);
}

at::Tensor Qwen2Model::rmsNorm(const at::Tensor& x, const at::Tensor& w) const {
    return kernels().rmsNorm(x, w, config_.rmsNormEps);
}

const DecoderKernels& Qwen2Model::kernels() const {
    return decoderKernels(device());
}

std::int64_t Qwen2Model::rowChunk(std::int64_t S) const {
    if (!device().is_cpu()) {
        return std::max<std::int64_t>(S, 1);  // one launch per op; memory is not faulted in
    }
    // The widest intermediate of a chunk is the MLP's [rows, intermediate] (two of them, F32 in
    // the norms). Kept under glibc's dynamic mmap threshold (at most 32 MiB), a chunk's buffers
    // come back from the heap on the next chunk instead of being faulted in page by page for
    // every op, which cost more than the arithmetic of the element-wise ops at S in the
    // thousands.
    const std::int64_t perRow = 2 * config_.intermediateSize * std::int64_t(sizeof(float));
    return std::clamp<std::int64_t>(kChunkBytes / std::max<std::int64_t>(perRow, 1), kMinChunkRows,
                                    std::max<std::int64_t>(S, 1));
}

namespace {

// Attention of one query row q [1, 1, heads, hd] to every cached position (a decoding step,
// or the last row of a prefill), as [1, heads, 1, hd]. In F32 on the CPU, two matrix products
// with the query heads of a key/value head stacked as rows are 2.7× faster than the flash
// kernel, which splits a single query into per-head blocks (0.50 against 1.34 ms per layer at
// 5,848 positions on one core); in BF16 the flash kernel is the faster one.
at::Tensor singleQueryAttention(const at::Tensor& q, const at::Tensor& keys,
                                const at::Tensor& values) {
    const std::int64_t heads = q.size(2), hd = q.size(3), kvHeads = keys.size(1);
    if (q.scalar_type() != at::kFloat || !q.is_cpu()) {
        return at::scaled_dot_product_attention(q.transpose(1, 2), keys, values, std::nullopt, 0.0,
                                                false, std::nullopt, /*enable_gqa=*/true);
    }
    // Query head h reads key/value head h / (heads / kvHeads), as enable_gqa does.
    const at::Tensor qg = q.reshape({kvHeads, heads / kvHeads, hd});
    const at::Tensor scores = at::matmul(qg, keys.select(0, 0).transpose(1, 2)) /
                              std::sqrt(double(hd));  // [kvHeads, group, L]
    const at::Tensor out = at::matmul(at::softmax(scores, -1), values.select(0, 0));
    return out.reshape({1, heads, 1, hd});
}

}  // namespace

at::Tensor Qwen2Model::forward(const at::Tensor& embeddings, KvCache& cache, bool lastOnly) const {
    const auto& c = config_;
    if (embeddings.dim() != 2 || embeddings.size(1) != c.hiddenSize) {
        fail("input embeddings have the wrong shape", {}, "inputs_embeds",
             "[S, " + std::to_string(c.hiddenSize) + "]", shapeString(embeddings));
    }
    const std::int64_t S = embeddings.size(0), past = cache.length, hd = c.headDim;
    const std::int64_t nh = c.numHeads, nkv = c.numKvHeads;
    if (S == 0) {
        fail("no input embeddings", {}, "inputs_embeds", "[S > 0, hidden]",
             shapeString(embeddings));
    }
    const std::size_t L = std::size_t(c.numLayers);
    if (cache.keys.empty() && past == 0) {
        cache.keys.assign(L, at::Tensor());
        cache.values.assign(L, at::Tensor());
    }
    cache.keyStore.resize(L);
    cache.valueStore.resize(L);
    if (cache.keys.size() != L || cache.values.size() != L) {
        fail("the key/value cache belongs to another model", {}, "cache.layers", std::to_string(L),
             std::to_string(cache.keys.size()));
    }
    const at::TensorOptions opts = at::TensorOptions().device(device()).dtype(dtype());
    at::Tensor h = embeddings.to(device(), dtype()).unsqueeze(0);  // [1, S, H]
    if (h.is_alias_of(embeddings)) {
        h = h.clone();  // updated in place below
    }

    const DecoderKernels& kernel = kernels();
    // The rotary tables of the new positions, once for every layer.
    const auto [cosT, sinT] =
        rotaryTables(at::arange(past, past + S, opts.dtype(at::kFloat)), invFreq_, dtype());

    // Room in the cache for past + S positions: one buffer per layer written in place (see
    // KvCache), grown with headroom, and taken fresh when a copy of the cache shares it.
    const std::int64_t needed = past + S;
    const bool owns = cache.storeOwner.owns;
    auto reserve = [&](at::Tensor& store, const at::Tensor& view, const char* field) {
        if (past > 0 && (!view.defined() || view.dim() != 4 || view.size(2) != past ||
                         view.size(1) != nkv || view.size(3) != hd)) {
            fail("the key/value cache does not match its length", {}, field,
                 "[1, " + std::to_string(nkv) + ", " + std::to_string(past) + ", " +
                     std::to_string(hd) + "]",
                 view.defined() ? shapeString(view) : "no tensor");
        }
        if (owns && past > 0 && store.defined() && store.size(2) >= needed &&
            view.is_alias_of(store)) {
            return;
        }
        const std::int64_t capacity = needed + std::max(kCacheHeadroom, past > 0 ? needed / 2 : 0);
        at::Tensor fresh = at::empty({1, nkv, capacity, hd}, opts);
        if (past > 0) {
            fresh.narrow(2, 0, past).copy_(view);
        }
        store = fresh;
    };

    // With a cache and several new tokens, causality needs an explicit mask over past + new.
    at::Tensor mask;
    if (S > 1 && past > 0) {
        at::Tensor rows = at::arange(S, at::TensorOptions().device(device())).unsqueeze(1) + past;
        at::Tensor cols = at::arange(past + S, at::TensorOptions().device(device())).unsqueeze(0);
        mask = (cols <= rows).view({1, 1, S, past + S});
    }
    const std::int64_t chunk = rowChunk(S);
    at::Tensor q = at::empty({1, S, nh, hd}, opts);  // rotated queries, reused by every layer
    for (std::size_t li = 0; li < layers_.size(); ++li) {
        const Layer& l = layers_[li];
        reserve(cache.keyStore[li], cache.keys[li], "cache.keys");
        reserve(cache.valueStore[li], cache.values[li], "cache.values");
        const at::Tensor& ks = cache.keyStore[li];
        const at::Tensor& vs = cache.valueStore[li];
        // Projections and rope, chunk by chunk, straight into q and the cache.
        for (std::int64_t r0 = 0; r0 < S; r0 += chunk) {
            const std::int64_t n = std::min(chunk, S - r0);
            const at::Tensor x = rmsNorm(h.narrow(1, r0, n), l.inNorm);
            RotaryStoreArgs rope;
            rope.qkv = at::linear(x, l.qkv, l.qkvBias).view({n, -1});
            rope.heads = nh;
            rope.kvHeads = nkv;
            rope.invFreq = invFreq_;
            rope.firstPosition = past + r0;
            rope.cos = cosT.narrow(0, r0, n);
            rope.sin = sinT.narrow(0, r0, n);
            rope.queries = q.narrow(1, r0, n);
            rope.keyStore = ks;
            rope.valueStore = vs;
            kernel.rotaryStore(rope);
        }
        cache.keys[li] = ks.narrow(2, 0, needed);
        cache.values[li] = vs.narrow(2, 0, needed);
        // Generation needs only the last row out of the last layer: its query alone attends (to
        // every position, so no mask) and only its row goes through the MLP.
        const bool lastRowOnly = lastOnly && S > 1 && li + 1 == layers_.size();
        at::Tensor a;
        if (lastRowOnly || S == 1) {
            if (lastRowOnly) {
                h = h.narrow(1, S - 1, 1);
            }
            a = singleQueryAttention(q.narrow(1, S - 1, 1), cache.keys[li], cache.values[li]);
        } else {
            a = at::scaled_dot_product_attention(
                q.transpose(1, 2), cache.keys[li], cache.values[li],
                mask.defined() ? std::optional<at::Tensor>(mask) : std::nullopt, 0.0,
                /*is_causal=*/S > 1 && past == 0, std::nullopt, /*enable_gqa=*/true);
        }
        const std::int64_t rows = a.size(2);
        a = a.transpose(1, 2).reshape({1, rows, nh * hd});
        // Output projection and MLP, chunk by chunk, residuals added in place.
        for (std::int64_t r0 = 0; r0 < rows; r0 += chunk) {
            const std::int64_t n = std::min(chunk, rows - r0);
            at::Tensor hc = h.narrow(1, r0, n);
            hc.add_(at::linear(a.narrow(1, r0, n), l.o, l.ob));
            const at::Tensor x = rmsNorm(hc, l.postNorm);
            hc.add_(at::linear(kernel.swiglu(at::linear(x, l.gateUp)), l.down));
        }
    }
    cache.length = needed;
    cache.storeOwner.owns = true;  // every buffer is now this cache's own or was already
    if (lastOnly) {
        h = h.narrow(1, h.size(1) - 1, 1);
    }
    h = rmsNorm(h, norm_);
    return at::linear(h, lmHead_).squeeze(0).to(at::kFloat);
}

double Qwen2Model::prefillFlops(std::int64_t n) const {
    return once::prefillFlops(config_.llmShape(config_.modelType), n);
}

}  // namespace once
