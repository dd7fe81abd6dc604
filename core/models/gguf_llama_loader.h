#pragma once
// Llama-architecture GGUF files as a Qwen2Model: llama.cpp's metadata keys map onto the decoder
// configuration, its tensor names onto the decoder's weights, and the rotary row permutation
// llama.cpp's converter applies to Q and K is undone (as transformers' GGUF loader does).
#include <ATen/core/Tensor.h>

#include <cstdint>

#include "models/qwen2/qwen2_config.h"

namespace once {

class GgufFile;

/// Largest model size (hidden size, layers, heads, head size, vocabulary …) read from a GGUF
/// file's metadata: far above any real model, low enough that products of sizes cannot overflow.
constexpr std::int64_t kMaxGgufModelSize = std::int64_t(1) << 22;

/// The decoder configuration of a GGUF file (`general.architecture` = llama). Throws OnceError
/// naming the file and key for another architecture, a missing size or unsupported rotary
/// scaling.
Qwen2Config qwen2ConfigFromGguf(const GgufFile& file);

/// Undoes llama.cpp's `permute` of a Q or K projection ([heads * headDim, in]): its converter
/// interleaves the two rotary halves of each head for ggml's rope; transformers rotates halves.
at::Tensor unpermuteRotaryRows(const at::Tensor& weight, std::int64_t heads);

}  // namespace once
