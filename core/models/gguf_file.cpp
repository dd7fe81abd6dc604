#include "models/gguf_file.h"

#include <ATen/ATen.h>

#include <cstring>
#include <limits>

#include "io/mapped_file.h"
#include "models/gguf_dequant.h"
#include "util/error.h"

namespace once {
namespace {

constexpr std::uint32_t kMaxDims = 4;  // GGML_MAX_DIMS

std::string valueTypeName(GgufValueType t) {
    static const char* names[] = {"u8",   "i8",     "u16",   "i16", "u32", "i32", "f32",
                                  "bool", "string", "array", "u64", "i64", "f64"};
    const auto i = static_cast<std::uint32_t>(t);
    return i < 13 ? names[i] : "type " + std::to_string(i);
}

// Bounds-checked little-endian cursor over the mapping. Every read names the header field it is
// reading so that a truncated or corrupt file says where it broke.
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
    std::string string(const std::string& field) {
        const auto len = read<std::uint64_t>(field + " (string length)");
        if (len > remaining()) {
            fail("a string runs past the end of the GGUF file", file_, field,
                 "at most " + std::to_string(remaining()) + " bytes", std::to_string(len));
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

// Smallest encoded size of a value of type t: bounds an element count before allocating.
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

GgufValue readScalar(Cursor& c, GgufValueType t, const std::string& file,
                     const std::string& field) {
    GgufValue v;
    v.type = t;
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
            break;
        }
        case GgufValueType::String:
            v.s = c.string(field);
            break;
        case GgufValueType::Array:
            break;  // handled by readValue
    }
    return v;
}

GgufValue readValue(Cursor& c, GgufValueType t, const std::string& file, const std::string& field) {
    if (t != GgufValueType::Array) {
        return readScalar(c, t, file, field);
    }
    GgufValue v;
    v.type = GgufValueType::Array;
    v.elementType =
        checkedType(c.read<std::uint32_t>(field + " (array type)"), file, field + " (array type)");
    if (v.elementType == GgufValueType::Array) {
        // llama.cpp rejects them too; no converter writes them.
        fail("nested GGUF arrays are not supported", file, field, "an array of scalars or strings",
             "an array of arrays");
    }
    const auto count = c.read<std::uint64_t>(field + " (array length)");
    if (count > c.remaining() / minEncodedSize(v.elementType)) {
        fail("an array runs past the end of the GGUF file", file, field,
             "at most " + std::to_string(c.remaining() / minEncodedSize(v.elementType)) +
                 " elements",
             std::to_string(count));
    }
    v.array.reserve(std::size_t(count));
    for (std::uint64_t k = 0; k < count; ++k) {
        v.array.push_back(readScalar(c, v.elementType, file, field));
    }
    return v;
}

bool mulOverflows(std::uint64_t a, std::uint64_t b, std::uint64_t limit) {
    return a != 0 && b > limit / a;
}

}  // namespace

bool GgufValue::isInteger() const noexcept {
    switch (type) {
        case GgufValueType::U8:
        case GgufValueType::I8:
        case GgufValueType::U16:
        case GgufValueType::I16:
        case GgufValueType::U32:
        case GgufValueType::I32:
        case GgufValueType::U64:
        case GgufValueType::I64:
            return true;
        default:
            return false;
    }
}

std::vector<std::int64_t> GgufTensorInfo::shape() const {
    return std::vector<std::int64_t>(dims.rbegin(), dims.rend());
}

GgufFile GgufFile::open(const std::string& path) {
    GgufFile g;
    g.path_ = path;
    g.map_ = MappedFile::open(path);
    Cursor c(g.map_->data(), g.map_->size(), g.path_);

    c.need(4, "magic");
    if (std::memcmp(g.map_->data(), "GGUF", 4) != 0) {
        std::string found(reinterpret_cast<const char*>(g.map_->data()), 4);
        for (char& ch : found) {
            ch = (ch >= 32 && ch < 127) ? ch : '?';
        }
        fail("not a GGUF file", path, "magic", "GGUF", found);
    }
    c.read<std::uint32_t>("magic");
    g.version_ = c.read<std::uint32_t>("version");
    if (g.version_ != 2 && g.version_ != 3) {
        // Version 1 used 32-bit counts and lengths; big-endian files show as a huge version.
        fail("unsupported GGUF version", path, "version", "2 or 3 (little-endian)",
             std::to_string(g.version_));
    }
    const auto tensorCount = c.read<std::uint64_t>("tensor_count");
    const auto kvCount = c.read<std::uint64_t>("metadata_kv_count");
    // A key/value takes ≥ 13 bytes (key length, type, smallest value); a tensor info ≥ 28.
    if (kvCount > c.remaining() / 13) {
        fail("the metadata count exceeds what the file can hold", path, "metadata_kv_count",
             "at most " + std::to_string(c.remaining() / 13), std::to_string(kvCount));
    }
    if (tensorCount > c.remaining() / 28) {
        fail("the tensor count exceeds what the file can hold", path, "tensor_count",
             "at most " + std::to_string(c.remaining() / 28), std::to_string(tensorCount));
    }

    for (std::uint64_t k = 0; k < kvCount; ++k) {
        const std::string where = "metadata[" + std::to_string(k) + "]";
        std::string key = c.string(where + ".key");
        if (key.empty()) {
            fail("an empty metadata key", path, where + ".key", "a name", "\"\"");
        }
        const GgufValueType t = checkedType(c.read<std::uint32_t>(key + " (type)"), path, key);
        GgufValue v = readValue(c, t, path, key);
        if (!g.kv_.emplace(key, std::move(v)).second) {
            fail("a metadata key appears twice", path, key, "unique keys", "a duplicate");
        }
        g.keyOrder_.push_back(std::move(key));
    }

    if (const GgufValue* a = g.find("general.alignment")) {
        // Signed integer types widen into `i`, unsigned ones into `u`.
        const bool isSigned = a->type == GgufValueType::I8 || a->type == GgufValueType::I16 ||
                              a->type == GgufValueType::I32 || a->type == GgufValueType::I64;
        const std::uint64_t align = isSigned ? (a->i > 0 ? std::uint64_t(a->i) : 0) : a->u;
        if (!a->isInteger() || align == 0 || (align & (align - 1)) != 0 || align > (1u << 20)) {
            fail("invalid tensor data alignment", path, "general.alignment", "a power of two (u32)",
                 !a->isInteger() ? valueTypeName(a->type)
                 : isSigned      ? std::to_string(a->i)
                                 : std::to_string(a->u));
        }
        g.alignment_ = align;
    }

    g.tensors_.reserve(std::size_t(tensorCount));
    const std::uint64_t maxElements = std::uint64_t(std::numeric_limits<std::int64_t>::max());
    for (std::uint64_t k = 0; k < tensorCount; ++k) {
        const std::string where = "tensor[" + std::to_string(k) + "]";
        GgufTensorInfo ti;
        ti.name = c.string(where + ".name");
        const std::string field = ti.name.empty() ? where : ti.name;
        const auto nDims = c.read<std::uint32_t>(field + " (n_dims)");
        if (nDims == 0 || nDims > kMaxDims) {
            fail("a tensor has an unsupported number of dimensions", path, field,
                 "1 to " + std::to_string(kMaxDims), std::to_string(nDims));
        }
        std::uint64_t numel = 1;
        for (std::uint32_t d = 0; d < nDims; ++d) {
            const auto n = c.read<std::uint64_t>(field + " (dims)");
            if (n > maxElements || mulOverflows(numel, n, maxElements)) {
                fail("tensor dimensions overflow", path, field, "at most 2^63-1 elements",
                     "a dimension of " + std::to_string(n));
            }
            numel *= n;
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
        if (ti.offset % g.alignment_ != 0) {
            fail("tensor data is misaligned", path, field,
                 "an offset that is a multiple of " + std::to_string(g.alignment_),
                 std::to_string(ti.offset));
        }
        if (!g.tensorIndex_.emplace(ti.name, g.tensors_.size()).second) {
            fail("a tensor name appears twice", path, field, "unique names", "a duplicate");
        }
        g.tensors_.push_back(std::move(ti));
    }

    // The data section starts at the next multiple of the alignment after the header.
    const std::uint64_t headerEnd = c.pos();
    g.dataOffset_ = (headerEnd + g.alignment_ - 1) / g.alignment_ * g.alignment_;
    const std::uint64_t fileSize = g.map_->size();
    if (!g.tensors_.empty() && g.dataOffset_ > fileSize) {
        fail("the GGUF file ends before its tensor data", path, "tensor data",
             "at least " + std::to_string(g.dataOffset_) + " bytes", std::to_string(fileSize));
    }
    for (const GgufTensorInfo& ti : g.tensors_) {
        const std::uint64_t available = fileSize > g.dataOffset_ ? fileSize - g.dataOffset_ : 0;
        if (ti.offset > available || ti.bytes > available - ti.offset) {
            fail("tensor data lies outside the file", path, ti.name,
                 std::to_string(ti.bytes) + " bytes from data offset " + std::to_string(ti.offset),
                 std::to_string(available) + " bytes of data in the file");
        }
    }
    return g;
}

const GgufValue* GgufFile::find(const std::string& key) const {
    auto it = kv_.find(key);
    return it == kv_.end() ? nullptr : &it->second;
}

namespace {

std::int64_t toInt(const GgufValue& v, const std::string& file, const std::string& key) {
    if (!v.isInteger()) {
        fail("a GGUF metadata value has the wrong type", file, key, "an integer",
             valueTypeName(v.type));
    }
    const bool isUnsigned = v.type == GgufValueType::U8 || v.type == GgufValueType::U16 ||
                            v.type == GgufValueType::U32 || v.type == GgufValueType::U64;
    if (isUnsigned && v.u > std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
        fail("a GGUF integer is too large", file, key, "at most 2^63-1", std::to_string(v.u));
    }
    return isUnsigned ? std::int64_t(v.u) : v.i;
}

}  // namespace

std::int64_t GgufFile::getInt(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v) {
        fail("a GGUF metadata key is missing", path_, key, "an integer", "missing");
    }
    return toInt(*v, path_, key);
}

std::int64_t GgufFile::getIntOr(const std::string& key, std::int64_t fallback) const {
    return has(key) ? getInt(key) : fallback;
}

double GgufFile::getFloat(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v) {
        fail("a GGUF metadata key is missing", path_, key, "a number", "missing");
    }
    if (v->isFloat()) {
        return v->f;
    }
    return double(toInt(*v, path_, key));
}

