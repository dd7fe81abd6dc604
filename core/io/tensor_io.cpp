#include "io/tensor_io.h"

#include <ATen/ATen.h>

#include "io/finite_values.h"
#include "io/mapped_file.h"
#include "util/error.h"

namespace once {

c10::ScalarType toScalarType(DType t) {
    switch (t) {
        case DType::F64:
            return at::kDouble;
        case DType::F32:
            return at::kFloat;
        case DType::F16:
            return at::kHalf;
        case DType::BF16:
            return at::kBFloat16;
        case DType::I64:
            return at::kLong;
        case DType::I32:
            return at::kInt;
        case DType::I16:
            return at::kShort;
        case DType::I8:
            return at::kChar;
        case DType::U8:
            return at::kByte;
        case DType::Bool:
            return at::kBool;
    }
    return at::kFloat;
}

DType fromScalarType(c10::ScalarType t) {
    switch (t) {
        case at::kDouble:
            return DType::F64;
        case at::kFloat:
            return DType::F32;
        case at::kHalf:
            return DType::F16;
        case at::kBFloat16:
            return DType::BF16;
        case at::kLong:
            return DType::I64;
        case at::kInt:
            return DType::I32;
        case at::kShort:
            return DType::I16;
        case at::kChar:
            return DType::I8;
        case at::kByte:
            return DType::U8;
        case at::kBool:
            return DType::Bool;
        default:
            break;
    }
    fail("tensor type cannot be stored", {}, "dtype", "a safetensors dtype",
         std::string(c10::toString(t)));
}

at::Tensor loadTensor(const SafetensorsFile& file, const std::string& name) {
    const TensorEntry& e = file.entry(name);
    auto bytes = file.bytes(e);
    auto type = toScalarType(e.dtype);
    auto options = at::TensorOptions().dtype(type);
    const std::size_t align = dtypeSize(e.dtype);
    void* ptr = const_cast<std::uint8_t*>(bytes.data());
    if (bytes.empty()) {
        return at::empty(e.shape, options);
    }
    if (reinterpret_cast<std::uintptr_t>(ptr) % align == 0) {
        auto keep = file.mapping();
        return at::from_blob(
            ptr, e.shape, [keep](void*) {}, options);
    }
    auto t = at::empty(e.shape, options);
    std::memcpy(t.data_ptr(), ptr, bytes.size());
    return t;
}

void addTensor(SafetensorsWriter& writer, const std::string& name, const at::Tensor& t) {
    at::Tensor c = t.to(at::kCPU).contiguous();
    std::vector<std::int64_t> shape(c.sizes().begin(), c.sizes().end());
    writer.add(name, fromScalarType(c.scalar_type()), std::move(shape), c.data_ptr(),
               std::size_t(c.nbytes()));
}

void addFiniteTensor(SafetensorsWriter& writer, const std::string& name, const at::Tensor& t,
                     const std::string& file) {
    at::Tensor c = t.to(at::kCPU).contiguous();
    const DType dtype = fromScalarType(c.scalar_type());
    const auto* bytes = static_cast<const std::uint8_t*>(c.data_ptr());
    if (const auto bad = firstNonFinite(dtype, {bytes, std::size_t(c.nbytes())})) {
        fail("the result holds NaN or Inf (garbage in: a model, setting or input out of range); "
             "nothing was written",
             file, name, "finite values", "NaN or Inf at element " + std::to_string(*bad));
    }
    addTensor(writer, name, c);
}

std::string shapeString(at::IntArrayRef shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(shape[i]);
    }
    return s + "]";
}

}  // namespace once
