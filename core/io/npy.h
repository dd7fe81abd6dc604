#pragma once
// NumPy .npy reader (format versions 1–3), an import format for codebooks.
#include <ATen/core/Tensor.h>

#include <string>

namespace once {

/// Reads a little-endian, C-order .npy array (float16/32/64, int8/16/32/64, uint8, bool; see
/// io/npy_header.h for the checks) into a tensor.
/// Throws OnceError naming the file and the header field on anything else.
at::Tensor readNpy(const std::string& path);

}  // namespace once