double GgufFile::getFloatOr(const std::string& key, double fallback) const {
    return has(key) ? getFloat(key) : fallback;
}

bool GgufFile::getBoolOr(const std::string& key, bool fallback) const {
    const GgufValue* v = find(key);
    if (!v) {
        return fallback;
    }
    if (v->type != GgufValueType::Bool) {
        fail("a GGUF metadata value has the wrong type", path_, key, "bool",
             valueTypeName(v->type));
    }
    return v->b;
}

std::string GgufFile::getString(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v || v->type != GgufValueType::String) {
        fail(v ? "a GGUF metadata value has the wrong type" : "a GGUF metadata key is missing",
             path_, key, "string", v ? valueTypeName(v->type) : "missing");
    }
    return v->s;
}

std::string GgufFile::getStringOr(const std::string& key, const std::string& fallback) const {
    return has(key) ? getString(key) : fallback;
}

std::vector<std::string> GgufFile::getStringArray(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v || v->type != GgufValueType::Array || v->elementType != GgufValueType::String) {
        fail(v ? "a GGUF metadata value has the wrong type" : "a GGUF metadata key is missing",
             path_, key, "array of string",
             !v                                ? "missing"
             : v->type == GgufValueType::Array ? "array of " + valueTypeName(v->elementType)
                                               : valueTypeName(v->type));
    }
    std::vector<std::string> out;
    out.reserve(v->array.size());
    for (const auto& e : v->array) {
        out.push_back(e.s);
    }
    return out;
}

