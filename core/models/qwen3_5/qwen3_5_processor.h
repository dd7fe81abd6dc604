#pragma once
// Qwen3.5's video front end: transformers' Qwen3VLVideoProcessor (smart resize, torchvision
// bicubic on uint8, fused rescale + normalise, temporal pairs, patch rows in merge-block order)
// and the Qwen3-VL video prompt of the chat template (non-thinking), built from the tokenizer.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/qwen3_5/qwen3_5_positions.h"
#include "models/qwen3_5/qwen3_5_video_config.h"

namespace once {

class BpeTokenizer;

struct Qwen3_5PixelValues {
    at::Tensor pixels;  ///< [t·h·w, 3·temporal·patch²] F32 (pixel_values_videos)
    Qwen3_5Grid grid;   ///< in patches (video_grid_thw)
};

/// frames: uint8 RGB [T, H, W, 3] (T >= the temporal patch). Throws OnceError for other input.
Qwen3_5PixelValues qwen3_5Preprocess(const at::Tensor& frames, const Qwen3_5VideoSettings& s);

/// How the video placeholder of the chat template is expanded.
enum class Qwen3_5VideoLayout {
    /// transformers 5 (the installed reference): only <|video_pad|> is replaced, so the
    /// template's own <|vision_start|> … <|vision_end|> stays around the groups.
    Transformers5,
    /// Qwen's original processor (transformers 4.57, qwen-vl-utils, vLLM): the template's
    /// "<|vision_start|><|video_pad|><|vision_end|>" is replaced as a whole.
    Qwen3VL,
};

struct Qwen3_5VideoPrompt {
    std::vector<std::int64_t> ids;
    std::string text;  ///< the rendered prompt before tokenization (for display and tests)
    /// Index in `ids` of the first video token of each temporal group; each group has
    /// tokensPerGroup consecutive video tokens (merged grid, raster order).
    std::vector<std::int64_t> groupStarts;
    std::int64_t tokensPerGroup = 0;
    std::int64_t videoTokenId = 0;
};

/// "[<|im_start|>system\n{system}<|im_end|>\n]<|im_start|>user\n{video}{question}<|im_end|>\n
/// <|im_start|>assistant\n<think>\n\n</think>\n\n" with the video as "<{t:.1f} seconds>
/// <|vision_start|><|video_pad|>×n<|vision_end|>" per temporal group (`timestamps`, one per
/// group; n = merged grid size). The user content and the system text are trimmed as the
/// template does. Throws OnceError for an empty question, a timestamp count other than grid.t,
/// or a tokenizer without the Qwen3.5 special tokens.
Qwen3_5VideoPrompt buildQwen3_5VideoPrompt(
    const BpeTokenizer& tokenizer, const std::string& question,
    const std::vector<double>& timestamps, const Qwen3_5Grid& grid, std::int64_t mergeSize,
    const std::string& system = {}, Qwen3_5VideoLayout layout = Qwen3_5VideoLayout::Transformers5);

}  // namespace once
