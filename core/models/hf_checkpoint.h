#pragma once
// A Hugging Face model folder: config.json plus weights in one `model.safetensors` or several
// shards listed by `model.safetensors.index.json`. Tensors are mapped, not copied.
#include <ATen/core/Tensor.h>

#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace once {

class SafetensorsFile;

class HfCheckpoint {
  public:
    /// Opens `folder`: reads config.json and indexes every tensor of every shard.
    /// Throws OnceError naming the folder/file when config or weights are missing or malformed.
    static HfCheckpoint open(const std::string& folder);

    const std::string& folder() const noexcept { return folder_; }
    const nlohmann::json& config() const;
    /// Path of a file in the folder (which may not exist).
    std::string file(const std::string& name) const { return folder_ + "/" + name; }

    bool has(const std::string& tensor) const;
    /// The tensor on the CPU in its stored dtype (a view of the mapping when aligned).
    /// Throws OnceError naming the folder and tensor when missing.
    at::Tensor get(const std::string& tensor) const;
    /// get() + checks the shape, naming the tensor, expected and found shapes on mismatch.
    at::Tensor get(const std::string& tensor, const std::vector<std::int64_t>& shape) const;
    /// The first of `names` present (for key-layout variants); throws listing all of them.
    std::string firstPresent(const std::vector<std::string>& names) const;
    std::vector<std::string> names() const;

  private:
    std::string folder_;
    std::shared_ptr<nlohmann::json> config_;
    std::vector<std::shared_ptr<SafetensorsFile>> shards_;
    std::map<std::string, std::size_t> shardOf_;
};

}  // namespace once
