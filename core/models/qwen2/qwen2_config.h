#pragma once
// The decoder configuration of a Qwen2/Llama-family Hugging Face folder, read from config.json
// (or its `text_config` inside a LLaVA-style multimodal config). Accepts transformers 4
// (`rope_theta`, `rope_scaling`) and 5 (`rope_parameters`) spellings.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "models/prefill_flops.h"

namespace once {

struct RopeConfig {
    double theta = 10000.0;
    std::string type = "default";  ///< default, linear, llama3
    double factor = 1.0;
    double lowFreqFactor = 1.0, highFreqFactor = 4.0;  ///< llama3
    std::int64_t originalMaxPositions = 8192;          ///< llama3
};

struct Qwen2Config {
    std::string modelType;  ///< qwen2, llama, mistral (same decoder; biases read from weights)
    std::int64_t vocabSize = 0, hiddenSize = 0, intermediateSize = 0, numLayers = 0;
    std::int64_t numHeads = 0, numKvHeads = 0, headDim = 0;
    double rmsNormEps = 1e-6;
    RopeConfig rope;
    bool tieWordEmbeddings = false;
    std::string dtype = "float32";  ///< stored dtype named by the config
    std::vector<std::int64_t> eosTokenIds;

    /// Parses the decoder part of `config`; `file` names config.json in errors. Throws OnceError
    /// naming the field for an unknown architecture, a missing size or an unsupported rope.
    static Qwen2Config fromJson(const nlohmann::json& config, const std::string& file);
    /// The sizes prefill FLOPs are counted from, under `name` (the decoder's model_type).
    LlmShape llmShape(std::string name) const {
        return LlmShape::transformer(*this, std::move(name));
    }
};

}  // namespace once
