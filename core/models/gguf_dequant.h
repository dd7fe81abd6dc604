#pragma once
// De-quantisation of ggml tensor blocks into F32 (types and block sizes: gguf_types.h),
// following ggml's block layouts (ggml-quants.c dequantize_row_*) value for value. Checked
// against the `gguf` package's gguf.quants.dequantize (tests/models).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

#include "models/gguf_types.h"

namespace once {

/// De-quantises `numel` values stored as `type` at `data` (numel a multiple of the block size,
/// data holding numel / blockElements * blockBytes bytes) into a flat F32 CPU tensor.
/// Throws OnceError naming `file` and `tensor` for a type without de-quantisation.
at::Tensor dequantizeGgml(std::uint32_t type, const std::uint8_t* data, std::int64_t numel,
                          const std::string& file = {}, const std::string& tensor = {});

}  // namespace once
