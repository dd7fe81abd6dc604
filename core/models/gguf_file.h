#pragma once
// A GGUF file (llama.cpp's single-file model format, versions 2 and 3), memory-mapped: the header
// (metadata key/values and tensor infos, gguf_header.h) is parsed and validated up front, tensor
// data stays in the mapping until a tensor is asked for and de-quantised (gguf_dequant.h) into
// LibTorch.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/gguf_header.h"

namespace once {

class MappedFile;

class GgufFile {
  public:
    /// Maps and parses `path` (parseGgufHeader: every check and limit of gguf_header.h). Throws
    /// OnceError naming the file, the field and what was expected and found.
    static GgufFile open(const std::string& path);

    const std::string& path() const noexcept { return path_; }
    std::uint32_t version() const noexcept { return h_.version; }
    std::uint64_t alignment() const noexcept { return h_.alignment; }
    std::uint64_t dataOffset() const noexcept { return h_.dataOffset; }

    // Metadata. The typed getters throw OnceError naming the file and key when the key is missing
    // or holds another type; the *Or variants return the fallback when it is missing.
    bool has(const std::string& key) const { return h_.kv.count(key) != 0; }
    const GgufValue* find(const std::string& key) const;
    const std::vector<std::string>& keys() const noexcept { return h_.keyOrder; }
    std::int64_t getInt(const std::string& key) const;
    std::int64_t getIntOr(const std::string& key, std::int64_t fallback) const;
    double getFloat(const std::string& key) const;
    double getFloatOr(const std::string& key, double fallback) const;
    bool getBoolOr(const std::string& key, bool fallback) const;
    std::string getString(const std::string& key) const;
    std::string getStringOr(const std::string& key, const std::string& fallback) const;
    std::vector<std::string> getStringArray(const std::string& key) const;
    std::vector<std::int64_t> getIntArray(const std::string& key) const;

    // Tensors.
    const std::vector<GgufTensorInfo>& tensors() const noexcept { return h_.tensors; }
    bool hasTensor(const std::string& name) const { return h_.tensorIndex.count(name) != 0; }
    /// Throws OnceError naming the file and tensor when absent.
    const GgufTensorInfo& tensorInfo(const std::string& name) const;
    /// Stored bytes of a tensor (inside the mapping, valid while this object lives).
    const std::uint8_t* tensorData(const GgufTensorInfo& info) const;
    /// The tensor de-quantised to F32 on the CPU, in PyTorch shape. Throws OnceError naming the
    /// file and tensor for a type that cannot be de-quantised.
    at::Tensor tensor(const std::string& name) const;
    /// tensor() + checks the PyTorch shape, naming the tensor, expected and found on mismatch.
    at::Tensor tensor(const std::string& name, const std::vector<std::int64_t>& shape) const;

  private:
    std::string path_;
    std::shared_ptr<const MappedFile> map_;
    GgufHeader h_;
};

}  // namespace once
