#include "models/llava_ov/siglip_vision.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "io/tensor_io.h"
#include "models/hf_checkpoint.h"
#include "models/processor_ranges.h"
#include "models/vision_ops.h"
#include "util/error.h"

namespace once {

SiglipVision SiglipVision::load(const HfCheckpoint& ck, const std::string& prefix,
                                const SiglipVisionConfig& c,
                                const std::vector<std::int64_t>& hiddenStates, at::ScalarType dtype,
                                const std::string& device) {
    SiglipVision v;
    v.config_ = c;
    v.file_ = ck.file("config.json");
    v.dtype_ = dtype;
    if (c.hiddenSize <= 0 || c.numHeads <= 0 || c.hiddenSize % c.numHeads != 0) {
        fail("vision hidden size is not a multiple of the head count", v.file_,
             "vision_config.num_attention_heads", "a divisor of " + std::to_string(c.hiddenSize),
             std::to_string(c.numHeads));
    }
    if (c.patchSize <= 0 || c.imageSize < c.patchSize) {
        // Not a multiple is fine (384 / 14, see grid()); no whole patch is not.
        fail("vision image size is smaller than one patch", v.file_, "vision_config.image_size",
             ">= patch_size (" + std::to_string(c.patchSize) + ") and patch_size > 0",
             std::to_string(c.imageSize));
    }
    if (c.imageSize > kMaxProcessorSide) {
        // Every frame is resized to image_size²: bounded before a frame is allocated.
        fail("vision image size out of range", v.file_, "vision_config.image_size",
             "at most " + std::to_string(kMaxProcessorSide), std::to_string(c.imageSize));
    }
    if (c.intermediateSize <= 0) {
        fail("vision MLP size must be positive", v.file_, "vision_config.intermediate_size", "> 0",
             std::to_string(c.intermediateSize));
    }
    if (c.numLayers < 0) {
        fail("vision layer count must not be negative", v.file_, "vision_config.num_hidden_layers",
             ">= 0", std::to_string(c.numLayers));
    }
    if (!(c.layerNormEps > 0) || !std::isfinite(c.layerNormEps)) {
        fail("vision layer-norm epsilon must be a positive number", v.file_,
             "vision_config.layer_norm_eps", "> 0", std::to_string(c.layerNormEps));
    }
    if (hiddenStates.empty()) {
        fail("no vision feature layer selected", v.file_, "vision_feature_layer", "an index",
             "empty list");
    }
    std::int64_t deepest = 0;
    for (std::int64_t h : hiddenStates) {
        const std::int64_t n = c.numLayers + 1;  // embeddings + one per layer
        const std::int64_t idx = h < 0 ? n + h : h;
        if (idx < 0 || idx >= n) {
            fail("vision feature layer out of range", v.file_, "vision_feature_layer",
                 "in [-" + std::to_string(n) + ", " + std::to_string(n - 1) + "]",
                 std::to_string(h));
        }
        v.selected_.push_back(idx);
        deepest = std::max(deepest, idx);
    }

    const at::TensorOptions to = at::TensorOptions().dtype(dtype).device(at::Device(device));
    auto get = [&](const std::string& name, std::vector<std::int64_t> shape) {
        return ck.get(prefix + name, shape).to(to).contiguous();
    };
    const std::int64_t d = c.hiddenSize, p = c.patchSize, g = c.grid(), f = c.intermediateSize;
    // Patch embedding as a matmul: the conv has stride = kernel, so it is a linear map of each
    // flattened (channel, row, column) patch.
    v.patchW_ = get("embeddings.patch_embedding.weight", {d, 3, p, p}).reshape({d, 3 * p * p});
    v.patchB_ = get("embeddings.patch_embedding.bias", {d});
    v.posEmb_ = get("embeddings.position_embedding.weight", {g * g, d});
    // name.weight [rows, cols] (or [rows] for a norm) and name.bias [rows].
    auto affine = [&](const std::string& name, std::int64_t rows, std::int64_t cols = 0) {
        return std::pair{get(name + ".weight", cols ? std::vector{rows, cols} : std::vector{rows}),
                         get(name + ".bias", {rows})};
    };
    for (std::int64_t i = 0; i < deepest; ++i) {
        const std::string l = "encoder.layers." + std::to_string(i) + ".";
        Layer L;
        std::tie(L.ln1W, L.ln1B) = affine(l + "layer_norm1", d);
        // q, k and v fused into one matmul (same result, one pass over the activations).
        std::vector<at::Tensor> w, bias;
        for (const char* proj : {"q_proj", "k_proj", "v_proj"}) {
            auto [pw, pb] = affine(l + "self_attn." + proj, d, d);
            w.push_back(pw);
            bias.push_back(pb);
        }
        L.qW = at::cat(w, 0);
        L.qB = at::cat(bias, 0);
        std::tie(L.oW, L.oB) = affine(l + "self_attn.out_proj", d, d);
        std::tie(L.ln2W, L.ln2B) = affine(l + "layer_norm2", d);
        std::tie(L.fc1W, L.fc1B) = affine(l + "mlp.fc1", f, d);
        std::tie(L.fc2W, L.fc2B) = affine(l + "mlp.fc2", d, f);
        v.layers_.push_back(std::move(L));
    }
    return v;
}

at::Tensor SiglipVision::layerForward(const Layer& l, const at::Tensor& x,
                                      at::Tensor* attentionReceived) const {
    const std::int64_t t = x.size(0), n = x.size(1), d = config_.hiddenSize;
    const std::int64_t h = config_.numHeads, hd = d / h;
    const double eps = config_.layerNormEps;
    at::Tensor y = at::layer_norm(x, {d}, l.ln1W, l.ln1B, eps);
    at::Tensor qkv = at::linear(y, l.qW, l.qB).view({t, n, 3, h, hd}).permute({2, 0, 3, 1, 4});
    if (attentionReceived) {
        // The weights SDPA never exposes, recomputed in F32 one frame at a time: a 729-patch
        // frame with 16 heads is 34 MB of weights, a batch of frames would be gigabytes.
        std::vector<at::Tensor> rows;
        rows.reserve(std::size_t(t));
        const double scale = 1.0 / std::sqrt(double(hd));
        for (std::int64_t f = 0; f < t; ++f) {
            const at::Tensor q = qkv[0][f].to(at::kFloat), k = qkv[1][f].to(at::kFloat);
            const at::Tensor w = at::softmax(at::matmul(q, k.transpose(-2, -1)) * scale, -1);
            rows.push_back(w.mean(0).mean(0));  // heads, then queries: [n] received per key
        }
        *attentionReceived = at::stack(rows);
    }
    // Default scale 1/sqrt(head_dim), no mask, not causal: SigLIP's attention.
    at::Tensor a = at::scaled_dot_product_attention(qkv[0], qkv[1], qkv[2]);
    a = a.transpose(1, 2).reshape({t, n, d});
    at::Tensor r = x + at::linear(a, l.oW, l.oB);
    y = at::layer_norm(r, {d}, l.ln2W, l.ln2B, eps);
    y = applyHfActivation(at::linear(y, l.fc1W, l.fc1B), config_.hiddenAct, file_,
                          "vision_config.hidden_act");
    return r + at::linear(y, l.fc2W, l.fc2B);
}

at::Tensor SiglipVision::forward(const at::Tensor& pixels, at::Tensor* attentionReceived) const {
    const std::int64_t s = config_.imageSize, p = config_.patchSize, g = config_.grid();
    if (pixels.dim() != 4 || pixels.size(1) != 3 || pixels.size(2) != s || pixels.size(3) != s) {
        fail("pixel values have the wrong shape", {}, "pixel_values",
             "[T, 3, " + std::to_string(s) + ", " + std::to_string(s) + "]",
             shapeString(pixels.sizes()));
    }
    const std::int64_t t = pixels.size(0), used = g * p;
    at::Tensor x = pixels.slice(2, 0, used)
                       .slice(3, 0, used)
                       .to(patchW_.options())
                       .reshape({t, 3, g, p, g, p})
                       .permute({0, 2, 4, 1, 3, 5})
                       .reshape({t, g * g, 3 * p * p});
    x = at::linear(x, patchW_, patchB_) + posEmb_;
    std::vector<at::Tensor> picked(selected_.size());
    for (std::size_t k = 0; k < selected_.size(); ++k) {
        if (selected_[k] == 0) {
            picked[k] = x;
        }
    }
    if (attentionReceived) {
        *attentionReceived = at::Tensor();  // stays undefined when no layer runs
    }
    for (std::size_t i = 0; i < layers_.size(); ++i) {
        // The loaded layers end at the deepest selected hidden state: its attention is the last.
        const bool last = i + 1 == layers_.size();
        x = layerForward(layers_[i], x, last ? attentionReceived : nullptr);
        for (std::size_t k = 0; k < selected_.size(); ++k) {
            if (selected_[k] == std::int64_t(i) + 1) {
                picked[k] = x;
            }
        }
    }
    return picked.size() == 1 ? picked[0] : at::cat(picked, -1);
}

}  // namespace once
