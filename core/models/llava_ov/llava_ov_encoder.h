#pragma once
// LLaVA-OneVision's visual front end as a VisualEncoder (backbone "llava-onevision"): SigLIP
// preprocessing → SigLIP tower up to `vision_feature_layer` → mlp2x_gelu projector → optional
// bilinear pooling (Hugging Face `get_video_features` order: project, then pool). The
// `image_newline` embedding is returned apart as a layout token, not as content.
#include <ATen/core/Tensor.h>

#include <memory>
#include <string>
#include <vector>

#include "models/llava_ov/llava_projector.h"
#include "models/llava_ov/siglip_preprocess.h"
#include "models/llava_ov/siglip_vision.h"
#include "models/visual_encoder.h"

namespace once {

/// What the encoder reads from config.json.
struct LlavaOvConfig {
    SiglipVisionConfig vision;
    std::vector<std::int64_t> featureLayers;  ///< Hugging Face hidden_states indexes
    std::string projectorAct = "gelu";
    std::int64_t textHidden = 0;
    std::string configLayout;  ///< "hf" (LlavaOnevisionConfig) or "llava-next" (original)
};

/// features [T, g², D] → [T, ceil(g/stride)², D]: Hugging Face `apply_pooling` (bilinear,
/// align_corners false) for stride 2, generalised to ceil(g/stride); stride 1 returns the input.
at::Tensor llavaPoolGrid(const at::Tensor& features, std::int64_t grid, int stride);

class LlavaOvEncoder : public VisualEncoder {
  public:
    /// Loads options.modelDir. Throws OnceError naming the file and field on any problem.
    explicit LlavaOvEncoder(const EncoderOptions& options);

    std::string backbone() const override { return "llava-onevision"; }
    std::string featureSource() const override;
    std::int64_t dim() const override { return config_.textHidden; }
    /// features come back on the configured device in the configured dtype.
    EncodedVideo encodeFrames(const at::Tensor& frames, Progress* progress) override;
    std::vector<std::string> notices() const override;

    /// The model alone, from already preprocessed pixel values [T, 3, S, S].
    EncodedVideo encodePixels(const at::Tensor& pixels, Progress* progress = nullptr);

    const LlavaOvConfig& config() const noexcept { return config_; }
    const SiglipPreprocessConfig& preprocessConfig() const noexcept { return pre_; }
    const std::string& projectorLayout() const noexcept { return projector_.layout(); }
    int poolStride() const noexcept { return options_.poolStride; }

  private:
    EncoderOptions options_;
    LlavaOvConfig config_;
    SiglipPreprocessConfig pre_;
    at::ScalarType dtype_{};
    SiglipVision tower_;
    LlavaProjector projector_;
    at::Tensor newline_;  ///< [1, D]
};

}  // namespace once
