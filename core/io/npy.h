#pragma once
// NumPy .npy reader (format versions 1–3), an import format for codebooks.
#include <ATen/core/Tensor.h>

#include <string>

namespace once {

/// Reads a little-endian, C-order .npy array of float16/32/64 or int32/64/uint8 into a tensor.
/// Throws OnceError naming the file and the header field on anything else.
at::Tensor readNpy(const std::string& path);

}  // namespace once
