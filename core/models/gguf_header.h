#pragma once
// The header of a GGUF file (llama.cpp's single-file model format, versions 2 and 3): metadata
// key/values and tensor infos, parsed from the bytes without LibTorch so that the parser can be
// fuzzed on its own (tests/fuzz/fuzz_gguf.cpp). GgufFile (gguf_file.h) maps a file and reads
// tensors on top of it.
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace once {

// Limits on what a header may claim, checked before anything is allocated. Real files hold tens
// of keys, a few thousand tensors and token lists of a few hundred thousand entries; these are
// far above that and keep a hostile header's memory to a few hundred MiB.
constexpr std::uint64_t kMaxGgufMetadataKeys = 1u << 16;
constexpr std::uint64_t kMaxGgufTensors = 1u << 16;
constexpr std::uint64_t kMaxGgufArrayElements = 1u << 24;
constexpr std::uint64_t kMaxGgufStringBytes = 16u << 20;  ///< one metadata string
constexpr std::uint64_t kMaxGgufKeyBytes = 65535;         ///< the GGUF specification's limit
constexpr std::uint64_t kMaxGgufTensorNameBytes = 256;
/// Memory the parsed metadata may take in all (8 bytes per number, a std::string per string).
constexpr std::uint64_t kMaxGgufMetadataBytes = 256u << 20;

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

std::string ggufValueTypeName(GgufValueType t);
bool ggufTypeIsSigned(GgufValueType t) noexcept;
bool ggufTypeIsUnsigned(GgufValueType t) noexcept;

/// One metadata value. Integers of every width are widened (signed into `i`, unsigned into `u`)
/// so that callers need not care which width a converter chose. Arrays keep their elements in
/// one flat vector by kind (a u8 array of n elements costs 8n bytes, not n values).
struct GgufValue {
    GgufValueType type = GgufValueType::U8;
    GgufValueType elementType = GgufValueType::U8;  ///< arrays only
    std::int64_t i = 0;
    std::uint64_t u = 0;
    double f = 0;
    bool b = false;
    std::string s;
    std::vector<std::int64_t> ints;    ///< array of signed integers or bools (0/1)
    std::vector<std::uint64_t> uints;  ///< array of unsigned integers
    std::vector<double> floats;        ///< array of f32/f64
    std::vector<std::string> strings;  ///< array of strings

    bool isInteger() const noexcept;
    bool isFloat() const noexcept {
        return type == GgufValueType::F32 || type == GgufValueType::F64;
    }
    /// Number of elements of an array (0 for a scalar).
    std::size_t arraySize() const noexcept;
};

/// One tensor's header entry. `dims` are in ggml order (dims[0] is the contiguous one); shape()
/// gives the PyTorch order.
struct GgufTensorInfo {
    std::string name;
    std::vector<std::int64_t> dims;
    std::uint32_t type = 0;    ///< ggml type id (GgmlType in gguf_types.h)
    std::uint64_t offset = 0;  ///< from the start of the data section
    std::uint64_t bytes = 0;   ///< stored size
    std::int64_t numel = 0;
    std::vector<std::int64_t> shape() const;
};

struct GgufHeader {
    std::uint32_t version = 0;
    std::uint64_t alignment = 32;
    std::uint64_t dataOffset = 0;  ///< where tensor data starts in the file
    std::map<std::string, GgufValue> kv;
    std::vector<std::string> keyOrder;
    std::vector<GgufTensorInfo> tensors;
    std::map<std::string, std::size_t> tensorIndex;
};

/// Parses and validates the header of a whole GGUF image. Throws OnceError naming `source`, the
/// field (header part, key or tensor) and what was expected and found for anything malformed:
/// bad magic or version, counts, lengths or strings running past the end or over the limits
/// above, unknown value or tensor types, nested arrays, duplicate keys or tensors, dimensions
/// that overflow, a bad alignment, tensor data that is misaligned or outside the file.
GgufHeader parseGgufHeader(std::span<const std::uint8_t> bytes, const std::string& source);

}  // namespace once
