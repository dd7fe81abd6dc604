#pragma once
// A Hugging Face model folder as the studio checks it before handing it to the pipeline: the
// files a backbone needs are present and readable, so a bad folder is a dialog naming the
// problem rather than a failure halfway through loading weights. Read with core's parsers
// (util/json_file.h, models/hf_checkpoint.h, models/qwen2_config.h): one reader per file kind.
#include <QString>

#include "models/prefill_flops.h"

namespace once::studio {

struct ModelFolder {
    QString path;
    QString modelType;   ///< config.json "model_type"
    once::LlmShape llm;  ///< the language model's sizes (text_config or top level)

    /// Throws once::OnceError naming the folder, the file and what is wrong: missing or
    /// invalid config.json, no model_type, no tokenizer.json, missing or malformed weights
    /// (shards listed in the index included), a decoder configuration that cannot be loaded.
    static ModelFolder inspect(const QString& path);
};

}  // namespace once::studio
