#pragma once
// The work of one thread of decoder_kernels.cu, as functions the host can call too: each kernel
// calls them for its thread's index, and tests/gpu/test_decoder_math.cpp calls them for every
// index on the CPU against the ATen reference (models/decoder_kernels.h). So the kernels'
// indexing, strides and roundings are checked on a machine without a GPU; only the launch
// configuration and the RMSNorm's block sum are not (the GPU's own check covers those:
// tests/support/decoder_kernel_check.h).
//
// Every intermediate the ATen operations store in the model's type is rounded to it here
// (roundTo), and each product and sum is rounded once: the _rn intrinsics on the device, where
// nvcc would otherwise contract a product and a sum into one fused multiply-add that rounds once
// where ATen rounds twice; plain operations on the host, compiled with -ffp-contract=off.
#include <cmath>
#include <cstdint>

#include "element_types.cuh"
#include "kernels.h"

namespace once::gpu::math {

ONCE_HOST_DEVICE float mul(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}
ONCE_HOST_DEVICE float add(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}
ONCE_HOST_DEVICE float sub(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}
ONCE_HOST_DEVICE float div(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fdiv_rn(a, b);
#else
    return a / b;
#endif
}
ONCE_HOST_DEVICE float reciprocalSqrt(float v) {
#if defined(__CUDA_ARCH__)
    return rsqrtf(v);  // ATen's rsqrt on CUDA
#else
    return 1.f / std::sqrt(v);
#endif
}

/// Qwen2RMSNorm's scale of a row from its sum of squares (F32): rsqrt(Σx²/n + eps).
ONCE_HOST_DEVICE float rmsScale(float sumOfSquares, std::int64_t n, float eps) {
    return reciprocalSqrt(add(div(sumOfSquares, float(n)), eps));
}

/// One normalised element: w · cast(x · scale), as ATen computes w * (xf * s).to(type).
template <typename T>
ONCE_HOST_DEVICE T rmsElement(T x, T w, float scale) {
    return narrowTo<T>(mul(widen(w), roundTo<T>(mul(widen(x), scale))));
}

/// Thread t of the rotary store, t = (row · allHeads + head) · (headDim/2) + j for allHeads =
/// heads + 2 · kvHeads: the pair j, j + headDim/2 of one head of q (rotated into the queries), k
/// (rotated into the key store at its position) or v (copied into the value store).
template <typename T>
ONCE_HOST_DEVICE void rotaryStoreElement(const RotaryStoreParams& p, std::int64_t t) {
    const int half = p.headDim / 2, allHeads = p.heads + 2 * p.kvHeads;
    if (t < 0 || t >= p.rows * allHeads * half) {
        return;
    }
    const int j = int(t % half), head = int((t / half) % allHeads);
    const std::int64_t r = t / (std::int64_t(half) * allHeads);
    const std::int64_t position = (p.position ? *p.position : p.firstPosition) + r;
    const T* src =
        static_cast<const T*>(p.qkv) + r * p.qkvRowStride + std::int64_t(head) * p.headDim;
    T first = src[j], second = src[j + half];
    const bool value = head >= p.heads + p.kvHeads;
    if (!value) {
        // transformers: cos/sin of position × inverse frequency in F32, cast to the type; then
        // x₁c − x₂s and x₂c + x₁s, each product and the sum rounded to the type.
        const float angle = mul(float(position), p.invFreq[j]);
        const float c = roundTo<T>(std::cos(angle)), s = roundTo<T>(std::sin(angle));
        const float x1 = widen(first), x2 = widen(second);
        first = narrowTo<T>(sub(roundTo<T>(mul(x1, c)), roundTo<T>(mul(x2, s))));
        second = narrowTo<T>(add(roundTo<T>(mul(x2, c)), roundTo<T>(mul(x1, s))));
    }
    T* dst;
    if (head < p.heads) {
        dst = static_cast<T*>(p.queries) + (r * p.heads + head) * p.headDim;
    } else {
        if (position < 0 || position >= p.capacity) {
            return;  // the caller checks the length; never write outside the stores
        }
        const int kvHead = value ? head - p.heads - p.kvHeads : head - p.heads;
        dst = static_cast<T*>(value ? p.valueStore : p.keyStore) + kvHead * p.storeHeadStride +
              position * p.storeRowStride;
    }
    dst[j] = first;
    dst[j + half] = second;
}

/// Element t = row · width + c of silu(gate) ⊙ up: ATen's SiLU x / (1 + exp(−x)) in F32, stored
/// in the type, then the product, rounded.
template <typename T>
ONCE_HOST_DEVICE void swigluElement(const T* gateUp, std::int64_t rowStride, std::int64_t width,
                                    T* out, std::int64_t t) {
    const std::int64_t r = t / width, c = t % width;
    const float g = widen(gateUp[r * rowStride + c]), u = widen(gateUp[r * rowStride + width + c]);
    const float silu = roundTo<T>(div(g, add(1.f, std::exp(-g))));
    out[t] = narrowTo<T>(mul(silu, u));
}

}  // namespace once::gpu::math
