// GGUF header parsing. Every count and length read from the file is checked against the bytes
// left in the file and against a stated limit before anything is allocated for it.
#include "models/gguf_header.h"

#include <cstring>
#include <limits>

#include "models/gguf_types.h"
#include "util/error.h"

namespace once {
namespace {

constexpr std::uint32_t kMaxDims = 4;  // GGML_MAX_DIMS

// Bounds-checked little-endian cursor over the file image. Every read names the header field it
// is reading so that a truncated or corrupt file says where it broke.
class Cursor {
  public:
    Cursor(const std::uint8_t* data, std::size_t size, const std::string& file)
        : data_(data), size_(size), file_(file) {}

    std::size_t pos() const { return pos_; }
    std::size_t remaining() const { return size_ - pos_; }

    void need(std::size_t n, const std::string& field) const {
        if (n > remaining()) {
            fail("the GGUF file ends inside its header", file_, field,
                 std::to_string(n) + " more bytes at offset " + std::to_string(pos_),
                 std::to_string(remaining()));
        }
    }
    template <typename T>
    T read(const std::string& field) {
        need(sizeof(T), field);
        T v;
        std::memcpy(&v, data_ + pos_, sizeof(T));
        pos_ += sizeof(T);
        return v;
    }
    std::string string(const std::string& field, std::uint64_t limit) {
        const auto len = read<std::uint64_t>(field + " (string length)");
        if (len > remaining()) {
            fail("a string runs past the end of the GGUF file", file_, field,
                 "at most " + std::to_string(remaining()) + " bytes", std::to_string(len));
        }
        if (len > limit) {
            fail("a GGUF string is longer than the limit", file_, field,
                 "at most " + std::to_string(limit) + " bytes", std::to_string(len));
        }
        std::string s(reinterpret_cast<const char*>(data_ + pos_), std::size_t(len));
        pos_ += std::size_t(len);
        return s;
    }

  private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
    const std::string& file_;
};

// What the parsed metadata may still allocate (kMaxGgufMetadataBytes in all).
class Budget {
  public:
    explicit Budget(const std::string& file) : file_(file) {}
    void charge(std::uint64_t bytes, const std::string& field) {
        if (bytes > left_) {
            fail("the GGUF metadata is larger than the limit", file_, field,
                 "at most " + std::to_string(kMaxGgufMetadataBytes) + " bytes of metadata in all",
                 "more");
        }
        left_ -= bytes;
    }

