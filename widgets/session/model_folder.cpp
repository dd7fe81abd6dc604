#include "session/model_folder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include "util/error.h"

namespace once::studio {
namespace {

QJsonObject readJsonObject(const QString& file, const QString& what) {
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        once::fail("cannot read " + what.toStdString(), file.toStdString(), {}, "a readable file",
                   f.errorString().toStdString());
    }
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        once::fail(
            what.toStdString() + " is not valid JSON", file.toStdString(), {}, "a JSON object",
            error.error != QJsonParseError::NoError
                ? error.errorString().toStdString() + " at byte " + std::to_string(error.offset)
                : std::string("a JSON value that is not an object"));
    }
    return doc.object();
}

LlmDims dimsFrom(const QJsonObject& c, const QString& name) {
    LlmDims d;
    d.name = name;
    d.layers = c.value(QStringLiteral("num_hidden_layers")).toInt();
    d.hidden = c.value(QStringLiteral("hidden_size")).toInt();
    d.intermediate = c.value(QStringLiteral("intermediate_size")).toInt();
    d.heads = c.value(QStringLiteral("num_attention_heads")).toInt();
    d.kvHeads = c.value(QStringLiteral("num_key_value_heads")).toInt(d.heads);
    d.vocab = c.value(QStringLiteral("vocab_size")).toInteger();
    return d;
}

}  // namespace

ModelFolder ModelFolder::inspect(const QString& path) {
    const QFileInfo info(path);
    if (!info.isDir()) {
        once::fail("not a model folder", path.toStdString(), {}, "a folder",
                   info.exists() ? "a file" : "nothing (missing)");
    }
    const QDir dir(info.absoluteFilePath());
    ModelFolder m;
    m.path = dir.absolutePath();

    const QString configPath = dir.filePath(QStringLiteral("config.json"));
    if (!QFileInfo(configPath).isFile()) {
        once::fail("model folder has no config.json", m.path.toStdString(), "config.json",
                   "present", "missing");
    }
    const QJsonObject config = readJsonObject(configPath, QStringLiteral("config.json"));
    m.modelType = config.value(QStringLiteral("model_type")).toString();
    if (m.modelType.isEmpty()) {
        once::fail("config.json does not name its model type", configPath.toStdString(),
                   "model_type", "a string such as \"llava_onevision\"", "missing");
    }
    const QJsonObject text = config.value(QStringLiteral("text_config")).toObject();
    m.llm = dimsFrom(text.isEmpty() ? config : text,
                     text.value(QStringLiteral("model_type")).toString(m.modelType));

    // Weights: one file, or shards named by model.safetensors.index.json (all must exist).
    const QString indexPath = dir.filePath(QStringLiteral("model.safetensors.index.json"));
    if (QFileInfo(indexPath).isFile()) {
        const QJsonObject index = readJsonObject(indexPath, QStringLiteral("the weight index"));
        const QJsonObject map = index.value(QStringLiteral("weight_map")).toObject();
        QSet<QString> shards;
        for (auto it = map.begin(); it != map.end(); ++it) {
            shards.insert(it.value().toString());
        }
        for (const QString& shard : shards) {
            if (!QFileInfo(dir.filePath(shard)).isFile()) {
                once::fail("a weight shard listed in the index is missing", indexPath.toStdString(),
                           "weight_map", "the file " + shard.toStdString(), "missing");
            }
            m.weightFiles << dir.filePath(shard);
        }
    } else {
        for (const QString& f :
             dir.entryList({QStringLiteral("*.safetensors")}, QDir::Files, QDir::Name)) {
            m.weightFiles << dir.filePath(f);
        }
    }
    if (m.weightFiles.isEmpty()) {
        once::fail("model folder has no weights", m.path.toStdString(), "*.safetensors",
                   "at least one safetensors file", "none");
    }
    if (!QFileInfo(dir.filePath(QStringLiteral("tokenizer.json"))).isFile()) {
        once::fail("model folder has no tokenizer", m.path.toStdString(), "tokenizer.json",
                   "present", "missing");
    }
    return m;
}

}  // namespace once::studio
