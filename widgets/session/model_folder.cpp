#include "session/model_folder.h"

#include <QDir>
#include <QFileInfo>
#include <nlohmann/json.hpp>

#include "models/hf_checkpoint.h"
#include "models/qwen2_config.h"
#include "util/error.h"
#include "util/json_file.h"

namespace once::studio {

ModelFolder ModelFolder::inspect(const QString& path) {
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
        once::fail("model folder has no config.json", folder, "config.json", "present", "missing");
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
    const once::HfCheckpoint checkpoint = once::HfCheckpoint::open(folder);  // weights, shards
    const auto text = config.find("text_config");
    const std::string textType = text != config.end() && text->is_object() &&
                                         text->contains("model_type") &&
                                         (*text)["model_type"].is_string()
                                     ? (*text)["model_type"].get<std::string>()
                                     : m.modelType.toStdString();
    m.llm =
        once::LlmShape::of(once::Qwen2Config::fromJson(checkpoint.config(), configPath), textType);
    return m;
}

}  // namespace once::studio
