#include "models/hf_checkpoint.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace once {

namespace fs = std::filesystem;

HfCheckpoint HfCheckpoint::open(const std::string& folder) {
    HfCheckpoint ck;
    ck.folder_ = folder;
    if (!fs::is_directory(folder)) {
        fail("model folder not found", folder, {}, "a Hugging Face model folder", "no folder");
    }
    const std::string configPath = ck.file("config.json");
    if (!fs::exists(configPath)) {
        fail("model folder has no config.json", folder, "config.json", "present", "missing");
    }
    try {
        ck.config_ =
            std::make_shared<nlohmann::json>(nlohmann::json::parse(readWholeFile(configPath)));
    } catch (const nlohmann::json::exception& e) {
        fail(std::string("config.json is not valid JSON: ") + e.what(), configPath);
    }

    std::vector<std::string> shardFiles;
    const std::string index = ck.file("model.safetensors.index.json");
    if (fs::exists(ck.file("model.safetensors"))) {
        shardFiles.push_back("model.safetensors");
    } else if (fs::exists(index)) {
        nlohmann::json idx;
        try {
            idx = nlohmann::json::parse(readWholeFile(index));
        } catch (const nlohmann::json::exception& e) {
            fail(std::string("index is not valid JSON: ") + e.what(), index);
        }
        if (!idx.contains("weight_map") || !idx["weight_map"].is_object()) {
            fail("index has no weight_map object", index, "weight_map", "object", "missing");
        }
        for (auto& [name, shard] : idx["weight_map"].items()) {
            if (!shard.is_string()) {
                fail("weight_map entry is not a file name", index, name, "string", shard.dump());
            }
            const std::string s = shard.get<std::string>();
            if (std::find(shardFiles.begin(), shardFiles.end(), s) == shardFiles.end()) {
                shardFiles.push_back(s);
            }
        }
    } else {
        fail("model folder has no weights", folder, "model.safetensors",
             "model.safetensors or model.safetensors.index.json", "neither");
    }
    for (const std::string& s : shardFiles) {
        const std::string path = ck.file(s);
        if (!fs::exists(path)) {
            fail("weight shard listed in the index is missing", path, s, "present", "missing");
        }
        ck.shards_.push_back(std::make_shared<SafetensorsFile>(SafetensorsFile::open(path)));
        for (const TensorEntry& e : ck.shards_.back()->tensors()) {
            ck.shardOf_[e.name] = ck.shards_.size() - 1;
        }
    }
    return ck;
}

const nlohmann::json& HfCheckpoint::config() const {
    return *config_;
}

bool HfCheckpoint::has(const std::string& tensor) const {
    return shardOf_.count(tensor) > 0;
}

at::Tensor HfCheckpoint::get(const std::string& tensor) const {
    auto it = shardOf_.find(tensor);
    if (it == shardOf_.end()) {
        fail("weight missing from the model folder", folder_, tensor, "present", "missing");
    }
    return loadTensor(*shards_[it->second], tensor);
}

at::Tensor HfCheckpoint::get(const std::string& tensor,
                             const std::vector<std::int64_t>& shape) const {
    at::Tensor t = get(tensor);
    if (t.sizes().vec() != shape) {
        fail("weight has the wrong shape", folder_, tensor, shapeString(shape),
             shapeString(t.sizes()));
    }
    return t;
}

std::string HfCheckpoint::firstPresent(const std::vector<std::string>& names) const {
    for (const auto& n : names) {
        if (has(n)) {
            return n;
        }
    }
    std::string all;
    for (const auto& n : names) {
        all += (all.empty() ? "" : " or ") + n;
    }
    fail("weight missing from the model folder", folder_, names.empty() ? "" : names.front(), all,
         "none of them");
}

std::vector<std::string> HfCheckpoint::names() const {
    std::vector<std::string> out;
    for (const auto& [n, _] : shardOf_) {
        out.push_back(n);
    }
    return out;
}

}  // namespace once
