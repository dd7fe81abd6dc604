#pragma once
// Safetensors files for tests that feed the loaders hand-made (often broken) inputs: named
// tensors and metadata strings written as they are, with no check of what they mean.
#include <ATen/core/Tensor.h>

#include <map>
#include <string>

namespace once::test {

/// Writes `tensors` and the `meta` strings to `path` (replacing it); returns `path`.
std::string writeSafetensors(const std::string& path,
                             const std::map<std::string, at::Tensor>& tensors,
                             const std::map<std::string, std::string>& meta = {});

}  // namespace once::test
