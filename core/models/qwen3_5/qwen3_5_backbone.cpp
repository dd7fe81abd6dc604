// Qwen3.5's language side (backbone "qwen3.5"): the hybrid text model of the folder, its
// tokenizer, the Qwen3-VL video prompt built in C++ (qwen3_5_processor.h), the compressed
// prompt and its M-RoPE positions by the pooled-token rule (qwen3_5_pooled_prompt.h), and
// generation with the DeltaNet and attention state carried. The video comes from the
// VisualEncoder "qwen3.5" (qwen3_5_visual_encoder.cpp): [T', P', D] merged features, the merged
// grid and one timestamp per temporal group.
#include <ATen/ATen.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "models/backbone.h"
#include "models/hf_checkpoint.h"
#include "models/qwen3_5/qwen3_5_config.h"
#include "models/qwen3_5/qwen3_5_pooled_prompt.h"
#include "models/qwen3_5/qwen3_5_processor.h"
#include "models/qwen3_5/qwen3_5_text_model.h"
#include "models/qwen3_5/qwen3_5_visual_encoder.h"
#include "tokenizer/bpe_tokenizer.h"
#include "util/error.h"

namespace once {
namespace {

Qwen3_5VideoLayout parseLayout(const std::string& format) {
    if (format.empty() || format == "auto" || format == "transformers5") {
        return Qwen3_5VideoLayout::Transformers5;
    }
    if (format == "qwen3-vl") {
        return Qwen3_5VideoLayout::Qwen3VL;
    }
    fail("unknown prompt format for Qwen3.5", {}, "prompt-format",
         "auto, transformers5 or qwen3-vl", format);
}

std::vector<std::int64_t> toVector(const at::Tensor& t) {
    at::Tensor c = t.to(at::kCPU, at::kLong).contiguous();
    return std::vector<std::int64_t>(c.data_ptr<std::int64_t>(),
                                     c.data_ptr<std::int64_t>() + c.numel());
}

class Qwen3_5Backbone : public LanguageBackbone {
  public:
    explicit Qwen3_5Backbone(const BackboneOptions& o)
        : checkpoint_(HfCheckpoint::open(o.modelDir)),
          config_(Qwen3_5Config::fromJson(checkpoint_.config(), checkpoint_.file("config.json"))),
          model_(Qwen3_5TextModel::load(checkpoint_, config_, {o.device, o.dtype})),
          tokenizer_(BpeTokenizer::fromFile(checkpoint_.file("tokenizer.json"))),
          layout_(parseLayout(o.promptFormat)),
          rule_(parsePooledPositionRule(o.positions)),
          merge_(config_.vision.spatialMergeSize) {
        // The prompt is built from the tokenizer; the model splices at the config's ids.
        const std::string tokFile = checkpoint_.file("tokenizer.json");
        auto same = [&](const char* token, std::int64_t configId, const char* field) {
            const std::int64_t id = tokenizer_.requireTokenId(token);
            if (id != configId) {
                fail("the tokenizer and config.json disagree on a vision token", tokFile, token,
                     std::string(field) + " = " + std::to_string(configId) + " (config.json)",
                     std::to_string(id));
            }
        };
        same("<|video_pad|>", config_.videoTokenId, "video_token_id");
        same("<|vision_start|>", config_.visionStartTokenId, "vision_start_token_id");
        same("<|vision_end|>", config_.visionEndTokenId, "vision_end_token_id");
        for (const char* stop : {"<|im_end|>", "<|endoftext|>"}) {
            if (auto id = tokenizer_.tokenId(stop)) {
                stops_.push_back(*id);
            }
        }
        for (auto id : config_.text.eosTokenIds) {
            if (std::find(stops_.begin(), stops_.end(), id) == stops_.end()) {
                stops_.push_back(id);
            }
        }
        source_ = std::string("Qwen3-VL video prompt, non-thinking (") +
                  (layout_ == Qwen3_5VideoLayout::Transformers5 ? "transformers5" : "qwen3-vl") +
                  " layout), pooled-token positions: " + pooledPositionRuleName(rule_);
    }

