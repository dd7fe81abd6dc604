// LLaVA-OneVision's language side (backbone "llava-onevision"): the Qwen2 decoder of the folder,
// its tokenizer, the LLaVA-NeXT or llava-hf prompt with one visual placeholder
// (models/llava_ov/chat_prompt.h), the visual rows spliced there and positions re-packed 0 … S-1 as
// LLaVA does. Also takes a plain Qwen2/Llama folder for feature files (no vision tower).
#include <ATen/ATen.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "models/backbone.h"
#include "models/hf_checkpoint.h"
#include "models/llava_ov/chat_prompt.h"
#include "models/llava_ov/llava_ov_encoder.h"
#include "models/qwen2/qwen2_config.h"
#include "models/qwen2/qwen2_model.h"
#include "tokenizer/bpe_tokenizer.h"
#include "util/error.h"

namespace once {
namespace {

class LlavaOvBackbone : public LanguageBackbone {
  public:
    explicit LlavaOvBackbone(const BackboneOptions& o)
        : checkpoint_(HfCheckpoint::open(o.modelDir)),
          model_(Qwen2Model::load(checkpoint_, {o.device, o.dtype})),
          tokenizer_(BpeTokenizer::fromFile(checkpoint_.file("tokenizer.json"))),
          modelDir_(o.modelDir) {
        prompt_ = choosePromptStyle(o.modelDir, o.promptFormat);
        if (!prompt_.notice.empty()) {
            notices_.push_back(prompt_.notice);
        }
        if (!o.positions.empty() && o.positions != "first") {
            notices_.push_back("--positions " + o.positions +
                               " applies to M-RoPE backbones (qwen3.5); LLaVA-OneVision "
                               "re-packs positions 0 … S-1");
        }
        for (const char* stop : {"<|im_end|>", "<|endoftext|>"}) {
            if (auto id = tokenizer_.tokenId(stop)) {
                stops_.push_back(*id);
            }
        }
        for (auto id : model_.config().eosTokenIds) {
            stops_.push_back(id);
        }
    }

    std::string name() const override { return "llava-onevision"; }
    std::int64_t hiddenSize() const override { return model_.config().hiddenSize; }
    at::Device device() const override { return model_.device(); }
    const BpeTokenizer& tokenizer() const override { return tokenizer_; }
    std::vector<std::int64_t> stopTokens() const override { return stops_; }
    std::string promptSource() const override { return prompt_.source; }
    std::vector<std::string> notices() const override { return notices_; }

    void adoptVideo(EncodedVideo& v, const std::string& origin) const override {
        const std::int64_t H = hiddenSize();
        if (v.dim() != H) {
            fail("the features do not match the language model", origin, "features",
                 "dimension " + std::to_string(H) + " (hidden size of " + modelDir_ + ")",
                 std::to_string(v.dim()));
        }
        if (v.layoutTokenCount() == 0) {
            // Feature files hold content tokens only; LLaVA's layout token lives in the folder.
            const auto& ck = checkpoint_;
            if (ck.has("image_newline") || ck.has("model.image_newline")) {
                v.layoutTokens =
                    ck.get(ck.firstPresent({"image_newline", "model.image_newline"}), {H})
                        .to(at::kFloat)
                        .reshape({1, H});
            } else {
                v.layoutTokens = at::zeros({0, H});
            }
        }
        // LLaVA's patch grids are square (27×27, or 14×14 pooled); spatial methods need it.
        v.fillUnknownGrid();
    }

    at::Tensor visualRows(const EncodedVideo& video, const VisualContent& c) const override {
        // Compressed rows in the compressor's order, then the newline (LLaVA's unpadded layout
        // after compression: the ONCE paper keeps image_newline once at the end).
        return at::cat({c.rows.to(at::kFloat), video.layoutTokens.to(c.rows.device(), at::kFloat)});
    }

    VideoPrompt buildPrompt(const EncodedVideo& video, const VisualContent& c,
                            const std::string& question, const std::string& system) const override {
        ChatPrompt p = buildVideoPrompt(tokenizer_, prompt_, question, system);
        at::Tensor visual = visualRows(video, c);
        VideoPrompt out;
        out.embeddings = spliceVisual(model_, p, visual);
        out.ids = std::move(p.ids);
        out.placeholderIndex = p.placeholderIndex;
        out.layoutTokens = video.layoutTokenCount();
        out.contentTokens = visual.size(0) - out.layoutTokens;
        return out;
    }

    GenerationResult generate(const VideoPrompt& p,
                              const GenerationOptions& options) const override {
        return once::generate(model_, p.embeddings, options);
    }

    double prefillFlops(std::int64_t tokens) const override { return model_.prefillFlops(tokens); }

  private:
    HfCheckpoint checkpoint_;
    Qwen2Model model_;
    BpeTokenizer tokenizer_;
    std::string modelDir_;
    PromptStyle prompt_;
    std::vector<std::string> notices_;
    std::vector<std::int64_t> stops_;
};

bool isLlavaOvConfig(const nlohmann::json& c) {
    if (!c.is_object() || !c.contains("model_type") || !c["model_type"].is_string()) {
        return false;
    }
    const std::string t = c["model_type"].get<std::string>();
    // llava_onevision (transformers), llava / llava_qwen (lmms-lab's LLaVA-NeXT folders), and
    // the plain decoders a feature file can be answered with.
    return t.rfind("llava", 0) == 0 || t == "qwen2" || t == "llama" || t == "mistral";
}

/// The language model's sizes: the text config's model_type names the decoder (qwen2, llama…).
LlmShape llavaOvLlmShape(const nlohmann::json& config, const std::string& file) {
    const auto text = config.find("text_config");
    const std::string type = text != config.end() && text->is_object() &&
                                     text->contains("model_type") &&
                                     (*text)["model_type"].is_string()
                                 ? (*text)["model_type"].get<std::string>()
                             : config.contains("model_type") && config["model_type"].is_string()
                                 ? config["model_type"].get<std::string>()
                                 : std::string();
    return Qwen2Config::fromJson(config, file).llmShape(type);
}

const bool kRegistered = [] {
    registerBackbone({.name = "llava-onevision",
                      .title = "LLaVA-OneVision",
                      .defaultSampling = "uniform:32",
                      .promptFormats = {"llava-next", "chat-template"},
                      .promptFormatHelp =
                          "auto = the folder's chat template when it is the llava-hf one (as "
                          "transformers applies it), else LLaVA-NeXT's conv_qwen with its system "
                          "turn (the paper's lmms-eval runs)",
                      .poolsPatchGrid = true,
                      .hubExample = "llava-hf/llava-onevision-qwen2-7b-ov-hf",
                      .detect = isLlavaOvConfig,
                      .makeEncoder = [](const EncoderOptions& o) -> std::unique_ptr<VisualEncoder> {
                          return std::make_unique<LlavaOvEncoder>(o);
                      },
                      .load = [](const BackboneOptions& o) -> std::unique_ptr<LanguageBackbone> {
                          return std::make_unique<LlavaOvBackbone>(o);
                      },
                      .llmShape = llavaOvLlmShape});
    return true;
}();

}  // namespace
}  // namespace once
