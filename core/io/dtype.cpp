#include "io/dtype.h"

#include <array>
#include <utility>

namespace once {
namespace {
constexpr std::array<std::pair<DType, std::string_view>, 10> kNames = {{
    {DType::F64, "F64"},
    {DType::F32, "F32"},
    {DType::F16, "F16"},
    {DType::BF16, "BF16"},
    {DType::I64, "I64"},
    {DType::I32, "I32"},
    {DType::I16, "I16"},
    {DType::I8, "I8"},
    {DType::U8, "U8"},
    {DType::Bool, "BOOL"},
}};
}  // namespace

std::size_t dtypeSize(DType t) noexcept {
    switch (t) {
        case DType::F64:
        case DType::I64:
            return 8;
        case DType::F32:
        case DType::I32:
            return 4;
        case DType::F16:
        case DType::BF16:
        case DType::I16:
            return 2;
        case DType::I8:
        case DType::U8:
        case DType::Bool:
            return 1;
    }
    return 0;
}

std::string_view dtypeName(DType t) noexcept {
    for (const auto& [d, n] : kNames) {
        if (d == t) {
            return n;
        }
    }
    return "?";
}

std::optional<DType> dtypeFromName(std::string_view name) noexcept {
    for (const auto& [d, n] : kNames) {
        if (n == name) {
            return d;
        }
    }
    return std::nullopt;
}

bool dtypeIsFloat(DType t) noexcept {
    return t == DType::F64 || t == DType::F32 || t == DType::F16 || t == DType::BF16;
}

}  // namespace once
