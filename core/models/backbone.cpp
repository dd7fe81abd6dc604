#include "models/backbone.h"

#include <map>
#include <nlohmann/json.hpp>

#include "models/hf_checkpoint.h"
#include "util/error.h"
#include "util/json_file.h"

namespace once {
namespace {

std::map<std::string, BackboneInfo>& registry() {
    static std::map<std::string, BackboneInfo> r;
    return r;
}

std::string knownNames() {
    std::string names;
    for (const auto& [n, _] : registry()) {
        names += (names.empty() ? "" : ", ") + n;
    }
    return names;
}

// config.json is a few kilobytes; a hostile one is refused before it is parsed whole.
constexpr std::size_t kMaxConfigBytes = std::size_t(16) << 20;

}  // namespace

void registerBackbone(BackboneInfo info) {
    std::string name = info.name;
    if (info.makeEncoder) {
        registerVisualEncoder(name, info.makeEncoder);
    }
    registry()[name] = std::move(info);
}

std::vector<BackboneInfo> backboneInfos() {
    std::vector<BackboneInfo> out;
    for (const auto& [_, i] : registry()) {
        out.push_back(i);
    }
    return out;
}

const BackboneInfo& backboneInfo(const std::string& name) {
    auto it = registry().find(name);
    if (it == registry().end()) {
        fail("unknown backbone", {}, "backbone", "one of: " + knownNames(), name);
    }
    return it->second;
}

std::string detectBackbone(const std::string& modelDir) {
    const std::string file = modelDir + "/config.json";
    const nlohmann::json config = parseJsonFile(file, {kMaxConfigBytes, kMaxJsonDepth});
    for (const auto& [name, info] : registry()) {
        if (info.detect && info.detect(config)) {
            return name;
        }
    }
    std::string found = "model_type ";
    found += config.is_object() && config.contains("model_type") && config["model_type"].is_string()
                 ? "\"" + config["model_type"].get<std::string>() + "\""
                 : std::string("missing");
    fail("the model folder is not one of a known backbone", file, "model_type",
         "a folder of: " + knownNames(), found);
}

std::string resolveBackbone(const std::string& requested, const std::string& modelDir) {
    if (requested.empty() || requested == "auto") {
        return detectBackbone(modelDir);
    }
    backboneInfo(requested);  // an unknown name first
    const std::string found = detectBackbone(modelDir);
    if (found != requested) {
        fail("the model folder is not of the backbone asked for", modelDir + "/config.json",
             "backbone", requested, found);
    }
    return requested;
}

std::unique_ptr<LanguageBackbone> loadLanguageBackbone(const std::string& name,
                                                       const BackboneOptions& options) {
    const BackboneInfo& info = backboneInfo(resolveBackbone(name, options.modelDir));
    return info.load(options);
}

ModelFolderInfo inspectModelFolder(const std::string& modelDir) {
    const HfCheckpoint checkpoint = HfCheckpoint::open(modelDir);  // weights, shards
    ModelFolderInfo out;
    out.backbone = detectBackbone(modelDir);
    out.llm =
        backboneInfo(out.backbone).llmShape(checkpoint.config(), checkpoint.file("config.json"));
    return out;
}

std::string defaultSampling(const std::string& backbone) {
    auto it = registry().find(backbone);
    return it == registry().end() ? std::string("uniform:32") : it->second.defaultSampling;
}

SamplingChoice defaultSamplingFor(const std::string& backbone, const std::string& modelDir) {
    auto it = registry().find(backbone);
    if (it != registry().end() && it->second.folderSampling && !modelDir.empty()) {
        return it->second.folderSampling(modelDir);
    }
    return {defaultSampling(backbone), {}};
}

}  // namespace once
