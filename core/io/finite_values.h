#pragma once
// Finds NaN or Inf in the raw little-endian bytes of a floating tensor (F64, F32, F16, BF16)
// by their exponent bits, without LibTorch and without a temporary as large as the tensor, so
// a feature file of gigabytes is checked at memory speed.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "io/dtype.h"

namespace once {

/// Index of the first value that is NaN or ±Inf, or nullopt when all are finite (always for
/// integer and bool types). `bytes` holds whole values of `dtype`.
std::optional<std::size_t> firstNonFinite(DType dtype, std::span<const std::uint8_t> bytes);

}  // namespace once
