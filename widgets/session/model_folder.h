#pragma once
// A Hugging Face model folder as the studio checks it before handing it to the pipeline: the
// files a backbone needs are present and readable, so a bad folder is a dialog naming the
// problem rather than a failure halfway through loading weights.
#include <QString>
#include <QStringList>

#include "charts/prefill_flops.h"

namespace once::studio {

struct ModelFolder {
    QString path;
    QString modelType;  ///< config.json "model_type"
    QStringList weightFiles;
    LlmDims llm;  ///< the language model's dimensions (text_config or top level)

    /// Throws once::OnceError naming the folder, the file and what is wrong: missing or
    /// unreadable config.json, no model_type, no *.safetensors weights (or shards listed in
    /// the index that are missing), no tokenizer.json.
    static ModelFolder inspect(const QString& path);
};

}  // namespace once::studio
