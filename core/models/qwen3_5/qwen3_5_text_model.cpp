#include "models/qwen3_5/qwen3_5_text_model.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "io/tensor_io.h"
#include "models/hf_checkpoint.h"
#include "models/qwen2/qwen2_model.h"
#include "util/device.h"
#include "util/error.h"

namespace once {
namespace {

/// Largest M-RoPE position accepted: positions are rotated in F32, exact up to 2^24.
constexpr std::int64_t kMaxPosition = std::int64_t(1) << 24;

at::Tensor rotateHalf(const at::Tensor& x) {
    const std::int64_t half = x.size(-1) / 2;
    return at::cat({-x.narrow(-1, half, half), x.narrow(-1, 0, half)}, -1);
}

/// Log-decays below −80 are taken as exact zeros in the chunked delta rule (exp(−80) = 1.8e-35;
/// F32 turns subnormal below exp(−87.3)).
constexpr double kDecayFloor = 80.0;

at::Tensor l2norm(const at::Tensor& x) {
    return x * at::rsqrt((x * x).sum(-1, true) + 1e-6);
}

/// q, k, v, g, beta in the kernels' layout: heads first, F32, keys/queries repeated to the value
/// heads (each key head serves vHeads / kHeads consecutive value heads).
void prepare(at::Tensor& q, at::Tensor& k, at::Tensor& v, at::Tensor& g, at::Tensor& beta) {
    const std::int64_t kh = k.size(2), vh = v.size(2);
    if (kh != vh) {
        q = q.repeat_interleave(vh / kh, 2);
        k = k.repeat_interleave(vh / kh, 2);
    }
    auto f = [](const at::Tensor& t) { return t.transpose(1, 2).to(at::kFloat).contiguous(); };
    q = l2norm(f(q));
    k = l2norm(f(k));
    v = f(v);
    g = f(g);
    beta = f(beta);
}

/// One block of chunks of the chunked gated delta rule (transformers' torch_chunk_gated_delta_rule
/// on q, k, v, g, beta [B, L, heads, ...]), starting from state `s` [B, H, dk, dv] F32, which it
/// advances past the block. Returns [B, L, H, dv] F32 (heads second-to-last, as the input).
at::Tensor chunkBlock(const at::Tensor& query, const at::Tensor& key, const at::Tensor& value,
                      const at::Tensor& decay, const at::Tensor& betaIn, at::Tensor& s,
                      std::int64_t C, const at::Tensor& upper) {
    at::Tensor q = query, k = key, v = value, g = decay, beta = betaIn;
    prepare(q, k, v, g, beta);
    const std::int64_t B = v.size(0), H = v.size(1), S = v.size(2), dk = k.size(3), dv = v.size(3);
    q = q * (1.0 / std::sqrt(double(dk)));
    const std::int64_t pad = (C - S % C) % C, n = (S + pad) / C;
    if (pad > 0) {
        q = at::constant_pad_nd(q, {0, 0, 0, pad});
        k = at::constant_pad_nd(k, {0, 0, 0, pad});
        v = at::constant_pad_nd(v, {0, 0, 0, pad});
        beta = at::constant_pad_nd(beta, {0, pad});
        g = at::constant_pad_nd(g, {0, pad});
    }
    at::Tensor vBeta = (v * beta.unsqueeze(-1)).reshape({B, H, n, C, dv});
    at::Tensor kBeta = (k * beta.unsqueeze(-1)).reshape({B, H, n, C, dk});
    q = q.reshape({B, H, n, C, dk});
    k = k.reshape({B, H, n, C, dk});
    at::Tensor cum = g.reshape({B, H, n, C}).cumsum(3);
    // exp of a log-decay below -kDecayFloor is an exact zero instead of a subnormal float: the
    // same result (below 1.8e-35, under F32's resolution of every sum it enters) without the
    // CPU's slow path for subnormal operands, which made strongly decaying heads (g ≈ -10 a
    // token, so -640 over a chunk) several times slower.
    auto decayExp = [](const at::Tensor& x) {
        return x.masked_fill(x < -kDecayFloor, -std::numeric_limits<float>::infinity()).exp();
    };
    at::Tensor pair = decayExp((cum.unsqueeze(4) - cum.unsqueeze(3))
                                   .masked_fill(upper, -std::numeric_limits<float>::infinity()));
    at::Tensor ut = at::matmul(kBeta, k.transpose(-1, -2)) * pair;
    at::Tensor intra = at::matmul(q, k.transpose(-1, -2)) * pair;
    at::Tensor decayedKBeta = kBeta * decayExp(cum).unsqueeze(-1);
    at::Tensor newValues = at::linalg_solve_triangular(ut, vBeta, /*upper=*/false, /*left=*/true,
                                                       /*unitriangular=*/true);
    at::Tensor kCumDecay = at::linalg_solve_triangular(ut, decayedKBeta, false, true, true);
    at::Tensor out = at::empty_like(newValues);
    q = q * decayExp(cum).unsqueeze(-1);
    k = k * decayExp(cum.narrow(3, C - 1, 1) - cum).unsqueeze(-1);
    at::Tensor chunkDecay = decayExp(cum.select(3, C - 1)).unsqueeze(-1).unsqueeze(-1);
    for (std::int64_t i = 0; i < n; ++i) {
        at::Tensor vNew = newValues.select(2, i) - at::matmul(kCumDecay.select(2, i), s);
        at::Tensor inter = at::matmul(q.select(2, i), s);
        out.select(2, i).copy_(inter + at::matmul(intra.select(2, i), vNew));
        s = s * chunkDecay.select(2, i) + at::matmul(k.select(2, i).transpose(-1, -2), vNew);
    }
    return out.reshape({B, H, n * C, dv}).narrow(2, 0, S).transpose(1, 2);
}

}  // namespace

at::Tensor gatedDeltaRuleChunked(const at::Tensor& query, const at::Tensor& key,
                                 const at::Tensor& value, const at::Tensor& decay,
                                 const at::Tensor& beta, at::Tensor& state, std::int64_t C,
                                 std::int64_t chunksPerBlock) {
    const std::int64_t B = value.size(0), S = value.size(1), H = value.size(2);
    const std::int64_t dk = key.size(3), dv = value.size(3);
    C = std::max<std::int64_t>(C, 1);
    const std::int64_t blockTokens = C * std::max<std::int64_t>(chunksPerBlock, 1);
    const at::TensorOptions f32 = value.options().dtype(at::kFloat);
    at::Tensor s =
        state.defined() ? state.to(value.device(), at::kFloat) : at::zeros({B, H, dk, dv}, f32);
    const at::Tensor upper =
        at::ones({C, C}, at::TensorOptions().dtype(at::kBool).device(value.device())).triu(1);
    // Block by block along the sequence, the state carried between blocks: the intermediates
    // (C x C decay and key products, the triangular solves) exist for one block at a time, so
    // memory is bounded by the block and time grows linearly with S, instead of every chunk's
    // intermediates for the whole sequence at once (transformers' form), whose memory traffic made
    // 16x the tokens cost 31x the time. Each chunk's arithmetic is unchanged.
    at::Tensor out = at::empty({B, S, H, dv}, value.options());
    for (std::int64_t t0 = 0; t0 < S; t0 += blockTokens) {
        const std::int64_t L = std::min(blockTokens, S - t0);
        out.narrow(1, t0, L).copy_(chunkBlock(query.narrow(1, t0, L), key.narrow(1, t0, L),
                                              value.narrow(1, t0, L), decay.narrow(1, t0, L),
                                              beta.narrow(1, t0, L), s, C, upper));
    }
    state = s;
    return out;
}

at::Tensor gatedDeltaRuleRecurrent(const at::Tensor& query, const at::Tensor& key,
                                   const at::Tensor& value, const at::Tensor& decay,
                                   const at::Tensor& betaIn, at::Tensor& state) {
    const at::ScalarType outType = value.scalar_type();
    at::Tensor q = query, k = key, v = value, g = decay, beta = betaIn;
    prepare(q, k, v, g, beta);
    const std::int64_t B = v.size(0), H = v.size(1), S = v.size(2), dk = k.size(3), dv = v.size(3);
    q = q / std::sqrt(double(dk));
    at::Tensor s =
        state.defined() ? state.to(q.device(), at::kFloat) : at::zeros({B, H, dk, dv}, q.options());
    at::Tensor out = at::zeros_like(v);
    for (std::int64_t i = 0; i < S; ++i) {
        at::Tensor qt = q.select(2, i), kt = k.select(2, i), vt = v.select(2, i);
        s = s * g.select(2, i).exp().unsqueeze(-1).unsqueeze(-1);
        at::Tensor kvMem = (s * kt.unsqueeze(-1)).sum(-2);
        at::Tensor delta = (vt - kvMem) * beta.select(2, i).unsqueeze(-1);
        s = s + kt.unsqueeze(-1) * delta.unsqueeze(-2);
        out.select(2, i).copy_((s * qt.unsqueeze(-1)).sum(-2));
    }
    state = s;
    return out.transpose(1, 2).contiguous().to(outType);
}

Qwen3_5TextModel Qwen3_5TextModel::load(const HfCheckpoint& ckpt, const Qwen3_5Config& full,
                                        const Qwen3_5LoadOptions& options) {
    Qwen3_5TextModel m;
    m.config_ = full.text;
    const Qwen3_5TextConfig& c = m.config_;
    const at::Device device = resolveDevice(options.device);
    const at::ScalarType dtype =
        parseModelDtype(options.dtype == "auto" ? full.dtype : options.dtype, "dtype");
    const std::string base = ckpt.has("model.language_model.embed_tokens.weight")
                                 ? "model.language_model."
                                 : (ckpt.has("model.embed_tokens.weight") ? "model." : "");
    if (base.empty()) {
        ckpt.firstPresent({"model.language_model.embed_tokens.weight",
                           "model.embed_tokens.weight"});  // throws naming both
    }
    auto load = [&](const std::string& name, std::vector<std::int64_t> shape) {
        return ckpt.get(name, shape).to(device, dtype).contiguous();
    };
    const std::int64_t H = c.hiddenSize, I = c.intermediateSize, hd = c.headDim;
    const std::int64_t keyDim = c.linearKeyHeadDim * c.linearNumKeyHeads;
    const std::int64_t valueDim = c.linearValueHeadDim * c.linearNumValueHeads;
    const std::int64_t convDim = 2 * keyDim + valueDim, vh = c.linearNumValueHeads;
    m.embedTokens_ = load(base + "embed_tokens.weight", {c.vocabSize, H});
    m.norm_ = load(base + "norm.weight", {H});
    for (std::int64_t i = 0; i < c.numLayers; ++i) {
        const std::string p = base + "layers." + std::to_string(i) + ".";
        Layer l;
        l.full = c.fullAttention[std::size_t(i)];
        l.inNorm = load(p + "input_layernorm.weight", {H});
        l.postNorm = load(p + "post_attention_layernorm.weight", {H});
        l.gate = load(p + "mlp.gate_proj.weight", {I, H});
        l.up = load(p + "mlp.up_proj.weight", {I, H});
        l.down = load(p + "mlp.down_proj.weight", {H, I});
        if (l.full) {
            l.q = load(p + "self_attn.q_proj.weight", {2 * c.numHeads * hd, H});
            l.k = load(p + "self_attn.k_proj.weight", {c.numKvHeads * hd, H});
            l.v = load(p + "self_attn.v_proj.weight", {c.numKvHeads * hd, H});
            l.o = load(p + "self_attn.o_proj.weight", {H, c.numHeads * hd});
            l.qNorm = load(p + "self_attn.q_norm.weight", {hd});
            l.kNorm = load(p + "self_attn.k_norm.weight", {hd});
            m.slot_.push_back(m.numFull_++);
        } else {
            const std::string a = p + "linear_attn.";
            l.inQkv = load(a + "in_proj_qkv.weight", {convDim, H});
            l.inZ = load(a + "in_proj_z.weight", {valueDim, H});
            l.inB = load(a + "in_proj_b.weight", {vh, H});
            l.inA = load(a + "in_proj_a.weight", {vh, H});
            // Kept as the F32 taps [K, C] the token-major convolution reads (deltaNet), from the
            // weight in the model's dtype: converted once here, not in every forward step.
            l.conv = load(a + "conv1d.weight", {convDim, 1, c.convKernel})
                         .to(at::kFloat)
                         .squeeze(1)
                         .t()
                         .contiguous();
            l.dtBias = load(a + "dt_bias", {vh});
            l.aLog = load(a + "A_log", {vh});
            l.norm = load(a + "norm.weight", {c.linearValueHeadDim});
            l.out = load(a + "out_proj.weight", {H, valueDim});
            m.slot_.push_back(m.numLinear_++);
        }
        m.layers_.push_back(std::move(l));
    }
    if (ckpt.has("lm_head.weight")) {
        m.lmHead_ = load("lm_head.weight", {c.vocabSize, H});
    } else if (c.tieWordEmbeddings) {
        m.lmHead_ = m.embedTokens_;
    } else {
        ckpt.firstPresent({"lm_head.weight"});  // throws naming the folder and the tensor
    }
    // As Qwen3_5TextRotaryEmbedding: F32 powers over the rotary dims.
    m.invFreq_ =
        (1.0 / at::pow(c.ropeTheta, at::arange(0, c.rotaryDim, 2, at::kFloat) / float(c.rotaryDim)))
            .to(at::kFloat)
            .to(device);
    return m;
}

at::Device Qwen3_5TextModel::device() const {
    return embedTokens_.device();
}
at::ScalarType Qwen3_5TextModel::dtype() const {
    return embedTokens_.scalar_type();
}

at::Tensor Qwen3_5TextModel::embed(const at::Tensor& ids) const {
    return embedTokenIds(embedTokens_, ids.reshape({-1}));
}

at::Tensor Qwen3_5TextModel::embedWithVisual(const std::vector<std::int64_t>& ids,
                                             std::int64_t videoTokenId,
                                             const at::Tensor& visual) const {
    at::Tensor idt = at::tensor(ids, at::kLong);
    at::Tensor mask = idt == videoTokenId;
    const std::int64_t n = mask.sum().item<std::int64_t>();
    if (visual.dim() != 2 || visual.size(0) != n || visual.size(1) != config_.hiddenSize) {
        fail("visual rows do not match the prompt's placeholders", {}, "video features",
             "[" + std::to_string(n) + ", " + std::to_string(config_.hiddenSize) + "]",
             shapeString(visual.sizes()));
    }
    at::Tensor e = embed(idt);
    if (n > 0) {
        e.index_put_({mask.to(device())}, visual.to(device(), dtype()));
    }
    return e;
}

at::Tensor Qwen3_5TextModel::rmsNorm(const at::Tensor& x, const at::Tensor& w) const {
    // Zero-centred weight, scaled in F32 before the cast back (Qwen3_5RMSNorm).
    at::Tensor xf = x.to(at::kFloat);
    xf = xf * at::rsqrt(xf.pow(2).mean({-1}, true) + config_.rmsNormEps);
    return (xf * (1.0 + w.to(at::kFloat))).to(x.scalar_type());
}

at::Tensor Qwen3_5TextModel::attention(const Layer& l, std::size_t slot, const at::Tensor& x,
                                       const at::Tensor& cos, const at::Tensor& sin,
                                       Qwen3_5State& st) const {
    const auto& c = config_;
    const std::int64_t S = x.size(1), hd = c.headDim, past = st.length, rd = c.rotaryDim;
    // q_proj holds, per head, the query then its output gate.
    at::Tensor qg = at::linear(x, l.q).view({1, S, c.numHeads, 2 * hd});
    at::Tensor q = qg.narrow(-1, 0, hd);
    at::Tensor gate = qg.narrow(-1, hd, hd).reshape({1, S, c.numHeads * hd});
    q = rmsNorm(q, l.qNorm).transpose(1, 2);
    at::Tensor k =
        rmsNorm(at::linear(x, l.k).view({1, S, c.numKvHeads, hd}), l.kNorm).transpose(1, 2);
    at::Tensor v = at::linear(x, l.v).view({1, S, c.numKvHeads, hd}).transpose(1, 2);
    auto rope = [&](const at::Tensor& t) {
        at::Tensor r = t.narrow(-1, 0, rd);
        r = r * cos + rotateHalf(r) * sin;
        return rd == hd ? r : at::cat({r, t.narrow(-1, rd, hd - rd)}, -1);
    };
    q = rope(q);
    k = rope(k);
    if (st.keys[slot].defined()) {
        k = at::cat({st.keys[slot], k}, 2);
        v = at::cat({st.values[slot], v}, 2);
    }
    st.keys[slot] = k;
    st.values[slot] = v;
    at::Tensor mask;
    if (S > 1 && past > 0) {
        at::Tensor rows = at::arange(S, at::TensorOptions().device(device())).unsqueeze(1) + past;
        at::Tensor cols = at::arange(past + S, at::TensorOptions().device(device())).unsqueeze(0);
        mask = (cols <= rows).view({1, 1, S, past + S});
    }
    at::Tensor a = at::scaled_dot_product_attention(
        q, k, v, mask.defined() ? std::optional<at::Tensor>(mask) : std::nullopt, 0.0,
        /*is_causal=*/S > 1 && past == 0, std::nullopt, /*enable_gqa=*/true);
    a = a.transpose(1, 2).reshape({1, S, c.numHeads * hd});
    return at::linear(a * at::sigmoid(gate), l.o);
}

at::Tensor Qwen3_5TextModel::deltaNet(const Layer& l, std::size_t slot, const at::Tensor& x,
                                      Qwen3_5State& st, DeltaRuleMode mode) const {
    const auto& c = config_;
    const std::int64_t S = x.size(1), K = c.convKernel;
    const std::int64_t keyDim = c.linearKeyHeadDim * c.linearNumKeyHeads;
    const std::int64_t valueDim = c.linearValueHeadDim * c.linearNumValueHeads;
    const std::int64_t convDim = 2 * keyDim + valueDim;
    // Causal depthwise convolution over [previous K-1 inputs | new inputs], token-major: K
    // shifted multiply-adds over rows of channels, in F32 (as conv1d accumulates). The channel-
    // major conv1d needed the projection transposed into [C, S] and back, a strided copy whose
    // cost per token grew with S (cache misses: 13 µs a token at 1k, 31 at 16k, more than the
    // convolution itself).
    at::Tensor mixed = at::linear(x, l.inQkv);  // [1, S, C]
    at::Tensor prev =
        st.conv[slot].defined() ? st.conv[slot] : at::zeros({1, K - 1, convDim}, mixed.options());
    at::Tensor full = at::cat({prev, mixed}, 1);
    st.conv[slot] = full.narrow(1, full.size(1) - (K - 1), K - 1).contiguous();
    const at::Tensor& taps = l.conv;  // F32 [K, C]
    const at::Tensor fullF = full.to(at::kFloat);
    at::Tensor conv = fullF.narrow(1, 0, S) * taps[0];
    for (std::int64_t j = 1; j < K; ++j) {
        conv.addcmul_(fullF.narrow(1, j, S), taps[j]);
    }
    mixed = at::silu(conv.to(x.scalar_type()));
    at::Tensor q = mixed.narrow(-1, 0, keyDim).reshape({1, S, -1, c.linearKeyHeadDim});
    at::Tensor k = mixed.narrow(-1, keyDim, keyDim).reshape({1, S, -1, c.linearKeyHeadDim});
    at::Tensor v = mixed.narrow(-1, 2 * keyDim, valueDim).reshape({1, S, -1, c.linearValueHeadDim});
    at::Tensor z = at::linear(x, l.inZ).reshape({-1, c.linearValueHeadDim});
    at::Tensor beta = at::sigmoid(at::linear(x, l.inB));
    // The log decay in F32 (an F16 exp(A) could overflow).
    at::Tensor g =
        -l.aLog.to(at::kFloat).exp() * at::softplus(at::linear(x, l.inA).to(at::kFloat) + l.dtBias);
    at::Tensor& state = st.recurrent[slot];
    const bool recurrent = (S == 1 && state.defined()) || mode == DeltaRuleMode::Recurrent;
    at::Tensor core = recurrent ? gatedDeltaRuleRecurrent(q, k, v, g, beta, state)
                                : gatedDeltaRuleChunked(q, k, v, g, beta, state);
    // Gated RMSNorm per value head: plain weight, then × silu(z), in F32 (Qwen3_5RMSNormGated).
    const at::ScalarType dt = core.scalar_type();
    at::Tensor h = core.reshape({-1, c.linearValueHeadDim}).to(at::kFloat);
    h = h * at::rsqrt(h.pow(2).mean({-1}, true) + c.rmsNormEps);
    h = (l.norm * h.to(dt)) * at::silu(z.to(at::kFloat));
    h = h.to(dt).reshape({1, S, valueDim});
    return at::linear(h, l.out);
}

at::Tensor Qwen3_5TextModel::forward(const at::Tensor& embeddings, const at::Tensor& positions,
                                     Qwen3_5State& st, bool lastOnly, DeltaRuleMode mode) const {
    const auto& c = config_;
    if (embeddings.dim() != 2 || embeddings.size(1) != c.hiddenSize || embeddings.size(0) == 0) {
        fail("input embeddings have the wrong shape", {}, "inputs_embeds",
             "[S > 0, " + std::to_string(c.hiddenSize) + "]", shapeString(embeddings.sizes()));
    }
    const std::int64_t S = embeddings.size(0);
    at::Tensor pos;
    if (positions.defined()) {
        if (positions.dim() != 2 || positions.size(0) != 3 || positions.size(1) != S ||
            at::isFloatingType(positions.scalar_type())) {
            fail("M-RoPE positions have the wrong shape", {}, "position_ids",
                 "integer [3, " + std::to_string(S) + "]",
                 std::string(c10::toString(positions.scalar_type())) + " " +
                     shapeString(positions.sizes()));
        }
        pos = positions.to(device(), at::kLong);
        const std::int64_t lo = pos.min().item<std::int64_t>(), hi = pos.max().item<std::int64_t>();
        if (lo < 0 || hi >= kMaxPosition) {
            fail("M-RoPE position out of range", {}, "position_ids",
                 "0.." + std::to_string(kMaxPosition - 1),
                 std::to_string(lo) + ".." + std::to_string(hi));
        }
        if (st.length == 0) {
            st.ropeDelta = hi + 1 - S;
        }
    } else {
        pos = (at::arange(S, at::TensorOptions().dtype(at::kLong).device(device())) + st.length +
               st.ropeDelta)
                  .unsqueeze(0)
                  .expand({3, S});
    }
    if (st.keys.empty()) {
        st.keys.assign(numFull_, at::Tensor());
        st.values.assign(numFull_, at::Tensor());
        st.conv.assign(numLinear_, at::Tensor());
        st.recurrent.assign(numLinear_, at::Tensor());
    }
    // Interleaved M-RoPE: frequency j rotates by the h position when j % 3 == 1 (j < 3·h), by
    // the w position when j % 3 == 2 (j < 3·w), else by the t position.
    const std::int64_t half = c.rotaryDim / 2;
    std::vector<std::int64_t> axis(std::size_t(half), 0);
    for (std::int64_t j = 0; j < half; ++j) {
        if (j % 3 == 1 && j < 3 * c.mropeSection[1]) {
            axis[std::size_t(j)] = 1;
        } else if (j % 3 == 2 && j < 3 * c.mropeSection[2]) {
            axis[std::size_t(j)] = 2;
        }
    }
    at::Tensor axisIdx = at::tensor(axis, at::kLong).to(device());
    at::Tensor freqs = pos.to(at::kFloat).index_select(0, axisIdx).t() * invFreq_;  // [S, half]
    at::Tensor emb = at::cat({freqs, freqs}, -1);
    at::Tensor h = embeddings.to(device(), dtype()).unsqueeze(0);
    at::Tensor cos = emb.cos().to(dtype()).view({1, 1, S, c.rotaryDim});
    at::Tensor sin = emb.sin().to(dtype()).view({1, 1, S, c.rotaryDim});
    for (std::size_t li = 0; li < layers_.size(); ++li) {
        const Layer& l = layers_[li];
        at::Tensor x = rmsNorm(h, l.inNorm);
        h = h + (l.full ? attention(l, slot_[li], x, cos, sin, st)
                        : deltaNet(l, slot_[li], x, st, mode));
        x = rmsNorm(h, l.postNorm);
        h = h + at::linear(at::silu(at::linear(x, l.gate)) * at::linear(x, l.up), l.down);
    }
    st.length += S;
    if (lastOnly) {
        h = h.narrow(1, S - 1, 1);
    }
    h = rmsNorm(h, norm_);
    return at::linear(h, lmHead_).squeeze(0).to(at::kFloat);
}

GenerationResult generateQwen3_5(const Qwen3_5TextModel& model, const at::Tensor& prompt,
                                 const at::Tensor& positions, const GenerationOptions& o,
                                 Qwen3_5State* finalState) {
    if (prompt.dim() != 2 || prompt.size(0) == 0) {
        fail("the prompt is empty", {}, "prompt", "[S > 0, hidden]", shapeString(prompt.sizes()));
    }
    Qwen3_5State state;
    GenerationResult r = runGeneration(
        prompt.size(0), [&] { return model.forward(prompt, positions, state, /*lastOnly=*/true); },
        [&](std::int64_t id) {
            return model.forward(model.embed(at::full({1}, id, at::kLong)), at::Tensor(), state,
                                 true);
        },
        o);
    if (finalState) {
        *finalState = std::move(state);
    }
    return r;
}

}  // namespace once
