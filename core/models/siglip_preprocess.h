#pragma once
// SigLIP / LLaVA-OneVision preprocessing: uint8 RGB frames → resized (bicubic, aspect ratio not
// kept), rescaled and normalised pixel values. The resize is LibTorch's antialiased bicubic on
// uint8, the kernel torchvision (and so the Hugging Face video processor) uses on the CPU, which
// follows PIL's fixed-point bicubic.
#include <ATen/core/Tensor.h>

#include <array>
#include <cstdint>
#include <string>

namespace once {

struct SiglipPreprocessConfig {
    std::int64_t height = 384, width = 384;
    double rescaleFactor = 1.0 / 255.0;
    std::array<double, 3> mean{0.5, 0.5, 0.5};  ///< SigLIP's values
    std::array<double, 3> std{0.5, 0.5, 0.5};
    std::string source;  ///< file the values came from ("" = defaults)

    /// Reads `preprocessor_config.json` (else `video_preprocessor_config.json`) of `folder`;
    /// without either, SigLIP defaults at `defaultSize`. Throws OnceError naming the file and
    /// field for malformed values or a resampling other than bicubic.
    static SiglipPreprocessConfig fromFolder(const std::string& folder, std::int64_t defaultSize);
};

/// Throws OnceError unless `frames` is uint8 [T, H, W, 3].
void checkFrames(const at::Tensor& frames);

/// frames: uint8 RGB [T, H, W, 3] on any device → float32 [T, 3, height, width] on the CPU.
at::Tensor siglipPreprocess(const at::Tensor& frames, const SiglipPreprocessConfig& config);

}  // namespace once
