#pragma once
// A Hugging Face model folder as the studio checks it before handing it to the pipeline: the
// files a backbone needs are present and readable, so a bad folder is a dialog naming the
// problem rather than a failure halfway through loading weights. Read with core's parsers
// (util/json_file.h and the backbone registry, models/backbone.h: the weights checked, which
// backbone the folder is and its language model's sizes): one reader per file kind.
#include <QString>
#include <string>

#include "models/prefill_flops.h"

namespace once::studio {

struct ModelFolder {
    QString path;
    QString modelType;  ///< config.json "model_type"
    /// The registered backbone the folder is (models/backbone.h: "llava-onevision", "qwen3.5"),
    /// which is also the name of its visual encoder: videos opened with this model should be
    /// encoded by it, sampled by defaultSamplingFor (samplingDefault below).
    QString backbone;
    /// The frame sampling for videos of this model: the folder's own where its backbone reads
    /// one (Qwen3.5's video processor, as transformers samples), else the paper's.
    QString samplingDefault;
    once::LlmShape llm;       ///< the language model's sizes (text_config or top level)

    /// The Hugging Face checkpoints of the registered backbones, for telling a user what a
    /// model folder is ("llava-hf/llava-onevision-qwen2-7b-ov-hf (LLaVA-OneVision), …").
    static std::string hubExamples();
    /// `path` may also be a repository folder of the Hugging Face hub cache
    /// (models--ORG--NAME): its snapshot of refs/main is checked (models/hub_cache.h).
    /// Throws once::OnceError naming the folder, the file and what is wrong: missing or
    /// invalid config.json, no model_type, a model type of no registered backbone, no
    /// tokenizer.json, missing or malformed weights (shards listed in the index included), a
    /// language-model configuration that cannot be loaded.
    static ModelFolder inspect(const QString& path);
};

}  // namespace once::studio
