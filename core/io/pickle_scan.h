#pragma once
// A validating scan of the pickle inside a PyTorch `torch.save` file (its data.pkl), without
// LibTorch, run before LibTorch's unpickler sees the bytes (io/torch_pickle.cpp) and fuzzed on
// its own (tests/fuzz/fuzz_torch_pickle.cpp).
//
// LibTorch's C++ unpickler trusts its input: it grows its memo table to any index a file names,
// recurses when it destroys deeply nested values, and builds tensors whose sizes and strides run
// past their storage. The scan runs the pickle machine abstractly over the opcodes torch.save
// writes for tensors and dicts of tensors (the role of Python's weights_only unpickler): only
// those opcodes and the globals collections.OrderedDict, torch._utils._rebuild_tensor_v2,
// torch._utils._rebuild_parameter and torch.<Type>Storage are accepted; stack, mark and memo use
// must be consistent (as LibTorch reads them: protocol 2, marks as stack positions); containers may
// not contain themselves and may nest at most kMaxPickleDepth deep; every tensor must lie inside
// its storage. The scan also says which tensors the value holds under which names, so the tensors
// are built from it (io/torch_pickle.cpp) and no unpickler runs: collections.OrderedDict, the type
// of every nn.Module.state_dict(), is a dict like any other (LibTorch's unpickler makes it None).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "io/dtype.h"

namespace once {

/// Largest data.pkl accepted (a state dict of ten thousand tensors takes about 2 MB; LibTorch
/// then holds at most some 32 bytes per pickle byte).
constexpr std::size_t kMaxPickleBytes = 4u << 20;
/// Deepest nesting of values accepted (a tensor counts three levels, a state dict two).
constexpr std::size_t kMaxPickleDepth = 64;
/// Most dimensions of a tensor.
constexpr std::size_t kMaxPickleTensorDims = 64;
/// Most (name, value) pairs visited while naming the tensors: a dict reached twice through the
/// memo is named twice, so aliasing could otherwise multiply the names without bound.
constexpr std::size_t kMaxPickleNamedValues = std::size_t(1) << 20;
/// Most bytes of the names of dicts and tensors built while naming (a real state dict's names
/// take well under 1 MB).
constexpr std::size_t kMaxPickleNameBytes = std::size_t(64) << 20;

/// One storage a pickle refers to: the zip record `data/<key>` read as `numel` values of `dtype`.
struct PickleStorageRef {
    std::string key;
    DType dtype = DType::F32;
    std::uint64_t numel = 0;
};

/// A tensor of the loaded value: `sizes` and `strides` (elements) from `offset` into
/// storages[storage], all checked to lie inside it.
struct PickleTensor {
    std::string name;  ///< dict keys joined by "." ("quantizer.embedding"); "tensor" for a bare one
    std::size_t storage = 0;
    std::int64_t offset = 0;
    std::vector<std::int64_t> sizes, strides;
};

struct PickleScan {
    std::vector<PickleStorageRef> storages;  ///< one per persistent id, in order
    /// The tensors of the value (a tensor, or dicts of tensors nested), by name; a later entry of
    /// the same name replaces an earlier one, as a dict's assignment does. Values other than
    /// tensors and dicts (numbers, lists, a state dict's _metadata) hold no named tensors.
    std::vector<PickleTensor> named;
    std::size_t tensors = 0;
    std::size_t depth = 0;  ///< nesting depth of the loaded value
};

/// Scans a whole pickle. Throws OnceError naming `source`, the opcode offset and what was
/// expected and found on anything outside the accepted subset.
PickleScan scanTorchPickle(std::span<const std::uint8_t> pickle, const std::string& source);

}  // namespace once
