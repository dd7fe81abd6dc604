#pragma once
// The element types gpu/'s kernels read (kernels.h's ElementType), shared by the .cu files:
// a launcher turns the ElementType it is given into the C++ type its kernel is instantiated
// for, and the kernel widens each element to F32, the type it accumulates in. The conversions
// are host functions too (CUDA's headers implement them for the host compiler), so the
// arithmetic of a kernel's thread can run on the CPU in a test (decoder_math.cuh).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels.h"

#if defined(__CUDACC__)
#define ONCE_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define ONCE_HOST_DEVICE inline
#endif

namespace once::gpu {

ONCE_HOST_DEVICE float widen(float v) {
    return v;
}
ONCE_HOST_DEVICE float widen(__half v) {
    return __half2float(v);
}
ONCE_HOST_DEVICE float widen(__nv_bfloat16 v) {
    return __bfloat162float(v);
}

/// F32 to the element type, rounded to nearest even (as ATen's casts): the one rounding a fused
/// kernel applies wherever the ATen operations it replaces store an intermediate in that type.
template <typename T>
ONCE_HOST_DEVICE T narrowTo(float v);
template <>
ONCE_HOST_DEVICE float narrowTo<float>(float v) {
    return v;
}
template <>
ONCE_HOST_DEVICE __half narrowTo<__half>(float v) {
    return __float2half_rn(v);
}
template <>
ONCE_HOST_DEVICE __nv_bfloat16 narrowTo<__nv_bfloat16>(float v) {
    return __float2bfloat16_rn(v);
}
/// v rounded to T and read back as F32.
template <typename T>
ONCE_HOST_DEVICE float roundTo(float v) {
    return widen(narrowTo<T>(v));
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
