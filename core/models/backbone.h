#pragma once
// The seam between the pipeline and a video LLM (DESIGN §4): a backbone is one folder of
// files under core/models/<name>/ with one registration (registerBackbone): its vision side (a
// VisualEncoder, models/visual_encoder.h, registered under the same name) and its language side.
// The session, the CLI (`--backbone`), the evaluation harness, Stage A and the studio know
// backbones only through this registry: detection from a model folder's config.json, the default
// frame sampling, and a loaded LanguageBackbone that turns an encoded video, the compressor's
// output and a question into a prompt, prefills and generates.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "features/encoded_video.h"
#include "models/generation.h"
#include "models/prefill_flops.h"
#include "models/visual_encoder.h"

namespace once {

class BpeTokenizer;

/// How a backbone's language model is loaded and prompted.
struct BackboneOptions {
    std::string modelDir;
    std::string device = "cpu";
    std::string dtype = "float32";
    /// "auto" or a format the backbone knows (BackboneInfo::promptFormats).
    std::string promptFormat = "auto";
    /// Where pooled tokens sit in position space, for backbones with structured positions
    /// (Qwen3.5's M-RoPE): "first" (default), "mean" or "sequential" (docs/models.md).
    /// Backbones that re-pack positions (LLaVA) note that it does not apply.
    std::string positions = "first";
};

/// What the compressor hands the language side: the content rows and the source tokens each
/// one summarises, so that a backbone can place them in its prompt and give them positions.
struct VisualContent {
    at::Tensor rows;  ///< [M, D] content rows in the compressor's output order
    /// [N] int64 on the CPU: output row of each source token (frame-major over the video's
    /// [T, P]), −1 for a dropped token. Undefined: dense, row i is token i.
    at::Tensor groupOfToken;
};

/// A prompt ready to prefill, and what the report says about it.
struct VideoPrompt {
    at::Tensor embeddings;  ///< [S, hidden] on the model's device, in its dtype
    at::Tensor positions;   ///< [3, S] int64 M-RoPE positions; undefined: 0 … S-1
    /// Token ids of the prompt. LLaVA: the text with one placeholder at placeholderIndex, which
    /// the visual rows replace. Qwen3.5: one video-pad id per content row (S = ids.size()).
    std::vector<std::int64_t> ids;
    std::int64_t placeholderIndex = -1;  ///< −1 when the ids are already expanded
    /// Visual tokens entering the LLM: content rows, and the special/layout tokens around them
    /// (LLaVA's image_newline; Qwen3.5's timestamps and vision start/end tokens).
    std::int64_t contentTokens = 0, layoutTokens = 0;
    std::int64_t length() const { return embeddings.defined() ? embeddings.size(0) : 0; }
};

/// The language side of a loaded model folder.
class LanguageBackbone {
  public:
    virtual ~LanguageBackbone() = default;
    virtual std::string name() const = 0;  ///< registry name, as BackboneInfo::name
    virtual std::int64_t hiddenSize() const = 0;
    virtual at::Device device() const = 0;
    virtual const BpeTokenizer& tokenizer() const = 0;
    /// Ids that end an answer (<|im_end|>, <|endoftext|>, the config's eos ids).
    virtual std::vector<std::int64_t> stopTokens() const = 0;
    /// The prompt format in use and the template it follows (for reports).
    virtual std::string promptSource() const = 0;
    /// How the folder was read: settings it lacked and the defaults used instead.
    virtual std::vector<std::string> notices() const { return {}; }