  private:
    const std::string& file_;
    std::uint64_t left_ = kMaxGgufMetadataBytes;
};

// Smallest encoded size of a value of type t: bounds an element count by the bytes left.
std::size_t minEncodedSize(GgufValueType t) {
    switch (t) {
        case GgufValueType::U8:
        case GgufValueType::I8:
        case GgufValueType::Bool:
            return 1;
        case GgufValueType::U16:
        case GgufValueType::I16:
            return 2;
        case GgufValueType::U32:
        case GgufValueType::I32:
        case GgufValueType::F32:
            return 4;
        default:
            return 8;  // u64, i64, f64, string length, array header (type + count ≥ 12)
    }
}

GgufValueType checkedType(std::uint32_t raw, const std::string& file, const std::string& field) {
    if (raw > 12) {
        fail("unknown GGUF metadata value type", file, field, "0..12 (u8 … f64)",
             std::to_string(raw));
    }
    return static_cast<GgufValueType>(raw);
}

// One scalar of type t (not an array), widened.
struct Scalar {
    std::int64_t i = 0;
    std::uint64_t u = 0;
    double f = 0;
    bool b = false;
};

Scalar readNumber(Cursor& c, GgufValueType t, const std::string& file, const std::string& field) {
    Scalar v;
    switch (t) {
        case GgufValueType::U8:
            v.u = c.read<std::uint8_t>(field);
            break;
        case GgufValueType::I8:
            v.i = c.read<std::int8_t>(field);
            break;
        case GgufValueType::U16:
            v.u = c.read<std::uint16_t>(field);
            break;
        case GgufValueType::I16:
            v.i = c.read<std::int16_t>(field);
            break;
        case GgufValueType::U32:
            v.u = c.read<std::uint32_t>(field);
            break;
        case GgufValueType::I32:
            v.i = c.read<std::int32_t>(field);
            break;
        case GgufValueType::U64:
            v.u = c.read<std::uint64_t>(field);
            break;
        case GgufValueType::I64:
            v.i = c.read<std::int64_t>(field);
            break;
        case GgufValueType::F32:
            v.f = c.read<float>(field);
            break;
        case GgufValueType::F64:
            v.f = c.read<double>(field);
            break;
        case GgufValueType::Bool: {
            const auto b = c.read<std::uint8_t>(field);
            if (b > 1) {
                fail("a GGUF bool is neither 0 nor 1", file, field, "0 or 1", std::to_string(b));
            }
            v.b = b == 1;
            v.i = b;
            break;
        }
        case GgufValueType::String:
        case GgufValueType::Array:
            break;  // handled by the callers
    }
    return v;
}

void readArray(Cursor& c, GgufValue& v, Budget& budget, const std::string& file,
               const std::string& field) {
    v.elementType =
        checkedType(c.read<std::uint32_t>(field + " (array type)"), file, field + " (array type)");
    if (v.elementType == GgufValueType::Array) {
        // llama.cpp rejects them too; no converter writes them.
        fail("nested GGUF arrays are not supported", file, field, "an array of scalars or strings",
             "an array of arrays");
    }
    const auto count = c.read<std::uint64_t>(field + " (array length)");
    const std::uint64_t fits = c.remaining() / minEncodedSize(v.elementType);
    if (count > fits) {
        fail("an array runs past the end of the GGUF file", file, field,
             "at most " + std::to_string(fits) + " elements", std::to_string(count));
    }
    if (count > kMaxGgufArrayElements) {
        fail("a GGUF array is longer than the limit", file, field,
             "at most " + std::to_string(kMaxGgufArrayElements) + " elements",
             std::to_string(count));
    }
    const std::size_t n = std::size_t(count);
    if (v.elementType == GgufValueType::String) {
        budget.charge(count * sizeof(std::string), field);
        v.strings.reserve(n);
        for (std::size_t k = 0; k < n; ++k) {
            v.strings.push_back(c.string(field, kMaxGgufStringBytes));
            budget.charge(v.strings.back().size(), field);
        }
        return;
    }
    budget.charge(count * 8, field);
    if (v.elementType == GgufValueType::F32 || v.elementType == GgufValueType::F64) {
        v.floats.reserve(n);
        for (std::size_t k = 0; k < n; ++k) {
            v.floats.push_back(readNumber(c, v.elementType, file, field).f);
        }
    } else if (ggufTypeIsUnsigned(v.elementType)) {
        v.uints.reserve(n);
        for (std::size_t k = 0; k < n; ++k) {
            v.uints.push_back(readNumber(c, v.elementType, file, field).u);
        }
    } else {
        v.ints.reserve(n);
        for (std::size_t k = 0; k < n; ++k) {
            v.ints.push_back(readNumber(c, v.elementType, file, field).i);
        }
    }
}

GgufValue readValue(Cursor& c, GgufValueType t, Budget& budget, const std::string& file,
                    const std::string& field) {
    GgufValue v;
    v.type = t;
    if (t == GgufValueType::Array) {
        readArray(c, v, budget, file, field);
    } else if (t == GgufValueType::String) {
        v.s = c.string(field, kMaxGgufStringBytes);
        budget.charge(v.s.size(), field);
    } else {
        const Scalar s = readNumber(c, t, file, field);
        v.i = s.i;
        v.u = s.u;
        v.f = s.f;
        v.b = s.b;
    }
    return v;
}

bool mulOverflows(std::uint64_t a, std::uint64_t b, std::uint64_t limit) {
    return a != 0 && b > limit / a;
}

std::string printable(const std::string& s) {
    std::string out;
    for (char ch : s.substr(0, 64)) {
        out += (ch >= 32 && ch < 127) ? ch : '?';
    }
    return out + (s.size() > 64 ? "..." : "");
}

}  // namespace

std::string ggufValueTypeName(GgufValueType t) {
    static const char* names[] = {"u8",   "i8",     "u16",   "i16", "u32", "i32", "f32",
                                  "bool", "string", "array", "u64", "i64", "f64"};
    const auto i = static_cast<std::uint32_t>(t);
    return i < 13 ? names[i] : "type " + std::to_string(i);
}

bool ggufTypeIsSigned(GgufValueType t) noexcept {
    return t == GgufValueType::I8 || t == GgufValueType::I16 || t == GgufValueType::I32 ||
           t == GgufValueType::I64;
}

bool ggufTypeIsUnsigned(GgufValueType t) noexcept {
    return t == GgufValueType::U8 || t == GgufValueType::U16 || t == GgufValueType::U32 ||
           t == GgufValueType::U64;
}

bool GgufValue::isInteger() const noexcept {
    return ggufTypeIsSigned(type) || ggufTypeIsUnsigned(type);
}

std::size_t GgufValue::arraySize() const noexcept {
    return ints.size() + uints.size() + floats.size() + strings.size();
}

std::vector<std::int64_t> GgufTensorInfo::shape() const {
    return std::vector<std::int64_t>(dims.rbegin(), dims.rend());
}

GgufHeader parseGgufHeader(std::span<const std::uint8_t> bytes, const std::string& path) {
    GgufHeader g;
    Cursor c(bytes.data(), bytes.size(), path);
    Budget budget(path);

    c.need(4, "magic");
    if (std::memcmp(bytes.data(), "GGUF", 4) != 0) {
        std::string found(reinterpret_cast<const char*>(bytes.data()), 4);
        fail("not a GGUF file", path, "magic", "GGUF", printable(found));
    }
    c.read<std::uint32_t>("magic");
    g.version = c.read<std::uint32_t>("version");
    if (g.version != 2 && g.version != 3) {
        // Version 1 used 32-bit counts and lengths; big-endian files show as a huge version.
        fail("unsupported GGUF version", path, "version", "2 or 3 (little-endian)",
             std::to_string(g.version));
    }
    const auto tensorCount = c.read<std::uint64_t>("tensor_count");
    const auto kvCount = c.read<std::uint64_t>("metadata_kv_count");
    // A key/value takes ≥ 13 bytes (key length, type, smallest value); a tensor info ≥ 28.
    if (kvCount > c.remaining() / 13) {
        fail("the metadata count exceeds what the file can hold", path, "metadata_kv_count",
             "at most " + std::to_string(c.remaining() / 13), std::to_string(kvCount));
    }
    if (kvCount > kMaxGgufMetadataKeys) {
        fail("the metadata count is over the limit", path, "metadata_kv_count",
             "at most " + std::to_string(kMaxGgufMetadataKeys), std::to_string(kvCount));
    }
    if (tensorCount > c.remaining() / 28) {
        fail("the tensor count exceeds what the file can hold", path, "tensor_count",
             "at most " + std::to_string(c.remaining() / 28), std::to_string(tensorCount));
    }
    if (tensorCount > kMaxGgufTensors) {
        fail("the tensor count is over the limit", path, "tensor_count",
             "at most " + std::to_string(kMaxGgufTensors), std::to_string(tensorCount));
    }

    for (std::uint64_t k = 0; k < kvCount; ++k) {
        const std::string where = "metadata[" + std::to_string(k) + "]";
        std::string key = c.string(where + ".key", kMaxGgufKeyBytes);
        if (key.empty()) {
            fail("an empty metadata key", path, where + ".key", "a name", "\"\"");
        }
        const std::string field = printable(key);  // keys are untrusted bytes too
        budget.charge(sizeof(GgufValue) + 2 * key.size() + 64, field);
        const GgufValueType t = checkedType(c.read<std::uint32_t>(field + " (type)"), path, field);
        GgufValue v = readValue(c, t, budget, path, field);
        if (!g.kv.emplace(key, std::move(v)).second) {
            fail("a metadata key appears twice", path, field, "unique keys", "a duplicate");
        }
        g.keyOrder.push_back(std::move(key));
    }

    if (auto it = g.kv.find("general.alignment"); it != g.kv.end()) {
        const GgufValue* a = &it->second;
        const bool isSigned = ggufTypeIsSigned(a->type);
        const std::uint64_t align = isSigned ? (a->i > 0 ? std::uint64_t(a->i) : 0) : a->u;
        if (!a->isInteger() || align == 0 || (align & (align - 1)) != 0 || align > (1u << 20)) {
            fail("invalid tensor data alignment", path, "general.alignment",
                 "a power of two up to 2^20 (u32)",
                 !a->isInteger() ? ggufValueTypeName(a->type)
                 : isSigned      ? std::to_string(a->i)
                                 : std::to_string(a->u));
        }
        g.alignment = align;
    }

    g.tensors.reserve(std::size_t(tensorCount));
    const std::uint64_t maxElements = std::uint64_t(std::numeric_limits<std::int64_t>::max());
    for (std::uint64_t k = 0; k < tensorCount; ++k) {
        const std::string where = "tensor[" + std::to_string(k) + "]";
        GgufTensorInfo ti;
        ti.name = c.string(where + ".name", kMaxGgufTensorNameBytes);
        const std::string field = ti.name.empty() ? where : printable(ti.name);
        const auto nDims = c.read<std::uint32_t>(field + " (n_dims)");
        if (nDims == 0 || nDims > kMaxDims) {
            fail("a tensor has an unsupported number of dimensions", path, field,
                 "1 to " + std::to_string(kMaxDims), std::to_string(nDims));
        }
        // Checked: the product of the non-zero dimensions (LibTorch's strides of an empty tensor
        // still multiply them).
        std::uint64_t numel = 1, nonZero = 1;
        for (std::uint32_t d = 0; d < nDims; ++d) {
            const auto n = c.read<std::uint64_t>(field + " (dims)");
            if (n > maxElements || mulOverflows(nonZero, n, maxElements)) {
                fail("tensor dimensions overflow", path, field, "at most 2^63-1 elements",
                     "a dimension of " + std::to_string(n));
            }
            numel *= n;
            nonZero *= n == 0 ? 1 : n;
            ti.dims.push_back(std::int64_t(n));
        }
        ti.type = c.read<std::uint32_t>(field + " (type)");
        ti.offset = c.read<std::uint64_t>(field + " (offset)");
        ti.numel = std::int64_t(numel);
        auto traits = ggmlTypeTraits(ti.type);
        if (!traits) {
            fail("unknown tensor type", path, field, "a ggml type id (F32, F16, Q4_0 …)",
                 std::to_string(ti.type));
        }
        if (ti.dims[0] % traits->blockElements != 0) {
            fail("a tensor row is not a whole number of blocks", path, field,
                 "first dimension a multiple of " + std::to_string(traits->blockElements) +
                     " for " + traits->name,
                 std::to_string(ti.dims[0]));
        }
        const std::uint64_t blocks = numel / std::uint64_t(traits->blockElements);
        if (mulOverflows(blocks, std::uint64_t(traits->blockBytes), maxElements)) {
            fail("tensor size overflows", path, field, "less than 2^63 bytes",
                 std::to_string(blocks) + " blocks");
        }
        ti.bytes = blocks * std::uint64_t(traits->blockBytes);
        if (ti.offset % g.alignment != 0) {
            fail("tensor data is misaligned", path, field,
                 "an offset that is a multiple of " + std::to_string(g.alignment),
                 std::to_string(ti.offset));
        }
        if (!g.tensorIndex.emplace(ti.name, g.tensors.size()).second) {
            fail("a tensor name appears twice", path, field, "unique names", "a duplicate");
        }
        g.tensors.push_back(std::move(ti));
    }

    // The data section starts at the next multiple of the alignment after the header.
    const std::uint64_t headerEnd = c.pos();
    g.dataOffset = (headerEnd + g.alignment - 1) / g.alignment * g.alignment;
    const std::uint64_t fileSize = bytes.size();
    if (!g.tensors.empty() && g.dataOffset > fileSize) {
        fail("the GGUF file ends before its tensor data", path, "tensor data",
             "at least " + std::to_string(g.dataOffset) + " bytes", std::to_string(fileSize));
    }
    const std::uint64_t available = fileSize > g.dataOffset ? fileSize - g.dataOffset : 0;
    for (const GgufTensorInfo& ti : g.tensors) {
        if (ti.offset > available || ti.bytes > available - ti.offset) {
            fail("tensor data lies outside the file", path, printable(ti.name),
                 std::to_string(ti.bytes) + " bytes from data offset " + std::to_string(ti.offset),
                 std::to_string(available) + " bytes of data in the file");
        }
    }
    return g;
}

}  // namespace once