    std::string name() const override { return "qwen3.5"; }
    std::int64_t hiddenSize() const override { return config_.text.hiddenSize; }
    at::Device device() const override { return model_.device(); }
    const BpeTokenizer& tokenizer() const override { return tokenizer_; }
    std::vector<std::int64_t> stopTokens() const override { return stops_; }
    std::string promptSource() const override { return source_; }

    void adoptVideo(EncodedVideo& v, const std::string& origin) const override {
        const std::int64_t H = hiddenSize();
        if (v.dim() != H) {
            fail("the features do not match the language model", origin, "features",
                 "dimension " + std::to_string(H) + " (hidden size of the Qwen3.5 folder)",
                 std::to_string(v.dim()));
        }
        // The prompt's layout (one timestamp per temporal group, the merged grid's M-RoPE
        // positions) is the Qwen3.5 encoder's: features of another encoder have no place in it.
        if (v.backbone != "qwen3.5") {
            fail("the features were not made by the Qwen3.5 vision encoder", origin, "backbone",
                 "qwen3.5", v.backbone.empty() ? "none" : v.backbone);
        }
        if (v.gridH < 1 || v.gridW < 1 || std::int64_t(v.gridH) * v.gridW != v.patchesPerFrame()) {
            fail("Qwen3.5 features need their merged grid", origin, "grid",
                 "H x W = " + std::to_string(v.patchesPerFrame()) + " tokens per temporal group",
                 v.gridText().empty() ? "unknown" : v.gridText());
        }
        if (std::int64_t(v.frameTimes.size()) != v.numFrames()) {
            fail("Qwen3.5 features need one timestamp per temporal group", origin, "frame_times",
                 std::to_string(v.numFrames()), std::to_string(v.frameTimes.size()));
        }
        v.layoutTokens = at::zeros({0, H});
    }

    at::Tensor visualRows(const EncodedVideo& video, const VisualContent& c) const override {
        (void)video;
        if (!c.groupOfToken.defined()) {
            return c.rows.to(at::kFloat);
        }
        const auto order = qwen3_5PlacementOrder(toVector(c.groupOfToken), c.rows.size(0));
        return c.rows.index_select(0, at::tensor(order, at::kLong).to(c.rows.device()))
            .to(at::kFloat);
    }

    VideoPrompt buildPrompt(const EncodedVideo& video, const VisualContent& c,
                            const std::string& question, const std::string& system) const override {
        const std::int64_t T = video.numFrames(), P = video.patchesPerFrame();
        const Qwen3_5Grid grid{T, std::int64_t(video.gridH) * merge_,
                               std::int64_t(video.gridW) * merge_};
        const Qwen3_5VideoPrompt dense = buildQwen3_5VideoPrompt(
            tokenizer_, question, video.frameTimes, grid, merge_, system, layout_);
        const Qwen3_5Positions densePos =
            qwen3_5RopeIndex(dense.ids, dense.videoTokenId, {grid}, merge_);
        const std::int64_t rows = c.rows.size(0);
        std::vector<std::int64_t> groupOf;
        if (c.groupOfToken.defined()) {
            groupOf = toVector(c.groupOfToken);
        } else {
            if (rows != T * P) {
                fail("dense content does not match the video", {}, "visual rows",
                     std::to_string(T * P), std::to_string(rows));
            }
            groupOf.resize(std::size_t(rows));
            for (std::int64_t i = 0; i < rows; ++i) {
                groupOf[std::size_t(i)] = i;
            }
        }
        // The video's span in the prompt: the first group's timestamp (after the outer
        // <|vision_start|> of the transformers 5 layout) to the last <|vision_end|>.
        char ts[64];
        std::snprintf(ts, sizeof ts, "<%.1f seconds>", video.frameTimes.front());
        const bool outer = layout_ == Qwen3_5VideoLayout::Transformers5;
        const std::int64_t begin = dense.groupStarts.front() - 1 -
                                   std::int64_t(tokenizer_.encode(ts).size()) - (outer ? 1 : 0);
        const std::int64_t end =
            dense.groupStarts.back() + dense.tokensPerGroup + 1 + (outer ? 1 : 0);
        const Qwen3_5PooledPrompt p =
            qwen3_5PoolPrompt(dense, densePos, groupOf, rows, rule_, begin, end);
        VideoPrompt out;
        at::Tensor ordered =
            c.rows.index_select(0, at::tensor(p.rowOrder, at::kLong).to(c.rows.device()));
        out.embeddings = model_.embedWithVisual(p.ids, dense.videoTokenId, ordered);
        const std::int64_t L = std::int64_t(p.ids.size());
        out.positions =
            at::stack({at::tensor(p.positions.t, at::kLong), at::tensor(p.positions.h, at::kLong),
                       at::tensor(p.positions.w, at::kLong)})
                .view({3, L});
        out.ids = p.ids;
        out.placeholderIndex = -1;
        out.contentTokens = p.contentTokens;
        out.layoutTokens = p.layoutTokens;
        return out;
    }

