#pragma once
// Element types of tensor files (safetensors names), independent of LibTorch.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace once {

enum class DType { F64, F32, F16, BF16, I64, I32, I16, I8, U8, Bool };

std::size_t dtypeSize(DType t) noexcept;
std::string_view dtypeName(DType t) noexcept;  ///< "F32", "BF16", …
std::optional<DType> dtypeFromName(std::string_view name) noexcept;
bool dtypeIsFloat(DType t) noexcept;

}  // namespace once
