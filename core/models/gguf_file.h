#pragma once
// A GGUF file (llama.cpp's single-file model format, versions 2 and 3), memory-mapped: the header
// (metadata key/values and tensor infos) is parsed and validated up front, tensor data stays in
// the mapping until a tensor is asked for and de-quantised (gguf_dequant.h) into LibTorch.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace once {

class MappedFile;

/// Metadata value types of the GGUF specification.
enum class GgufValueType : std::uint32_t {
    U8 = 0,
    I8 = 1,
    U16 = 2,
    I16 = 3,
    U32 = 4,
    I32 = 5,
    F32 = 6,
    Bool = 7,
    String = 8,
    Array = 9,
    U64 = 10,
    I64 = 11,
    F64 = 12,
};

/// One metadata value. Integers of every width are widened (signed into `i`, unsigned into `u`)
/// so that callers need not care which width a converter chose.
struct GgufValue {
    GgufValueType type = GgufValueType::U8;
    GgufValueType elementType = GgufValueType::U8;  ///< arrays only
    std::int64_t i = 0;
    std::uint64_t u = 0;
    double f = 0;
    bool b = false;
    std::string s;
    std::vector<GgufValue> array;

    bool isInteger() const noexcept;
    bool isFloat() const noexcept {
        return type == GgufValueType::F32 || type == GgufValueType::F64;
    }
};

/// One tensor's header entry. `dims` are in ggml order (dims[0] is the contiguous one); shape()
/// gives the PyTorch order.
struct GgufTensorInfo {
    std::string name;
    std::vector<std::int64_t> dims;
    std::uint32_t type = 0;    ///< ggml type id (GgmlType in gguf_dequant.h)
    std::uint64_t offset = 0;  ///< from the start of the data section
    std::uint64_t bytes = 0;   ///< stored size
    std::int64_t numel = 0;
    std::vector<std::int64_t> shape() const;
};

class GgufFile {
  public:
    /// Maps and parses `path`. Throws OnceError naming the file, the field (header part, key or
    /// tensor) and what was expected and found for anything malformed: bad magic or version,
    /// counts or strings running past the end, unknown value or tensor types, nested arrays,
    /// duplicate keys or tensors, dimensions that overflow, a bad alignment, tensor data that is
    /// misaligned or outside the file.
    static GgufFile open(const std::string& path);

    const std::string& path() const noexcept { return path_; }
    std::uint32_t version() const noexcept { return version_; }
    std::uint64_t alignment() const noexcept { return alignment_; }
    std::uint64_t dataOffset() const noexcept { return dataOffset_; }

    // Metadata. The typed getters throw OnceError naming the file and key when the key is missing
    // or holds another type; the *Or variants return the fallback when it is missing.
    bool has(const std::string& key) const { return kv_.count(key) != 0; }
    const GgufValue* find(const std::string& key) const;
    const std::vector<std::string>& keys() const noexcept { return keyOrder_; }
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
    const std::vector<GgufTensorInfo>& tensors() const noexcept { return tensors_; }
    bool hasTensor(const std::string& name) const { return tensorIndex_.count(name) != 0; }
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
    std::uint32_t version_ = 0;
    std::uint64_t alignment_ = 32;
    std::uint64_t dataOffset_ = 0;
    std::map<std::string, GgufValue> kv_;
    std::vector<std::string> keyOrder_;
    std::vector<GgufTensorInfo> tensors_;
    std::map<std::string, std::size_t> tensorIndex_;
};

}  // namespace once
