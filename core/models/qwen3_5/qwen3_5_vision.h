#pragma once
// The Qwen3.5 vision tower (Qwen3_5VisionModel of transformers 5), written functionally with
// at:: ops: a Conv3d patch embedding over (temporal pair × 16 × 16) patches, the learned
// 48 × 48 position table resampled bilinearly (align_corners) to each frame grid, 2-D axial
// rotary attention within each temporal group, LayerNorm/GELU blocks, and the 2 × 2 patch merger
// to the language model's width.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/qwen3_5/qwen3_5_config.h"
#include "models/qwen3_5/qwen3_5_positions.h"

namespace once {

class HfCheckpoint;

class Qwen3_5Vision {
  public:
    /// Loads the tower from `prefix` ("model.visual." in transformers 5 folders). Throws
    /// OnceError naming the folder and the tensor for a missing weight or a wrong shape.
    static Qwen3_5Vision load(const HfCheckpoint& checkpoint, const Qwen3_5VisionConfig& config,
                              at::ScalarType dtype, const std::string& device,
                              const std::string& prefix = "model.visual.");

    const Qwen3_5VisionConfig& config() const noexcept { return config_; }
    at::ScalarType dtype() const noexcept { return dtype_; }

    /// pixel_values [t·h·w, 3·temporal·patch²] in the processor's order (temporal group, merge
    /// block row, block column, row in block, column in block; each row channel-major) →
    /// merged features [t · h/m · w/m, out_hidden] in the model's dtype, merged-grid raster order
    /// within each temporal group. Throws OnceError for a grid or shape that does not fit.
    at::Tensor forward(const at::Tensor& pixelValues, const Qwen3_5Grid& grid) const;

    /// The interpolated position embedding of one h × w frame grid, [h·w, hidden] F32, rows in
    /// merge-block order (exposed for tests).
    at::Tensor positionEmbedding(std::int64_t h, std::int64_t w) const;

  private:
    struct Block {
        at::Tensor n1W, n1B, qkvW, qkvB, projW, projB, n2W, n2B, fc1W, fc1B, fc2W, fc2B;
    };
    Qwen3_5VisionConfig config_;
    std::string file_;
    at::ScalarType dtype_{};
    at::Tensor patchW_, patchB_, posTable_, invFreq_;
    std::vector<Block> blocks_;
    at::Tensor mNormW_, mNormB_, mFc1W_, mFc1B_, mFc2W_, mFc2B_;
};

/// Checks `grid` against `config` and the pixel rows (named "video_grid_thw" in errors).
void checkQwen3_5Grid(const Qwen3_5Grid& grid, const Qwen3_5VisionConfig& config);

}  // namespace once
