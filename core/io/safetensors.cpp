#include "io/safetensors.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

#include "io/mapped_file.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace once {
namespace {

using json = nlohmann::json;

std::string shapeText(const std::vector<std::int64_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(shape[i]);
    }
    return s + "]";
}

// A JSON value for an error message: at most 80 characters (a hostile header may hold a
// megabyte-long array where a shape belongs).
std::string brief(const json& v) {
    std::string s = v.dump(-1, ' ', true, json::error_handler_t::replace);
    return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

// The message of a JSON parse error without nlohmann's "[json.exception.parse_error.101] "
// prefix, printable and bounded (it quotes the bytes it last read).
std::string parseErrorText(const json::exception& ex) {
    std::string what = ex.what();
    if (what.rfind("[json.exception.", 0) == 0 && what.find("] ") != std::string::npos) {
        what = what.substr(what.find("] ") + 2);
    }
    std::string out;
    for (char c : what.substr(0, 160)) {
        out += (c >= 32 && c < 127) ? c : '?';
    }
    return out + (what.size() > 160 ? "..." : "");
}

// Deepest bracket nesting of a JSON text (strings skipped). A header nests three levels
// ({name: {shape: [..]}}); refusing deep nesting before parsing keeps every later walk of the
// value (dump, destruction) shallow.
std::size_t jsonDepth(const char* text, std::size_t n) {
    std::size_t depth = 0, deepest = 0;
    bool inString = false;
    for (std::size_t i = 0; i < n; ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                inString = false;
            }
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

std::uint64_t readU64le(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) {
        v = (v << 8) | p[i];
    }
    return v;
}

// Reads one unsigned integer field of the header; the JSON value must be an integer >= 0.
std::uint64_t toU64(const json& v, const std::string& source, const std::string& field) {
    if (v.is_number_unsigned()) {
        return v.get<std::uint64_t>();
    }
    if (v.is_number_integer()) {
        auto x = v.get<std::int64_t>();
        if (x >= 0) {
            return std::uint64_t(x);
        }
    }
    fail("invalid header value", source, field, "a non-negative integer", brief(v));
}

TensorEntry parseEntry(const std::string& name, const json& e, const std::string& source) {
    if (!e.is_object()) {
        fail("tensor entry is not an object", source, name, "object", e.type_name());
    }
    TensorEntry t;
    t.name = name;
    for (const char* key : {"dtype", "shape", "data_offsets"}) {
        if (!e.contains(key)) {
            fail("tensor entry lacks a key", source, name + "." + key, "present", "missing");
        }
    }
    const json& dt = e["dtype"];
    if (!dt.is_string()) {
        fail("dtype is not a string", source, name + ".dtype", "a dtype name", brief(dt));
    }
    auto parsed = dtypeFromName(dt.get<std::string>());
    if (!parsed) {
        fail("unsupported dtype", source, name + ".dtype",
             "one of F64 F32 F16 BF16 I64 I32 I16 I8 U8 BOOL", dt.get<std::string>());
    }
    t.dtype = *parsed;

    const json& shape = e["shape"];
    if (!shape.is_array()) {
        fail("shape is not an array", source, name + ".shape", "array", brief(shape));
    }
    if (shape.size() > kMaxSafetensorsRank) {
        fail("too many dimensions", source, name + ".shape",
             "at most " + std::to_string(kMaxSafetensorsRank), std::to_string(shape.size()));
    }
    // Element count with overflow checks: each factor and the product of the non-zero ones
    // stay below 2^62. A zero dimension makes the tensor empty but not its other dimensions
    // harmless: LibTorch computes strides from them ([0, 2^40, 2^40] overflows them).
    const std::uint64_t cap = std::uint64_t(1) << 62;
    std::uint64_t nonZero = 1;
    bool empty = false;
    for (const json& d : shape) {
        std::uint64_t dim = toU64(d, source, name + ".shape");
        if (dim > cap || (dim != 0 && nonZero > cap / dim)) {
            fail("shape overflows", source, name + ".shape",
                 "a product of the non-zero dimensions below 2^62", brief(shape));
        }
        t.shape.push_back(std::int64_t(dim));
        if (dim == 0) {
            empty = true;
        } else {
            nonZero *= dim;
        }
    }
    const std::uint64_t count = empty ? 0 : nonZero;
    const json& off = e["data_offsets"];
    if (!off.is_array() || off.size() != 2) {
        fail("data_offsets is not a pair", source, name + ".data_offsets", "[begin, end]",
             brief(off));
    }
    t.begin = toU64(off[0], source, name + ".data_offsets");
    t.end = toU64(off[1], source, name + ".data_offsets");
    if (t.end < t.begin) {
        fail("data_offsets end before begin", source, name + ".data_offsets", "begin <= end",
             brief(off));
    }
    const std::uint64_t elem = dtypeSize(t.dtype);
    if (count > std::numeric_limits<std::uint64_t>::max() / elem ||
        count * elem != t.end - t.begin) {
        fail("byte span does not match shape and dtype", source, name,
             std::to_string(count * elem) + " bytes for " + std::string(dtypeName(t.dtype)) +
                 shapeText(t.shape),
             std::to_string(t.end - t.begin) + " bytes");
    }
    return t;
}

}  // namespace

