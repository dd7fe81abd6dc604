#pragma once
// The LLaVA-OneVision `mlp2x_gelu` projector: Linear(vision → text) → activation → Linear(text →
// text). Reads either key layout: Hugging Face `multi_modal_projector.linear_1/2` or the original
// LLaVA-NeXT `mm_projector.0/2` (with or without a `model.` prefix).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

namespace once {

class HfCheckpoint;

class LlavaProjector {
  public:
    /// `inDim` is the vision feature width (× number of selected layers), `outDim` the LLM hidden
    /// size; `activation` a Hugging Face name ("gelu" for mlp2x_gelu). Biases are loaded when the
    /// checkpoint has them (`multimodal_projector_bias`).
    static LlavaProjector load(const HfCheckpoint& checkpoint, std::int64_t inDim,
                               std::int64_t outDim, const std::string& activation,
                               at::ScalarType dtype, const std::string& device);

    /// [..., inDim] → [..., outDim]
    at::Tensor forward(const at::Tensor& x) const;

    /// "hf" or "mm_projector": which key layout was found.
    const std::string& layout() const noexcept { return layout_; }

  private:
    at::Tensor w1_, b1_, w2_, b2_;
    std::string activation_, file_, layout_;
};

}  // namespace once
