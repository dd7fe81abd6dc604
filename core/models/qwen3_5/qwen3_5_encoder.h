#pragma once
// Qwen3.5's visual front end for a model folder: video settings + preprocessing + vision tower.
// Frames in, merged features [T', P', D] out (T' temporal groups of two frames, P' = merged grid
// cells, D = the language model's width), with the grid and the per-group timestamps that the
// prompt's layout tokens carry. The VisualEncoder "qwen3.5" wraps it
// (qwen3_5_visual_encoder.cpp; docs/models.md).
#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

#include "models/qwen3_5/qwen3_5_config.h"
#include "models/qwen3_5/qwen3_5_processor.h"
#include "models/qwen3_5/qwen3_5_vision.h"

namespace once {

struct Qwen3_5EncodedVideo {
    at::Tensor features;  ///< [T', P', D] content tokens in the model's dtype, raster order
    Qwen3_5Grid grid;     ///< patch grid (video_grid_thw); merged grid = h/m × w/m
    std::int64_t mergedH = 0, mergedW = 0;
    std::vector<double> timestamps;  ///< seconds of each temporal group (the prompt's layout)
};

class Qwen3_5VideoEncoder {
  public:
    /// Reads config.json, the video processor settings and the vision weights of `modelDir`.
    /// Throws OnceError naming the file and field on any problem, including processor settings
    /// whose patch, temporal patch or merge size differ from the vision tower's.
    Qwen3_5VideoEncoder(const std::string& modelDir, const std::string& device = "cpu",
                        const std::string& dtype = "float32");

    /// frames uint8 [T, H, W, 3] with the time of each frame in seconds (index / fps).
    Qwen3_5EncodedVideo encode(const at::Tensor& frames,
                               const std::vector<double>& frameSeconds) const;
    /// The tower alone on processor output.
    at::Tensor encodePixels(const Qwen3_5PixelValues& pv) const;

    const Qwen3_5Config& config() const noexcept { return config_; }
    const Qwen3_5VideoSettings& settings() const noexcept { return settings_; }

  private:
    Qwen3_5Config config_;
    Qwen3_5VideoSettings settings_;
    Qwen3_5Vision tower_;
};

}  // namespace once