std::int64_t TensorEntry::numel() const {
    std::int64_t n = 1;
    for (auto d : shape) {
        n *= d;
    }
    return n;
}

SafetensorsHeader parseSafetensors(std::span<const std::uint8_t> bytes, const std::string& source) {
    if (bytes.size() < 8) {
        fail("file too short for a safetensors header", source, "header length", "at least 8 bytes",
             std::to_string(bytes.size()) + " bytes");
    }
    const std::uint64_t n = readU64le(bytes.data());
    if (n > kMaxSafetensorsHeader) {
        fail("header length over the limit", source, "header length",
             "at most " + std::to_string(kMaxSafetensorsHeader), std::to_string(n));
    }
    if (n > bytes.size() - 8) {
        fail("header runs past the end of the file", source, "header length",
             "at most " + std::to_string(bytes.size() - 8), std::to_string(n));
    }
    const char* text = reinterpret_cast<const char*>(bytes.data() + 8);
    if (const std::size_t depth = jsonDepth(text, std::size_t(n)); depth > kMaxSafetensorsDepth) {
        fail("header nests too deeply", source, "header",
             "at most " + std::to_string(kMaxSafetensorsDepth) + " levels of [ and {",
             std::to_string(depth));
    }
    json header;
    try {
        header = json::parse(text, text + n);
    } catch (const json::exception& ex) {
        fail("header is not valid JSON: " + parseErrorText(ex), source, "header");
    }
    if (!header.is_object()) {
        fail("header is not a JSON object", source, "header", "object", header.type_name());
    }

    SafetensorsHeader out;
    out.dataOffset = 8 + n;
    const std::uint64_t dataSize = bytes.size() - out.dataOffset;
    for (auto it = header.begin(); it != header.end(); ++it) {
        if (it.key() == "__metadata__") {
            if (!it.value().is_object()) {
                fail("__metadata__ is not an object", source, "__metadata__", "object",
                     it.value().type_name());
            }
            for (auto m = it.value().begin(); m != it.value().end(); ++m) {
                if (!m.value().is_string()) {
                    fail("metadata value is not a string", source, "__metadata__." + m.key(),
                         "string", m.value().type_name());
                }
                out.metadata[m.key()] = m.value().get<std::string>();
            }
            continue;
        }
        out.tensors.push_back(parseEntry(it.key(), it.value(), source));
    }
    std::sort(out.tensors.begin(), out.tensors.end(),
              [](const TensorEntry& a, const TensorEntry& b) {
                  return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
              });
    // The data area must be tiled exactly: no overlap, no gap, no trailing bytes.
    std::uint64_t cursor = 0;
    for (const TensorEntry& t : out.tensors) {
        if (t.begin < cursor) {
            fail("tensor overlaps the previous one", source, t.name,
                 "begin >= " + std::to_string(cursor), std::to_string(t.begin));
        }
        if (t.begin > cursor) {
            fail("gap in the data area before tensor", source, t.name,
                 "begin = " + std::to_string(cursor), std::to_string(t.begin));
        }
        if (t.end > dataSize) {
            fail("tensor data runs past the end of the file", source, t.name,
                 "end <= " + std::to_string(dataSize), std::to_string(t.end));
        }
        cursor = t.end;
    }
    if (cursor != dataSize) {
        fail("trailing bytes after the last tensor", source, "data",
             std::to_string(cursor) + " data bytes", std::to_string(dataSize));
    }
    return out;
}

