// The fused parts of a decoder layer (models/decoder_kernels.h): RMSNorm, rotary embedding with
// the key/value store, SiLU-gated product, each replacing 2–14 ATen operations with one launch.
// What one thread computes is in decoder_math.cuh (host-callable, tested on the CPU); this file
// only maps threads to it and sums the RMSNorm's squares over a block.
#include "cuda_check.h"
#include "decoder_math.cuh"
#include "element_types.cuh"
#include "kernels.h"

namespace once::gpu {
namespace {

constexpr int kNormThreads = 256;
constexpr int kElementThreads = 256;

// Sum of `v` over the block (blockDim.x a multiple of 32, at most 1024), in every thread.
__device__ float blockSum(float v) {
    __shared__ float warpSums[32];
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) {
        warpSums[warp] = v;
    }
    __syncthreads();
    v = lane < int(blockDim.x >> 5) ? warpSums[lane] : 0.f;
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

template <typename T>
__global__ void rmsNormKernel(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ out,
                              std::int64_t n, float eps) {
    const T* row = x + std::int64_t(blockIdx.x) * n;
    T* dst = out + std::int64_t(blockIdx.x) * n;
    float squares = 0.f;
    for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        const float v = widen(row[i]);
        squares += math::mul(v, v);
    }
    const float scale = math::rmsScale(blockSum(squares), n, eps);
    for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        dst[i] = math::rmsElement(row[i], w[i], scale);
    }
}

template <typename T>
__global__ void rotaryStoreKernel(RotaryStoreParams p) {
    math::rotaryStoreElement<T>(p, std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x);
}

template <typename T>
__global__ void swigluKernel(const T* __restrict__ gateUp, std::int64_t rowStride,
                             std::int64_t rows, std::int64_t width, T* __restrict__ out) {
    const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t < rows * width) {
        math::swigluElement(gateUp, rowStride, width, out, t);
    }
}

unsigned blocksFor(std::int64_t threads, int perBlock) {
    return unsigned((threads + perBlock - 1) / perBlock);
}

}  // namespace

void launchRmsNorm(const void* x, const void* w, void* out, ElementType type, std::int64_t rows,
                   std::int64_t n, float eps, cudaStream_t stream) {
    if (rows <= 0 || n <= 0) {
        return;
    }
    withElementType(type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        rmsNormKernel<T><<<unsigned(rows), kNormThreads, 0, stream>>>(
            static_cast<const T*>(x), static_cast<const T*>(w), static_cast<T*>(out), n, eps);
        ONCE_CUDA_CHECK_LAUNCH("rmsNormKernel");
    });
}

void launchRotaryStore(const RotaryStoreParams& p, ElementType type, cudaStream_t stream) {
    const std::int64_t threads = p.rows * (p.heads + 2 * p.kvHeads) * (p.headDim / 2);
    if (threads <= 0) {
        return;
    }
    withElementType(type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        rotaryStoreKernel<T>
            <<<blocksFor(threads, kElementThreads), kElementThreads, 0, stream>>>(p);
        ONCE_CUDA_CHECK_LAUNCH("rotaryStoreKernel");
    });
}

void launchSwiglu(const void* gateUp, std::int64_t rowStride, std::int64_t rows, std::int64_t i,
                  void* out, ElementType type, cudaStream_t stream) {
    if (rows <= 0 || i <= 0) {
        return;
    }
    withElementType(type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        swigluKernel<T><<<blocksFor(rows * i, kElementThreads), kElementThreads, 0, stream>>>(
            static_cast<const T*>(gateUp), rowStride, rows, i, static_cast<T*>(out));
        ONCE_CUDA_CHECK_LAUNCH("swigluKernel");
    });
}

}  // namespace once::gpu
