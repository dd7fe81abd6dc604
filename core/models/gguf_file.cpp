#include "models/gguf_file.h"

#include <ATen/ATen.h>

#include <cstring>
#include <limits>

#include "io/mapped_file.h"
#include "models/gguf_dequant.h"
#include "util/error.h"

namespace once {

GgufFile GgufFile::open(const std::string& path) {
    GgufFile g;
    g.path_ = path;
    g.map_ = MappedFile::open(path);
    g.h_ = parseGgufHeader({g.map_->data(), g.map_->size()}, path);
    return g;
}

const GgufValue* GgufFile::find(const std::string& key) const {
    auto it = h_.kv.find(key);
    return it == h_.kv.end() ? nullptr : &it->second;
}

namespace {

std::int64_t toInt(const GgufValue& v, const std::string& file, const std::string& key) {
    if (!v.isInteger()) {
        fail("a GGUF metadata value has the wrong type", file, key, "an integer",
             ggufValueTypeName(v.type));
    }
    const bool isUnsigned = ggufTypeIsUnsigned(v.type);
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
             ggufValueTypeName(v->type));
    }
    return v->b;
}

std::string GgufFile::getString(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v || v->type != GgufValueType::String) {
        fail(v ? "a GGUF metadata value has the wrong type" : "a GGUF metadata key is missing",
             path_, key, "string", v ? ggufValueTypeName(v->type) : "missing");
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
             : v->type == GgufValueType::Array ? "array of " + ggufValueTypeName(v->elementType)
                                               : ggufValueTypeName(v->type));
    }
    return v->strings;
}

std::vector<std::int64_t> GgufFile::getIntArray(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v || v->type != GgufValueType::Array) {
        fail(v ? "a GGUF metadata value has the wrong type" : "a GGUF metadata key is missing",
             path_, key, "array of integers", v ? ggufValueTypeName(v->type) : "missing");
    }
    if (ggufTypeIsSigned(v->elementType)) {
        return v->ints;
    }
    if (!ggufTypeIsUnsigned(v->elementType)) {
        fail("a GGUF metadata value has the wrong type", path_, key, "array of integers",
             "array of " + ggufValueTypeName(v->elementType));
    }
    std::vector<std::int64_t> out;
    out.reserve(v->uints.size());
    for (std::uint64_t u : v->uints) {
        if (u > std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
            fail("a GGUF integer is too large", path_, key, "at most 2^63-1", std::to_string(u));
        }
        out.push_back(std::int64_t(u));
    }
    return out;
}

const GgufTensorInfo& GgufFile::tensorInfo(const std::string& name) const {
    auto it = h_.tensorIndex.find(name);
    if (it == h_.tensorIndex.end()) {
        fail("a tensor is missing from the GGUF file", path_, name, "present", "missing");
    }
    return h_.tensors[it->second];
}

const std::uint8_t* GgufFile::tensorData(const GgufTensorInfo& info) const {
    return map_->data() + h_.dataOffset + info.offset;
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