    /// Checks that a video encoded elsewhere (a feature file, the studio) fits this model and
    /// completes what the backbone needs (LLaVA: the folder's image_newline as layout token).
    /// Throws OnceError naming `origin` otherwise.
    virtual void adoptVideo(EncodedVideo& video, const std::string& origin) const = 0;
    /// The visual rows the LLM sees, in prompt order (content placed, then any visual layout
    /// rows), F32; for tests and tools.
    virtual at::Tensor visualRows(const EncodedVideo& video,
                                  const VisualContent& content) const = 0;
    /// The prompt of `question` (and `system`, empty: the format's default) about `video`
    /// whose content the compressor turned into `content`. Throws OnceError for an empty
    /// question, a question holding the visual placeholder, or content that does not fit.
    virtual VideoPrompt buildPrompt(const EncodedVideo& video, const VisualContent& content,
                                    const std::string& question,
                                    const std::string& system = {}) const = 0;
    /// Prefills the prompt into a fresh state and generates (models/generation.h).
    virtual GenerationResult generate(const VideoPrompt& prompt,
                                      const GenerationOptions& options) const = 0;
    /// FLOPs of a prefill of `tokens` input tokens (models/prefill_flops.h).
    virtual double prefillFlops(std::int64_t tokens) const = 0;
};

/// The frame sampling used when none is asked for, and where it came from.
struct SamplingChoice {
    std::string rule;    ///< a SamplingRule text (video/sampling_rule.h)
    std::string notice;  ///< for the user: which file and values gave it; empty for the paper's
};

struct BackboneInfo {
    std::string name;   ///< "llava-onevision", "qwen3.5": also its VisualEncoder's name
    std::string title;  ///< "LLaVA-OneVision", "Qwen3.5"
    /// Frame sampling of the paper for this backbone (video/sampling_rule.h).
    std::string defaultSampling = "uniform:32";
    /// The --prompt-format values it takes besides "auto", and what they mean (for --help).
    std::vector<std::string> promptFormats{};
    std::string promptFormatHelp{};
    /// Its encoder pools the patch grid by --pool-stride (LLaVA-OneVision: 1 or 2); false: the
    /// vision tower merges patches itself and the setting does not apply (Qwen3.5).
    bool poolsPatchGrid = false;
    /// Pooled tokens take structured positions by --positions (Qwen3.5's M-RoPE); false: the
    /// prompt is re-packed 1-D and the setting does not apply.
    bool structuredPositions = false;
    /// A Hugging Face checkpoint of this backbone ("llava-hf/llava-onevision-qwen2-7b-ov-hf"):
    /// named where a user must be told what a model folder is and where one comes from.
    std::string hubExample;
    /// True when a folder's parsed config.json is this backbone's.
    std::function<bool(const nlohmann::json& config)> detect;
    /// Its vision side: encodes frames as the folder's vision tower does.
    VisualEncoderFactory makeEncoder{};
    std::function<std::unique_ptr<LanguageBackbone>(const BackboneOptions&)> load;
    /// The language model's sizes from config.json (`file` names it in errors), for FLOP
    /// counts without loading weights (the studio's charts). Throws OnceError.
    std::function<LlmShape(const nlohmann::json& config, const std::string& file)> llmShape;
    /// The sampling a model folder's own processor settings ask for, where transformers follows
    /// them (Qwen3.5's video processor: fps, min and max frames); unset: defaultSampling. Throws
    /// OnceError naming the file and field of a bad setting.
    std::function<SamplingChoice(const std::string& modelDir)> folderSampling = {};
};

/// Called by a static registrar in each backbone's folder, once: also registers makeEncoder as
/// the visual encoder `name` (models/visual_encoder.h).
void registerBackbone(BackboneInfo info);
std::vector<BackboneInfo> backboneInfos();
/// Throws OnceError listing the known backbones for an unknown name.
const BackboneInfo& backboneInfo(const std::string& name);
/// The backbone whose detect() accepts `modelDir`/config.json. Throws OnceError naming the
/// file and its model_type when none does (or the file is missing or malformed).
std::string detectBackbone(const std::string& modelDir);
/// `requested` "auto" or "": detectBackbone; otherwise the named backbone, which must be the
/// folder's (an OnceError names both when they differ).
std::string resolveBackbone(const std::string& requested, const std::string& modelDir);
/// Loads the language side of `name` (resolveBackbone first).
std::unique_ptr<LanguageBackbone> loadLanguageBackbone(const std::string& name,
                                                       const BackboneOptions& options);
/// What a model folder is, read without loading its weights.
struct ModelFolderInfo {
    std::string backbone;  ///< registry name (detectBackbone)
    LlmShape llm;          ///< the language model's sizes (BackboneInfo::llmShape)
};
/// Opens `modelDir` as loading it would start (config.json, the safetensors or their sharded
/// index, each header checked against its file) and says which backbone it is with its
/// language model's sizes. Throws OnceError naming the file and field of the first problem.
ModelFolderInfo inspectModelFolder(const std::string& modelDir);

/// The paper's frame sampling for a backbone or visual encoder name ("uniform:32" for the
/// demo encoder and names without a language side).
std::string defaultSampling(const std::string& backbone);
/// The sampling used when none is given: the folder's (BackboneInfo::folderSampling) when the
/// backbone reads one and `modelDir` is not empty, else defaultSampling with no notice.
SamplingChoice defaultSamplingFor(const std::string& backbone, const std::string& modelDir);

}  // namespace once
