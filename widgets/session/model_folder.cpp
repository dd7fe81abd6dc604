#include "session/model_folder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <nlohmann/json.hpp>

#include "models/backbone.h"
#include "models/hub_cache.h"
#include "util/error.h"
#include "util/json_file.h"

namespace once::studio {

std::string ModelFolder::hubExamples() {
    std::string examples;
    for (const once::BackboneInfo& b : once::backboneInfos()) {
        if (!b.hubExample.empty()) {
            examples += (examples.empty() ? "" : ", ") + b.hubExample + " (" + b.title + ")";
        }
    }
    return examples;
}

ModelFolder ModelFolder::inspect(const QString& given) {
    // A hub cache repository folder is its snapshot of refs/main.
    const QString path = QFile::decodeName(QByteArray::fromStdString(
        once::resolveModelFolder(QFile::encodeName(given).toStdString())));
    const QFileInfo info(path);
    if (!info.isDir()) {
        once::fail("not a model folder", path.toStdString(), {}, "a folder",
                   info.exists() ? "a file" : "nothing (missing)");
    }
    const QDir dir(info.absoluteFilePath());
    ModelFolder m;
    m.path = dir.absolutePath();
    const std::string folder = m.path.toStdString();
    const std::string configPath = folder + "/config.json";
    if (!QFileInfo(QString::fromStdString(configPath)).isFile()) {
        // Say what a model folder is and where one comes from (issue 30).
        once::fail("model folder has no config.json", folder, "config.json",
                   "a Hugging Face checkpoint folder as downloaded (config.json, the weights, "
                   "tokenizer.json), such as " +
                       hubExamples(),
                   "missing");
    }
    // The cheap checks first, so the dialog names the first thing a user has to fix.
    const nlohmann::json config = once::parseJsonFile(configPath);
    if (!config.is_object() || !config.contains("model_type") ||
        !config["model_type"].is_string()) {
        once::fail("config.json does not name its model type", configPath, "model_type",
                   "a string such as \"llava_onevision\"", "missing");
    }
    m.modelType = QString::fromStdString(config["model_type"].get<std::string>());
    if (!QFileInfo(dir.filePath(QStringLiteral("tokenizer.json"))).isFile()) {
        once::fail("model folder has no tokenizer", folder, "tokenizer.json", "present", "missing");
    }
    // Weights and shards checked, the backbone detected (its model_type named otherwise), the
    // language model's sizes read.
    const once::ModelFolderInfo folderInfo = once::inspectModelFolder(folder);
    m.backbone = QString::fromStdString(folderInfo.backbone);
    // The folder's own sampling where its backbone reads one (Qwen3.5's video processor).
    m.samplingDefault =
        QString::fromStdString(once::defaultSamplingFor(folderInfo.backbone, folder).rule);
    m.llm = folderInfo.llm;
    return m;
}

}  // namespace once::studio
