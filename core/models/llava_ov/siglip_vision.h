#pragma once
// The SigLIP vision tower (the LLaVA-OneVision image encoder), written functionally with at:: ops
// over weights read from a Hugging Face folder. Only the layers up to the selected hidden state
// run: LLaVA-OneVision never uses the post-layernorm or the pooling head.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

namespace once {

class HfCheckpoint;

struct SiglipVisionConfig {
    std::int64_t hiddenSize = 0;
    std::int64_t intermediateSize = 0;
    std::int64_t numLayers = 0;  ///< layers stored in the checkpoint
    std::int64_t numHeads = 0;
    std::int64_t imageSize = 0;
    std::int64_t patchSize = 0;
    double layerNormEps = 1e-6;
    std::string hiddenAct = "gelu_pytorch_tanh";

    /// Patches per side. Hugging Face embeds with a stride-`patch` convolution without padding,
    /// so a 384-pixel image with 14-pixel patches (every published LLaVA-OneVision checkpoint)
    /// gives floor(384 / 14) = 27 patches from its top-left 378 × 378 pixels.
    std::int64_t grid() const { return patchSize > 0 ? imageSize / patchSize : 0; }
};

class SiglipVision {
  public:
    /// Loads the tower from the tensors named `prefix` + "embeddings.…" / "encoder.layers.N.…".
    /// `hiddenStates` are indexes into Hugging Face's `hidden_states` tuple (0 = embeddings, i =
    /// output of layer i; negative counts from the end, as Python does). Only the layers needed
    /// for the deepest of them are loaded. Weights move to `dtype` on `device`.
    static SiglipVision load(const HfCheckpoint& checkpoint, const std::string& prefix,
                             const SiglipVisionConfig& config,
                             const std::vector<std::int64_t>& hiddenStates, at::ScalarType dtype,
                             const std::string& device);

    const SiglipVisionConfig& config() const noexcept { return config_; }

    /// pixels [T, 3, S, S] (any float dtype; converted) → the selected hidden states concatenated
    /// along the feature axis, [T, grid², D × #selected]. Pixels past grid × patch (the right and
    /// bottom S mod patch columns and rows) are not seen, as in the reference convolution.
    /// With `attentionReceived`, also the attention each patch receives in the layer that
    /// produces the deepest selected hidden state: softmax weights averaged over heads and
    /// queries, [T, grid²] F32 (each row sums to 1). SigLIP has no CLS token, so this is the
    /// importance VisionZip's and HoliTom's SigLIP encoders use (`attn.mean(1).mean(1)`);
    /// undefined when only the embeddings are selected.
    at::Tensor forward(const at::Tensor& pixels, at::Tensor* attentionReceived = nullptr) const;

  private:
    struct Layer {
        at::Tensor ln1W, ln1B;
        at::Tensor qW, qB;  ///< q, k and v projections fused: [3·d, d], [3·d]
        at::Tensor oW, oB, ln2W, ln2B, fc1W, fc1B, fc2W, fc2B;
    };
    at::Tensor layerForward(const Layer& l, const at::Tensor& x,
                            at::Tensor* attentionReceived = nullptr) const;

    SiglipVisionConfig config_;
    std::string file_;                    ///< the folder, for error messages
    std::vector<std::int64_t> selected_;  ///< non-negative hidden-state indexes
    at::Tensor patchW_, patchB_, posEmb_;
    std::vector<Layer> layers_;
    at::ScalarType dtype_{};
};

}  // namespace once
