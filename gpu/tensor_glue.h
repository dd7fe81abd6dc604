#pragma once
// What the .cpp glue of gpu/ needs to hand a tensor to a launcher of kernels.h: its element type
// and the stream of its device. Host compiler only (LibTorch headers).
#include <ATen/core/Tensor.h>
#include <c10/cuda/CUDAStream.h>

#include <string>

#include "kernels.h"
#include "util/error.h"

namespace once::gpu {

/// True for the types the kernels read (F32, F16, BF16).
inline bool hasKernelType(const at::Tensor& t) {
    const at::ScalarType s = t.scalar_type();
    return s == at::kFloat || s == at::kHalf || s == at::kBFloat16;
}

/// The kernels' name for t's type; throws OnceError for another type.
inline ElementType elementType(const at::Tensor& t) {
    switch (t.scalar_type()) {
        case at::kFloat:
            return ElementType::F32;
        case at::kHalf:
            return ElementType::F16;
        case at::kBFloat16:
            return ElementType::BF16;
        default:
            fail("unsupported tensor type for a CUDA kernel", {}, "dtype", "F32, F16 or BF16",
                 std::string(c10::toString(t.scalar_type())));
    }
}

/// The current stream of t's device: the one ATen's own operations on it are queued on.
inline cudaStream_t streamOf(const at::Tensor& t) {
    return c10::cuda::getCurrentCUDAStream(t.device().index()).stream();
}

}  // namespace once::gpu
