#pragma once
// The checks of a codebook file that need no LibTorch: which tensor is the codebook, its shape
// and type, the recorded metadata and finite values, from the safetensors header and bytes
// before any tensor is made. Codebook::load runs them; tests/fuzz/fuzz_codebook.cpp fuzzes them.
#include <cstdint>
#include <map>
#include <span>
#include <string>

#include "io/safetensors.h"

namespace once {

/// Picks the codebook among tensors given as name -> rank (-1 for a non-floating tensor): the
/// requested key (must exist), else "codebook", else the only 2-D one. Throws OnceError naming
/// `path` and what is there.
std::string chooseCodebookKey(const std::map<std::string, std::int64_t>& ranks,
                              const std::string& requested, const std::string& path);

/// Checks a safetensors codebook file: format metadata (if present) once-codebook/1; the chosen
/// tensor 2-D floating with K, D >= 1; `dim` and `size` metadata (if present) decimal and equal
/// to D and K; no NaN or Inf. Returns the chosen tensor. `image` is the whole file.
const TensorEntry& checkCodebookFile(const SafetensorsHeader& header,
                                     std::span<const std::uint8_t> image, const std::string& key,
                                     const std::string& path);

}  // namespace once
