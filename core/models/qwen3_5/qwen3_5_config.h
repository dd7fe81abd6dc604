#pragma once
// The configuration of a Qwen3.5 vision-language folder (Qwen3_5ForConditionalGeneration,
// config.json as transformers 5 writes it: `text_config` + `vision_config` + the vision token
// ids). No LibTorch: the reader parses untrusted bytes and is fuzzed on its own
// (tests/fuzz/fuzz_qwen3_5_config.cpp). Fields a file leaves out take the defaults of the
// transformers classes (Qwen3_5TextConfig, Qwen3_5VisionConfig: the published 9B geometry), as
// transformers does; every value present or defaulted is checked.
#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "models/prefill_flops.h"

namespace once {

/// Limits of values read from a Qwen3.5 config.json. Far above the published checkpoints
/// (9B: 32 layers, width 4,096, MLP 12,288, 248,320 tokens; 397B: 60 layers, width 4,096...),
/// small enough that a hostile config cannot ask for absurd allocations before any weight is
/// read (the weights themselves are checked against these shapes).
constexpr std::int64_t kMaxQwen35Layers = 1024;
constexpr std::int64_t kMaxQwen35Width = 65536;            ///< hidden, head and MLP sizes
constexpr std::int64_t kMaxQwen35Heads = 1024;             ///< any head count
constexpr std::int64_t kMaxQwen35Vocab = 1 << 21;          ///< = kMaxTokenizerVocab
constexpr std::int64_t kMaxQwen35ConvKernel = 64;          ///< DeltaNet depthwise convolution
constexpr std::int64_t kMaxQwen35PatchSize = 1024;         ///< vision patch side (published: 16)
constexpr std::int64_t kMaxQwen35PositionTable = 1 << 20;  ///< learned vision positions (2,304)

struct Qwen3_5TextConfig {
    std::int64_t vocabSize = 248320, hiddenSize = 4096, intermediateSize = 12288;
    std::int64_t numLayers = 32, numHeads = 16, numKvHeads = 4, headDim = 256;
    double rmsNormEps = 1e-6;
    std::string hiddenAct = "silu";
    // Rotary: M-RoPE over the first rotaryDim dims of each full-attention head, interleaved
    // (T, H, W, T, H, W, ...) with mropeSection = rotary frequencies per axis.
    double ropeTheta = 10000000.0;
    double partialRotaryFactor = 0.25;
    std::int64_t rotaryDim = 64;  ///< int(headDim * partialRotaryFactor), even
    std::array<std::int64_t, 3> mropeSection{11, 11, 10};
    // Gated DeltaNet (linear attention) layers.
    std::int64_t convKernel = 4, linearKeyHeadDim = 128, linearValueHeadDim = 128;
    std::int64_t linearNumKeyHeads = 16, linearNumValueHeads = 32;
    std::vector<bool> fullAttention;  ///< per layer: true = gated full attention, else DeltaNet
    bool tieWordEmbeddings = false;
    std::vector<std::int64_t> eosTokenIds;

    /// The sizes prefill FLOPs are counted from ("qwen3_5"): the hybrid stack's DeltaNet layers
    /// and the gated query included.
    LlmShape llmShape() const;
};

struct Qwen3_5VisionConfig {
    std::int64_t depth = 27, hiddenSize = 1152, intermediateSize = 4304, numHeads = 16;
    std::int64_t inChannels = 3, patchSize = 16, temporalPatchSize = 2, spatialMergeSize = 2;
    std::int64_t outHiddenSize = 3584, numPositionEmbeddings = 2304;
    std::int64_t positionGridSide = 48;  ///< sqrt(numPositionEmbeddings)
    std::string hiddenAct = "gelu_pytorch_tanh";
    double ropeTheta = 10000.0;
    std::int64_t headDim() const { return numHeads > 0 ? hiddenSize / numHeads : 0; }
};

struct Qwen3_5Config {
    Qwen3_5TextConfig text;
    Qwen3_5VisionConfig vision;
    std::int64_t imageTokenId = 248056, videoTokenId = 248057;
    std::int64_t visionStartTokenId = 248053, visionEndTokenId = 248054;
    std::string dtype = "bfloat16";  ///< stored dtype named by the config ("dtype"/"torch_dtype")

    /// Parses a config.json document; `file` names it in errors. Throws OnceError naming the
    /// file, the field (dotted, e.g. "text_config.layer_types[3]"), what was expected and what
    /// was found, for a model type other than qwen3_5, a value of the wrong type, a size out of
    /// range, or sizes that do not fit together.
    static Qwen3_5Config fromJson(const nlohmann::json& config, const std::string& file);
    /// fromJson of `text` (the bytes of config.json), nested at most kMaxJsonDepth levels.
    static Qwen3_5Config parse(std::string_view text, const std::string& file);
    /// parse() of `folder`/config.json (at most 16 MiB).
    static Qwen3_5Config fromFolder(const std::string& folder);
};

}  // namespace once
