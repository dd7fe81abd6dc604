#include "models/hf_checkpoint.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/json_file.h"
#include "util/safe_path.h"

namespace once {

namespace fs = std::filesystem;

namespace {
// The largest published checkpoints (72B in BF16) come in a few dozen shards.
constexpr std::size_t kMaxWeightShards = 4096;
}  // namespace

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
    ck.config_ = std::make_shared<nlohmann::json>(parseJsonFile(configPath));
    if (!ck.config_->is_object()) {
        fail("config.json is not a JSON object", configPath, {}, "an object",
             jsonTypeName(*ck.config_));
    }

    std::vector<std::string> shardFiles;
    const std::string index = ck.file("model.safetensors.index.json");
    if (fs::exists(ck.file("model.safetensors"))) {
        shardFiles.push_back("model.safetensors");
    } else if (fs::exists(index)) {
        const nlohmann::json idx = parseJsonFile(index);
        if (!idx.is_object() || !idx.contains("weight_map") || !idx["weight_map"].is_object()) {
            fail("index has no weight_map object", index, "weight_map", "object", "missing");
        }
        for (auto& [name, shard] : idx["weight_map"].items()) {
            if (!shard.is_string()) {
                fail("weight_map entry is not a file name", index, name, "string", shard.dump());
            }
            const std::string s = shard.get<std::string>();
            // A shard name from the internet must name a file of this folder: refuse "../x",
            // "/etc/x" and symlinks out of it before anything is opened.
            resolveInside(folder, s, index, "weight_map." + name);
            if (std::find(shardFiles.begin(), shardFiles.end(), s) == shardFiles.end()) {
                if (shardFiles.size() >= kMaxWeightShards) {
                    fail("index lists too many shard files", index, "weight_map",
                         "at most " + std::to_string(kMaxWeightShards), "more");
                }
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