SafetensorsFile SafetensorsFile::open(const std::string& path) {
    SafetensorsFile f;
    f.path_ = path;
    f.file_ = MappedFile::open(path);
    f.header_ = parseSafetensors({f.file_->data(), f.file_->size()}, path);
    return f;
}

bool SafetensorsFile::contains(const std::string& name) const {
    return std::any_of(header_.tensors.begin(), header_.tensors.end(),
                       [&](const TensorEntry& t) { return t.name == name; });
}

const TensorEntry& SafetensorsFile::entry(const std::string& name) const {
    for (const TensorEntry& t : header_.tensors) {
        if (t.name == name) {
            return t;
        }
    }
    std::string have;
    for (const TensorEntry& t : header_.tensors) {
        have += (have.empty() ? "" : ", ") + t.name;
    }
    fail("tensor not found", path_, name, "a tensor named '" + name + "'",
         have.empty() ? "no tensors" : "tensors: " + have);
}

std::span<const std::uint8_t> SafetensorsFile::image() const {
    return {file_->data(), file_->size()};
}

std::span<const std::uint8_t> SafetensorsFile::bytes(const TensorEntry& e) const {
    return {file_->data() + header_.dataOffset + e.begin, std::size_t(e.end - e.begin)};
}

std::string SafetensorsFile::meta(const std::string& key, const std::string& fallback) const {
    auto it = header_.metadata.find(key);
    return it == header_.metadata.end() ? fallback : it->second;
}

void SafetensorsWriter::add(const std::string& name, DType dtype, std::vector<std::int64_t> shape,
                            const void* data, std::size_t bytes) {
    if (name.empty() || name == "__metadata__") {
        fail("invalid tensor name", {}, "name", "a non-empty name other than __metadata__", name);
    }
    for (const Item& it : items_) {
        if (it.name == name) {
            fail("duplicate tensor name", {}, name, "unique", "twice");
        }
    }
    std::size_t count = 1;
    for (auto d : shape) {
        if (d < 0) {
            fail("negative dimension", {}, name, ">= 0", shapeText(shape));
        }
        count *= std::size_t(d);
    }
    if (count * dtypeSize(dtype) != bytes) {
        fail("byte size does not match shape", {}, name, std::to_string(count * dtypeSize(dtype)),
             std::to_string(bytes));
    }
    Item item{name, dtype, std::move(shape), {}};
    item.data.resize(bytes);
    if (bytes) {
        std::memcpy(item.data.data(), data, bytes);
    }
    items_.push_back(std::move(item));
}

void SafetensorsWriter::setMetadata(const std::string& key, const std::string& value) {
    metadata_[key] = value;
}

std::vector<std::uint8_t> SafetensorsWriter::serialize() const {
    json header = json::object();
    if (!metadata_.empty()) {
        header["__metadata__"] = metadata_;
    }
    std::uint64_t offset = 0;
    for (const Item& it : items_) {
        header[it.name] = {{"dtype", std::string(dtypeName(it.dtype))},
                           {"shape", it.shape},
                           {"data_offsets", {offset, offset + it.data.size()}}};
        offset += it.data.size();
    }
    std::string text = header.dump();
    while ((8 + text.size()) % 8 != 0) {
        text += ' ';  // align the data area to 8 bytes, as the reference writer does
    }
    std::vector<std::uint8_t> out(8 + text.size() + offset);
    std::uint64_t n = text.size();
    for (int i = 0; i < 8; ++i) {
        out[std::size_t(i)] = std::uint8_t(n >> (8 * i));
    }
    std::memcpy(out.data() + 8, text.data(), text.size());
    std::size_t pos = 8 + text.size();
    for (const Item& it : items_) {
        if (!it.data.empty()) {
            std::memcpy(out.data() + pos, it.data.data(), it.data.size());
        }
        pos += it.data.size();
    }
    return out;
}

void SafetensorsWriter::write(const std::string& path, OutputReplace replace) const {
    auto image = serialize();
    AtomicFile f(path, replace);
    f.write(image.data(), image.size());
    f.commit();
}

}  // namespace once
