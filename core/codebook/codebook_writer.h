#pragma once
// Writing a codebook file with tensors beside `codebook`: the corpus usage and exemplars that
// Stage B records for the codebook explorer (codebook/codebook_exemplars.h). Codebook::save is
// this function without extra tensors.
#include <ATen/core/Tensor.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "util/atomic_file.h"

namespace once {

class Codebook;

/// Writes `codebook` as Codebook::save does (dtype F32, BF16 or F16; format, backbone, dim,
/// size and tensor_sha256 metadata over `metadata`), plus `extraTensors` (CPU tensors, names
/// other than "codebook" and each other) after it. Atomic.
void saveCodebookFile(const Codebook& codebook, const std::string& path, const std::string& dtype,
                      const std::map<std::string, std::string>& metadata,
                      const std::vector<std::pair<std::string, at::Tensor>>& extraTensors,
                      OutputReplace replace = OutputReplace::regularFile);

}  // namespace once
