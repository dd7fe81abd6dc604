#pragma once
// Validation of a feature file (DESIGN §2) from its safetensors header and bytes, before any
// tensor is made, and without LibTorch so that it can be fuzzed on its own
// (tests/fuzz/fuzz_feature_file.cpp). loadFeatureFile runs it first.
#include <cstdint>
#include <span>
#include <string>

#include "io/safetensors.h"

namespace once {

/// The `format` metadata of a feature file.
constexpr const char* kFeatureFileFormat = "once-features/1";

/// "27x27" -> 729; -1 when the text is not HxW with decimal sides from 1 to 2^20.
std::int64_t featureGridCells(const std::string& grid);

/// Checks: format metadata (if present) once-features/1; features [T, P, D] floating;
/// frame_times [T] floating; grid metadata (if present) HxW = P; layout_tokens (if present)
/// [n, D] floating; attention (if present) [T, P] floating; no NaN or Inf in any of them.
/// `image` is the whole file `header` was parsed from. Throws OnceError naming `path`, the
/// field (tensor, metadata key or tensor element), what was expected and what was found.
void checkFeatureFile(const SafetensorsHeader& header, std::span<const std::uint8_t> image,
                      const std::string& path);

}  // namespace once
