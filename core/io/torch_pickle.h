#pragma once
// PyTorch `torch.save` files (zip format): the 2-D tensors of a state dict, an import format
// for codebooks trained in Python.
#include <ATen/core/Tensor.h>

#include <map>
#include <string>

namespace once {

/// Loads a torch.save()'d tensor or dict of tensors (nested dicts are flattened with dots).
/// Throws OnceError naming the file when it is not a readable torch file.
std::map<std::string, at::Tensor> readTorchStateDict(const std::string& path);

}  // namespace once
