#pragma once
// Qwen3.5's visual front end behind the VisualEncoder seam, for its one registration
// (qwen3_5_backbone.cpp): the folder's video processor and vision tower, one feature frame per
// temporal pair of frames.
#include <memory>

#include "models/visual_encoder.h"

namespace once {

std::unique_ptr<VisualEncoder> makeQwen3_5VisualEncoder(const EncoderOptions& options);

}  // namespace once
