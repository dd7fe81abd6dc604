#pragma once
// The element types gpu/'s kernels read (kernels.h's ElementType), shared by the .cu files:
// a launcher turns the ElementType it is given into the C++ type its kernel is instantiated
// for, and the kernel widens each element to F32, the type it accumulates in.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels.h"

namespace once::gpu {

__device__ __forceinline__ float widen(float v) {
    return v;
}
__device__ __forceinline__ float widen(__half v) {
    return __half2float(v);
}
__device__ __forceinline__ float widen(__nv_bfloat16 v) {
    return __bfloat162float(v);
}

/// A type as a value, for a generic lambda: `[&](auto tag) { using T = typename
/// decltype(tag)::type; … }`.
template <typename T>
struct TypeTag {
    using type = T;
};

/// Calls `launch` with the TypeTag of the C++ type behind `type`.
template <typename Launch>
void withElementType(ElementType type, Launch&& launch) {
    switch (type) {
        case ElementType::F32:
            launch(TypeTag<float>{});
            break;
        case ElementType::F16:
            launch(TypeTag<__half>{});
            break;
        case ElementType::BF16:
            launch(TypeTag<__nv_bfloat16>{});
            break;
    }
}

}  // namespace once::gpu
