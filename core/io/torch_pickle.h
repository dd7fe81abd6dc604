#pragma once
// PyTorch `torch.save` files (zip format): the tensors of a state dict, an import format for
// codebooks trained in Python.
//
// LibTorch's C++ unpickler trusts its input, so a file is checked before and after it:
//   1. the file and the sum of its zip records are at most kMaxTorchFileBytes;
//   2. data.pkl is scanned (io/pickle_scan.h): only the opcodes and globals of a tensor or dict
//      of tensors, consistent stack/memo use, no value containing itself, nesting at most
//      kMaxPickleDepth, every tensor inside its storage;
//   3. every storage record holds at least the bytes its persistent id claims;
//   4. after loading, every tensor is checked again against its storage (sizes, strides and
//      offset non-negative, strided extent inside the storage's bytes).
// LibTorch's errors (with their backtraces) are reduced to one line naming the file.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <map>
#include <span>
#include <string>

namespace once {

/// Largest .pt file read, and largest sum of the sizes of its zip records (a compressed record
/// could otherwise inflate far beyond the file).
constexpr std::uint64_t kMaxTorchFileBytes = 4ull << 30;

/// Loads a torch.save()'d tensor or dict of tensors (nested dicts are flattened with dots).
/// Throws OnceError naming the file when it is not a readable torch file.
std::map<std::string, at::Tensor> readTorchStateDict(const std::string& path);

/// The same from the bytes of a whole file held in memory; `source` names it in errors.
std::map<std::string, at::Tensor> readTorchStateDict(std::span<const std::uint8_t> bytes,
                                                     const std::string& source);

}  // namespace once
