#pragma once
// safetensors reader and writer (the format of Hugging Face checkpoints):
//   u64 little-endian header length N | N bytes of JSON header | raw little-endian tensor data.
// This file has no LibTorch dependency so the parser can be fuzzed on its own (tests/fuzz).
// Conversion to at::Tensor lives in io/tensor_io.h.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "io/dtype.h"
#include "util/atomic_file.h"

namespace once {

class MappedFile;

/// Header of one tensor, validated: its bytes lie inside the data area and match its shape.
struct TensorEntry {
    std::string name;
    DType dtype = DType::F32;
    std::vector<std::int64_t> shape;
    std::uint64_t begin = 0;  ///< offset into the data area
    std::uint64_t end = 0;
    std::int64_t numel() const;
};

/// Largest JSON header accepted (the Hugging Face reader's limit).
constexpr std::uint64_t kMaxSafetensorsHeader = 100ull * 1024 * 1024;
/// Deepest nesting of [ and { in the header (a valid one nests 3 levels).
constexpr std::size_t kMaxSafetensorsDepth = 16;
/// Most dimensions of one tensor.
constexpr std::size_t kMaxSafetensorsRank = 64;

/// Parses and validates a whole safetensors image held in memory. `source` names the file in
/// error messages. Checks: header length inside the buffer and under the cap, nesting under
/// kMaxSafetensorsDepth, JSON object, at most kMaxSafetensorsRank dimensions,
/// known dtypes, non-negative shapes without overflow, shape × element size = byte span,
/// spans inside the data area, sorted without overlap or gaps, no trailing bytes.
/// Throws OnceError on the first problem.
struct SafetensorsHeader {
    std::vector<TensorEntry> tensors;  ///< in file order (sorted by offset)
    std::map<std::string, std::string> metadata;
    std::uint64_t dataOffset = 0;  ///< where the data area starts in the file
};
SafetensorsHeader parseSafetensors(std::span<const std::uint8_t> bytes, const std::string& source);

/// A mapped, validated safetensors file. Tensor bytes point into the mapping.
class SafetensorsFile {
  public:
    static SafetensorsFile open(const std::string& path);

    const std::string& path() const noexcept { return path_; }
    const SafetensorsHeader& header() const noexcept { return header_; }
    /// The whole file (header and data), as parsed.
    std::span<const std::uint8_t> image() const;
    const std::vector<TensorEntry>& tensors() const noexcept { return header_.tensors; }
    const std::map<std::string, std::string>& metadata() const noexcept { return header_.metadata; }
    bool contains(const std::string& name) const;
    /// Throws OnceError naming the file and the tensor when absent.
    const TensorEntry& entry(const std::string& name) const;
    std::span<const std::uint8_t> bytes(const TensorEntry& e) const;
    /// Keeps the mapping alive for as long as the returned pointer is held.
    std::shared_ptr<const MappedFile> mapping() const noexcept { return file_; }
    /// Metadata value or `fallback`.
    std::string meta(const std::string& key, const std::string& fallback = {}) const;

  private:
    std::string path_;
    std::shared_ptr<const MappedFile> file_;
    SafetensorsHeader header_;
};

/// Builds a safetensors file in memory and writes it atomically (temporary file + rename).
class SafetensorsWriter {
  public:
    /// Copies `data` (must be shape × element size bytes). Tensor names must be unique.
    void add(const std::string& name, DType dtype, std::vector<std::int64_t> shape,
             const void* data, std::size_t bytes);
    void setMetadata(const std::string& key, const std::string& value);
    /// The whole file image (header padded to 8 bytes, tensors in insertion order).
    std::vector<std::uint8_t> serialize() const;
    /// Writes atomically (util/atomic_file.h); `replace` says what may stand at `path`.
    void write(const std::string& path, OutputReplace replace = OutputReplace::regularFile) const;

  private:
    struct Item {
        std::string name;
        DType dtype;
        std::vector<std::int64_t> shape;
        std::vector<std::uint8_t> data;
    };
    std::vector<Item> items_;
    std::map<std::string, std::string> metadata_;
};

}  // namespace once
