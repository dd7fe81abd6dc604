#pragma once
// The preprocessing settings of a LLaVA-OneVision (SigLIP) model folder, from whichever processor
// file transformers and the hub have used. No LibTorch: the reader parses untrusted files and is
// fuzzed on its own (tests/fuzz/fuzz_model_config.cpp).
#include <array>
#include <cstdint>
#include <string>

#include "models/processor_ranges.h"

namespace once {

struct SiglipPreprocessConfig {
    std::int64_t height = 384, width = 384;
    double rescaleFactor = 1.0 / 255.0;
    std::array<double, 3> mean{0.5, 0.5, 0.5};  ///< SigLIP's values
    std::array<double, 3> std{0.5, 0.5, 0.5};
    std::string source;  ///< "FILE" or "FILE (video_processor)"; "" = no file, defaults
    /// Non-empty when no file gave the normalisation (or a file left it out): which values are
    /// used instead and why. Callers show it to the user (`once encode` prints it on stderr).
    std::string notice;

    /// The settings transformers would use for a *video* from `folder`, first found of:
    /// processor_config.json's "video_processor" (transformers 5), video_preprocessor_config.json
    /// (hub folders of 2025), processor_config.json's "image_processor", preprocessor_config.json
    /// (older hub folders, LLaVA-NeXT exports). Values a file leaves out take the default of the
    /// class it names, as transformers does (LlavaOnevision* processors: OpenAI CLIP mean/std;
    /// Siglip*: 0.5). Without any file: LLaVA-NeXT's SigLipImageProcessor (`defaultSize` square,
    /// bicubic, mean = std = 0.5), with a notice. Throws OnceError naming the file and field for
    /// malformed or out-of-range values, or a resampling other than bicubic.
    static SiglipPreprocessConfig fromFolder(const std::string& folder, std::int64_t defaultSize);
};

}  // namespace once
