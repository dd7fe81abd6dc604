#include "models/qwen3_5/qwen3_5_encoder.h"

#include <ATen/ATen.h>

#include "models/hf_checkpoint.h"
#include "models/qwen2/qwen2_model.h"
#include "util/error.h"

namespace once {

Qwen3_5VideoEncoder::Qwen3_5VideoEncoder(const std::string& modelDir, const std::string& device,
                                         const std::string& dtype) {
    HfCheckpoint ck = HfCheckpoint::open(modelDir);
    config_ = Qwen3_5Config::fromJson(ck.config(), ck.file("config.json"));
    settings_ = Qwen3_5VideoSettings::fromFolder(modelDir);
    const auto& v = config_.vision;
    const std::string src = settings_.source.empty() ? modelDir : settings_.source;
    auto same = [&](std::int64_t proc, std::int64_t model, const char* field, const char* what) {
        if (proc != model) {
            fail("the video processor does not fit the vision tower", src, field,
                 std::string(what) + " = " + std::to_string(model), std::to_string(proc));
        }
    };
    same(settings_.patchSize, v.patchSize, "patch_size", "vision_config.patch_size");
    same(settings_.temporalPatchSize, v.temporalPatchSize, "temporal_patch_size",
         "vision_config.temporal_patch_size");
    same(settings_.mergeSize, v.spatialMergeSize, "merge_size", "vision_config.spatial_merge_size");
    const at::ScalarType dt = parseModelDtype(dtype == "auto" ? config_.dtype : dtype, "dtype");
    tower_ = Qwen3_5Vision::load(ck, v, dt, device);
}

at::Tensor Qwen3_5VideoEncoder::encodePixels(const Qwen3_5PixelValues& pv) const {
    return tower_.forward(pv.pixels, pv.grid);
}

Qwen3_5EncodedVideo Qwen3_5VideoEncoder::encode(const at::Tensor& frames,
                                                const std::vector<double>& frameSeconds) const {
    if (!frames.defined() || frames.dim() != 4 ||
        std::int64_t(frameSeconds.size()) != frames.size(0)) {
        fail("one time per frame is needed", {}, "frame times",
             frames.defined() && frames.dim() == 4 ? std::to_string(frames.size(0)) : "frames",
             std::to_string(frameSeconds.size()));
    }
    Qwen3_5PixelValues pv = qwen3_5Preprocess(frames, settings_);
    Qwen3_5EncodedVideo out;
    out.grid = pv.grid;
    const std::int64_t m = config_.vision.spatialMergeSize;
    out.mergedH = pv.grid.h / m;
    out.mergedW = pv.grid.w / m;
    out.timestamps = qwen3_5GroupTimestamps(frameSeconds, settings_.temporalPatchSize);
    out.features = encodePixels(pv).view({pv.grid.t, out.mergedH * out.mergedW, -1});
    return out;
}

}  // namespace once