    GenerationResult generate(const VideoPrompt& p,
                              const GenerationOptions& options) const override {
        return generateQwen3_5(model_, p.embeddings, p.positions, options);
    }

    double prefillFlops(std::int64_t tokens) const override {
        return once::prefillFlops(config_.text.llmShape(), tokens);
    }

  private:
    HfCheckpoint checkpoint_;
    Qwen3_5Config config_;
    Qwen3_5TextModel model_;
    BpeTokenizer tokenizer_;
    Qwen3_5VideoLayout layout_;
    PooledPositionRule rule_;
    std::int64_t merge_ = 2;
    std::vector<std::int64_t> stops_;
    std::string source_;
};

bool isQwen3_5Config(const nlohmann::json& c) {
    if (!c.is_object()) {
        return false;
    }
    if (c.contains("model_type") && c["model_type"].is_string() &&
        c["model_type"].get<std::string>() == "qwen3_5") {
        return true;
    }
    if (c.contains("architectures") && c["architectures"].is_array()) {
        for (const auto& a : c["architectures"]) {
            if (a.is_string() && a.get<std::string>() == "Qwen3_5ForConditionalGeneration") {
                return true;
            }
        }
    }
    return false;
}

const bool kRegistered = [] {
    registerBackbone({.name = "qwen3.5",
                      .title = "Qwen3.5",
                      .defaultSampling = "fps:2:4:256",
                      .promptFormats = {"transformers5", "qwen3-vl"},
                      .promptFormatHelp =
                          "auto = transformers5 (the video between the template's own vision "
                          "start/end, as transformers 5 expands it), qwen3-vl (Qwen's original "
                          "processor, vLLM)",
                      .structuredPositions = true,
                      .hubExample = "Qwen/Qwen3.5-9B",
                      .detect = isQwen3_5Config,
                      .makeEncoder = makeQwen3_5VisualEncoder,
                      .load = [](const BackboneOptions& o) -> std::unique_ptr<LanguageBackbone> {
                          return std::make_unique<Qwen3_5Backbone>(o);
                      },
                      .llmShape =
                          [](const nlohmann::json& config, const std::string& file) {
                              return Qwen3_5Config::fromJson(config, file).text.llmShape();
                          },
                      // transformers samples by the folder's video processor (fps, min and
                      // max frames; its class cap is 768 frames), the paper by fps:2:4:256.
                      .folderSampling =
                          [](const std::string& dir) {
                              const auto s = Qwen3_5VideoSettings::fromFolder(dir);
                              return SamplingChoice{s.samplingRule(), s.samplingNotice()};
                          }});
    return true;
}();

}  // namespace
}  // namespace once
