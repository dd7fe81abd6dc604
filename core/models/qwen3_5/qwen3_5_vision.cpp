#include "models/qwen3_5/qwen3_5_vision.h"

#include <ATen/ATen.h>

#include <tuple>
#include <utility>

#include "io/tensor_io.h"
#include "models/hf_checkpoint.h"
#include "models/vision_ops.h"
#include "util/error.h"

namespace once {
namespace {

/// Largest patch grid side accepted (patches): 16,384 × 16 pixels, far past any video frame.
constexpr std::int64_t kMaxGridSide = 16384;

at::Tensor rotateHalf(const at::Tensor& x) {
    const std::int64_t half = x.size(-1) / 2;
    return at::cat({-x.narrow(-1, half, half), x.narrow(-1, 0, half)}, -1);
}

/// transformers' _interpolation_axis_taps_weights, bilinear, align_corners: the two source rows
/// of each target row and their weights, computed in F32 as the reference does.
std::pair<at::Tensor, at::Tensor> axisTaps(const at::Tensor& index, std::int64_t size,
                                           std::int64_t side) {
    at::Tensor src =
        index.to(at::kFloat) * float(side - 1) / float(std::max<std::int64_t>(size - 1, 1));
    at::Tensor floor = at::floor(src);
    at::Tensor offsets = at::arange(0, 2, at::kLong);
    at::Tensor taps = (floor.to(at::kLong).unsqueeze(1) + offsets).clamp(0, side - 1);
    at::Tensor distance = (src.unsqueeze(1) - floor.unsqueeze(1) - offsets).abs();
    return {taps, (1 - distance).clamp_min(0)};
}

}  // namespace

void checkQwen3_5Grid(const Qwen3_5Grid& g, const Qwen3_5VisionConfig& c) {
    const std::int64_t m = c.spatialMergeSize;
    if (g.t < 1 || g.h < m || g.w < m || g.h % m != 0 || g.w % m != 0 || g.h > kMaxGridSide ||
        g.w > kMaxGridSide) {
        fail("the video patch grid does not fit the vision tower", {}, "video_grid_thw",
             "t >= 1, h and w multiples of " + std::to_string(m) + " up to " +
                 std::to_string(kMaxGridSide),
             std::to_string(g.t) + " x " + std::to_string(g.h) + " x " + std::to_string(g.w));
    }
}

Qwen3_5Vision Qwen3_5Vision::load(const HfCheckpoint& ck, const Qwen3_5VisionConfig& c,
                                  at::ScalarType dtype, const std::string& device,
                                  const std::string& prefix) {
    Qwen3_5Vision v;
    v.config_ = c;
    v.file_ = ck.file("config.json");
    v.dtype_ = dtype;
    const at::TensorOptions to = at::TensorOptions().dtype(dtype).device(at::Device(device));
    auto get = [&](const std::string& name, std::vector<std::int64_t> shape) {
        return ck.get(prefix + name, shape).to(to).contiguous();
    };
    const std::int64_t d = c.hiddenSize, f = c.intermediateSize, p = c.patchSize;
    const std::int64_t tp = c.temporalPatchSize, m2 = c.spatialMergeSize * c.spatialMergeSize;
    // The Conv3d has stride = kernel: a linear map of each flattened (channel, t, row, column)
    // patch, which is the processor's row layout.
    v.patchW_ = get("patch_embed.proj.weight", {d, c.inChannels, tp, p, p})
                    .reshape({d, c.inChannels * tp * p * p});
    v.patchB_ = get("patch_embed.proj.bias", {d});
    // Interpolated in F32 then cast, as the reference sums the taps.
    v.posTable_ = ck.get(prefix + "pos_embed.weight", {c.numPositionEmbeddings, d})
                      .to(at::Device(device), at::kFloat)
                      .to(dtype)
                      .to(at::kFloat)
                      .contiguous();
    // name.weight [rows, cols] (or [rows] for a norm) and name.bias [rows].
    auto affine = [&](const std::string& name, std::int64_t rows, std::int64_t cols = 0) {
        return std::pair{get(name + ".weight", cols ? std::vector{rows, cols} : std::vector{rows}),
                         get(name + ".bias", {rows})};
    };
    for (std::int64_t i = 0; i < c.depth; ++i) {
        const std::string b = "blocks." + std::to_string(i) + ".";
        Block B;
        std::tie(B.n1W, B.n1B) = affine(b + "norm1", d);
        std::tie(B.qkvW, B.qkvB) = affine(b + "attn.qkv", 3 * d, d);
        std::tie(B.projW, B.projB) = affine(b + "attn.proj", d, d);
        std::tie(B.n2W, B.n2B) = affine(b + "norm2", d);
        std::tie(B.fc1W, B.fc1B) = affine(b + "mlp.linear_fc1", f, d);
        std::tie(B.fc2W, B.fc2B) = affine(b + "mlp.linear_fc2", d, f);
        v.blocks_.push_back(std::move(B));
    }
    const std::int64_t md = d * m2;
    std::tie(v.mNormW_, v.mNormB_) = affine("merger.norm", d);
    std::tie(v.mFc1W_, v.mFc1B_) = affine("merger.linear_fc1", md, md);
    std::tie(v.mFc2W_, v.mFc2B_) = affine("merger.linear_fc2", c.outHiddenSize, md);
    // Axial rotary: head_dim/2 dims per axis, frequencies over them in steps of 2.
    const std::int64_t spatial = c.headDim() / 2;
    v.invFreq_ =
        (1.0 / at::pow(c.ropeTheta, at::arange(0, spatial, 2, at::kFloat) / float(spatial)))
            .to(at::kFloat)
            .to(at::Device(device));
    return v;
}

at::Tensor Qwen3_5Vision::positionEmbedding(std::int64_t h, std::int64_t w) const {
    const std::int64_t m = config_.spatialMergeSize, side = config_.positionGridSide;
    const at::Device dev = posTable_.device();
    // Patch order within a frame: merge-block row, block column, row in block, column in block.
    at::Tensor within = at::arange(h * w, at::TensorOptions().dtype(at::kLong).device(dev));
    const std::int64_t blocksW = w / m;
    at::Tensor row = at::floor_divide(within, m * m * blocksW) * m +
                     at::remainder(at::floor_divide(within, m), m);
    at::Tensor col =
        at::remainder(at::floor_divide(within, m * m), blocksW) * m + at::remainder(within, m);
    auto [hTaps, hW] = axisTaps(row, h, side);
    auto [wTaps, wW] = axisTaps(col, w, side);
    at::Tensor idx = (hTaps.unsqueeze(2) * side + wTaps.unsqueeze(1)).reshape({-1, 4});
    at::Tensor wt = (hW.unsqueeze(2) * wW.unsqueeze(1)).reshape({-1, 4});
    return (at::embedding(posTable_, idx) * wt.unsqueeze(2)).sum(1);
}

at::Tensor Qwen3_5Vision::forward(const at::Tensor& pixels, const Qwen3_5Grid& g) const {
    const auto& c = config_;
    checkQwen3_5Grid(g, c);
    const std::int64_t rowDim = c.inChannels * c.temporalPatchSize * c.patchSize * c.patchSize;
    if (pixels.dim() != 2 || pixels.size(0) != g.patches() || pixels.size(1) != rowDim) {
        fail("pixel values do not match the video grid", {}, "pixel_values_videos",
             "[" + std::to_string(g.patches()) + ", " + std::to_string(rowDim) + "]",
             shapeString(pixels.sizes()));
    }
    const std::int64_t d = c.hiddenSize, nh = c.numHeads, hd = c.headDim(), hw = g.h * g.w;
    const std::int64_t m = c.spatialMergeSize;
    at::Tensor x = at::linear(pixels.to(patchW_.device(), dtype_), patchW_, patchB_);
    x = x.view({g.t, hw, d}) + positionEmbedding(g.h, g.w).to(dtype_).unsqueeze(0);

    // 2-D rotary angles of each patch: (row, column) in merge-block order, the same per frame.
    const at::Device dev = patchW_.device();
    at::Tensor within = at::arange(hw, at::TensorOptions().dtype(at::kLong).device(dev));
    const std::int64_t blocksW = g.w / m;
    at::Tensor row = at::floor_divide(within, m * m * blocksW) * m +
                     at::remainder(at::floor_divide(within, m), m);
    at::Tensor col =
        at::remainder(at::floor_divide(within, m * m), blocksW) * m + at::remainder(within, m);
    at::Tensor fr = row.to(at::kFloat).unsqueeze(1) * invFreq_;
    at::Tensor fc = col.to(at::kFloat).unsqueeze(1) * invFreq_;
    at::Tensor ang = at::cat({fr, fc}, -1);
    ang = at::cat({ang, ang}, -1).view({1, hw, 1, hd});  // [1, hw, 1, hd]
    const at::Tensor cos = ang.cos(), sin = ang.sin();

    for (const Block& b : blocks_) {
        at::Tensor y = at::layer_norm(x, {d}, b.n1W, b.n1B, 1e-6);
        at::Tensor qkv = at::linear(y, b.qkvW, b.qkvB).view({g.t, hw, 3, nh, hd});
        at::Tensor q = qkv.select(2, 0), k = qkv.select(2, 1), v = qkv.select(2, 2);
        // The rotation in F32, as apply_rotary_pos_emb_vision.
        at::Tensor qf = q.to(at::kFloat), kf = k.to(at::kFloat);
        q = (qf * cos + rotateHalf(qf) * sin).to(dtype_);
        k = (kf * cos + rotateHalf(kf) * sin).to(dtype_);
        // Attention within each temporal group (the reference's cu_seqlens), not causal.
        at::Tensor a = at::scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2),
                                                        v.transpose(1, 2));
        a = a.transpose(1, 2).reshape({g.t, hw, d});
        x = x + at::linear(a, b.projW, b.projB);
        y = at::layer_norm(x, {d}, b.n2W, b.n2B, 1e-6);
        y = applyHfActivation(at::linear(y, b.fc1W, b.fc1B), c.hiddenAct, file_,
                              "vision_config.hidden_act");
        x = x + at::linear(y, b.fc2W, b.fc2B);
    }
    // Merger: LayerNorm per patch, then each m × m block (m² consecutive rows) as one vector.
    at::Tensor y = at::layer_norm(x, {d}, mNormW_, mNormB_, 1e-6).reshape({-1, d * m * m});
    y = at::gelu(at::linear(y, mFc1W_, mFc1B_));
    return at::linear(y, mFc2W_, mFc2B_);
}

}  // namespace once
