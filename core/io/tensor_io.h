#pragma once
// Bridge between tensor files and LibTorch tensors.
#include <ATen/core/Tensor.h>

#include <string>

#include "io/dtype.h"
#include "io/safetensors.h"

namespace once {

c10::ScalarType toScalarType(DType t);
DType fromScalarType(c10::ScalarType t);  ///< throws OnceError for types files cannot hold

/// The tensor `name` of `file` as an at::Tensor on the CPU. Zero-copy (a view of the mapping,
/// which it keeps alive) when the bytes are suitably aligned, else a copy. Read-only in spirit:
/// callers must not write into it.
at::Tensor loadTensor(const SafetensorsFile& file, const std::string& name);

/// Adds a CPU tensor (made contiguous) to a writer.
void addTensor(SafetensorsWriter& writer, const std::string& name, const at::Tensor& t);
/// addTensor for the tool's own outputs (features, codebooks, caches, sketches, fit states),
/// which its readers refuse when they hold NaN or Inf: such a tensor is refused here, before
/// anything is written (OnceError naming `file`, the tensor and the first bad element).
void addFiniteTensor(SafetensorsWriter& writer, const std::string& name, const at::Tensor& t,
                     const std::string& file);

/// "[2, 3, 4]"
std::string shapeString(at::IntArrayRef shape);

}  // namespace once
