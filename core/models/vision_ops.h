#pragma once
// What every backbone's vision side shares (LLaVA-OneVision's SigLIP tower and projector,
// Qwen3.5's vision tower and processor): the check of the frames an encoder is handed and the
// Hugging Face activation names their configs use.
#include <ATen/core/Tensor.h>

#include <string>

namespace once {

/// Throws OnceError unless `frames` is uint8 [T, H, W, 3].
void checkFrames(const at::Tensor& frames);

/// Hugging Face activation names used by the vision towers and projectors. Throws OnceError naming
/// `file` and `field` for a name it does not implement.
at::Tensor applyHfActivation(const at::Tensor& x, const std::string& name, const std::string& file,
                             const std::string& field);

}  // namespace once