std::vector<std::int64_t> GgufFile::getIntArray(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v || v->type != GgufValueType::Array) {
        fail(v ? "a GGUF metadata value has the wrong type" : "a GGUF metadata key is missing",
             path_, key, "array of integers", v ? valueTypeName(v->type) : "missing");
    }
    std::vector<std::int64_t> out;
    out.reserve(v->array.size());
    for (const auto& e : v->array) {
        out.push_back(toInt(e, path_, key));
    }
    return out;
}

const GgufTensorInfo& GgufFile::tensorInfo(const std::string& name) const {
    auto it = tensorIndex_.find(name);
    if (it == tensorIndex_.end()) {
        fail("a tensor is missing from the GGUF file", path_, name, "present", "missing");
    }
    return tensors_[it->second];
}

const std::uint8_t* GgufFile::tensorData(const GgufTensorInfo& info) const {
    return map_->data() + dataOffset_ + info.offset;
}

at::Tensor GgufFile::tensor(const std::string& name) const {
    const GgufTensorInfo& ti = tensorInfo(name);
    return dequantizeGgml(ti.type, tensorData(ti), ti.numel, path_, name).view(ti.shape());
}

at::Tensor GgufFile::tensor(const std::string& name, const std::vector<std::int64_t>& shape) const {
    const GgufTensorInfo& ti = tensorInfo(name);
    if (ti.shape() != shape) {
        auto str = [](const std::vector<std::int64_t>& s) {
            std::string out = "[";
            for (std::size_t i = 0; i < s.size(); ++i) {
                out += (i ? ", " : "") + std::to_string(s[i]);
            }
            return out + "]";
        };
        fail("a tensor has the wrong shape", path_, name, str(shape), str(ti.shape()));
    }
    return tensor(name);
}

}  // namespace once
