// Step 4 (and the per-codeword sums of step 1) on the GPU without an atomics hot spot. Tokens
// come sorted by group (a stable radix sort, by the caller), so each group is one run of
// consecutive sorted rows. A block takes a chunk of kChunk sorted rows and a slice of columns,
// one column per thread, sums each run in a register and adds it to the group's row once. A
// group of P tokens thus receives about P / kChunk + 1 adds per column, however popular it is,
// where a scatter-add (index_add_) would serialise P atomic adds on the same addresses.
#include "cuda_check.h"
#include "element_types.cuh"
#include "kernels.h"

namespace once::gpu {
namespace {

constexpr int kChunk = 64;     // sorted rows per block
constexpr int kColumns = 128;  // columns per block, one per thread

template <typename T>
__global__ void segmentedSumKernel(const T* __restrict__ x, std::int64_t d,
                                   const std::int64_t* __restrict__ order,
                                   const std::int64_t* __restrict__ group, std::int64_t n,
                                   float* __restrict__ sums) {
    __shared__ std::int64_t rowOf[kChunk];
    __shared__ std::int64_t groupOf[kChunk];
    const std::int64_t r0 = std::int64_t(blockIdx.x) * kChunk;
    const int count = int(min(std::int64_t(kChunk), n - r0));
    for (int i = threadIdx.x; i < count; i += blockDim.x) {
        rowOf[i] = order[r0 + i];
        groupOf[i] = group[r0 + i];
    }
    __syncthreads();
    const std::int64_t c = std::int64_t(blockIdx.y) * kColumns + threadIdx.x;
    if (c >= d) {
        return;
    }
    float acc = 0.f;
    std::int64_t current = groupOf[0];
    for (int i = 0; i < count; ++i) {
        const std::int64_t g = groupOf[i];
        if (g != current) {
            if (current >= 0) {
                atomicAdd(sums + current * d + c, acc);
            }
            acc = 0.f;
            current = g;
        }
        if (g >= 0) {
            acc += widen(x[rowOf[i] * d + c]);
        }
    }
    if (current >= 0) {
        atomicAdd(sums + current * d + c, acc);
    }
}

template <typename T>
void launchTyped(const void* x, std::int64_t d, const std::int64_t* order,
                 const std::int64_t* group, std::int64_t n, float* sums, cudaStream_t stream) {
    const dim3 grid(unsigned((n + kChunk - 1) / kChunk), unsigned((d + kColumns - 1) / kColumns));
    segmentedSumKernel<T>
        <<<grid, kColumns, 0, stream>>>(static_cast<const T*>(x), d, order, group, n, sums);
    ONCE_CUDA_CHECK_LAUNCH("segmentedSumKernel");
}

}  // namespace

void launchSegmentedSum(const void* x, ElementType type, std::int64_t d, const std::int64_t* order,
                        const std::int64_t* groupOfSorted, std::int64_t n, float* sums,
                        cudaStream_t stream) {
    if (n <= 0 || d <= 0) {
        return;
    }
    withElementType(type, [&](auto tag) {
        launchTyped<typename decltype(tag)::type>(x, d, order, groupOfSorted, n, sums, stream);
    });
}

}  // namespace once::gpu
