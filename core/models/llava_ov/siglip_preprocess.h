#pragma once
// SigLIP / LLaVA-OneVision preprocessing: uint8 RGB frames → resized (bicubic, aspect ratio not
// kept), rescaled and normalised pixel values. The resize is LibTorch's antialiased bicubic on
// uint8, the kernel torchvision (and so the Hugging Face video processor) uses on the CPU, which
// follows PIL's fixed-point bicubic.
#include <ATen/core/Tensor.h>

#include "models/llava_ov/processor_config.h"

namespace once {

/// frames: uint8 RGB [T, H, W, 3] on any device → float32 [T, 3, height, width] on the CPU.
at::Tensor siglipPreprocess(const at::Tensor& frames, const SiglipPreprocessConfig& config);

}  // namespace once
