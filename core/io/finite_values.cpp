#include "io/finite_values.h"

#include <cstring>

namespace once {
namespace {

// A float is NaN or Inf exactly when all its exponent bits are set.
template <typename Bits>
std::optional<std::size_t> scan(std::span<const std::uint8_t> bytes, Bits exponent) {
    const std::size_t n = bytes.size() / sizeof(Bits);
    for (std::size_t i = 0; i < n; ++i) {
        Bits b;
        std::memcpy(&b, bytes.data() + i * sizeof(Bits), sizeof(Bits));
        if ((b & exponent) == exponent) {
            return i;
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::size_t> firstNonFinite(DType dtype, std::span<const std::uint8_t> bytes) {
    switch (dtype) {
        case DType::F64:
            return scan<std::uint64_t>(bytes, 0x7FF0000000000000ull);
        case DType::F32:
            return scan<std::uint32_t>(bytes, 0x7F800000u);
        case DType::F16:
            return scan<std::uint16_t>(bytes, std::uint16_t(0x7C00));
        case DType::BF16:
            return scan<std::uint16_t>(bytes, std::uint16_t(0x7F80));
        default:
            return std::nullopt;
    }
}

}  // namespace once
