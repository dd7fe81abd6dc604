#pragma once
// PyTorch `torch.save` files (zip format): the tensors of a state dict, an import format for
// codebooks trained in Python.
//
// No unpickler runs (LibTorch's C++ one trusts its input and turns collections.OrderedDict, the
// type of every nn.Module.state_dict(), into None):
//   1. the file and the sum of its zip records are at most kMaxTorchFileBytes;
//   2. data.pkl is scanned (io/pickle_scan.h): only the opcodes and globals of a tensor or dict
//      of tensors (dict or OrderedDict), consistent stack/memo use, no value containing itself,
//      nesting at most kMaxPickleDepth, every tensor inside its storage; the scan names the
//      tensors the value holds;
//   3. every storage record holds at least the bytes its persistent id claims;
//   4. the tensors are built from the scan over those records and checked again against their
//      storage (sizes, strides and offset non-negative, strided extent inside its bytes).
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

/// Loads a torch.save()'d tensor or dict of tensors (a state_dict()'s OrderedDict included;
/// nested dicts are flattened with dots, integer keys written in decimal).
/// Throws OnceError naming the file when it is not a readable torch file.
std::map<std::string, at::Tensor> readTorchStateDict(const std::string& path);

/// The same from the bytes of a whole file held in memory; `source` names it in errors.
std::map<std::string, at::Tensor> readTorchStateDict(std::span<const std::uint8_t> bytes,
                                                     const std::string& source);

}  // namespace once
