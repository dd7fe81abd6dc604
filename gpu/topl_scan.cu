// Step 1's scan on the GPU: the L best codewords of each row of a tile of similarity scores that
// cuBLAS has just written (a 2048 × 8192 BF16 tile is 32 MiB: it is read back from L2, not HBM),
// fused with the counts n_k. One warp per row; each lane keeps a sorted top-L of the columns it
// reads (lane, lane + 32, …: increasing, so an equal score never displaces an earlier, lower
// column) in registers, then L rounds of a warp-wide argmax merge the 32 lists. Ties go to the
// lower codeword index, as in the CPU reference (compress/top_l_scan.h).
#include <climits>
#include <cmath>

#include "cuda_check.h"
#include "element_types.cuh"
#include "kernels.h"

namespace once::gpu {
namespace {

// a ranks before b: higher score, then lower id.
__device__ __forceinline__ bool before(float a, int ia, float b, int ib) {
    return a > b || (a == b && ia < ib);
}

template <typename T, int kMaxL>
__global__ void topLScanKernel(const T* __restrict__ scores, std::int64_t rows, std::int64_t k,
                               int l, std::int32_t* __restrict__ ids, float* __restrict__ outScores,
                               unsigned long long* __restrict__ counts) {
    const std::int64_t row = std::int64_t(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = int(threadIdx.x & 31);
    if (row >= rows) {
        return;  // whole warps leave together: rows are per warp
    }
    const T* r = scores + row * k;
    // Empty slots rank last: any finite score goes before (−inf, INT_MAX).
    float s[kMaxL];
    int id[kMaxL];
#pragma unroll
    for (int q = 0; q < kMaxL; ++q) {
        s[q] = -INFINITY;
        id[q] = INT_MAX;
    }
    float lastScore = -INFINITY;  // the l-th entry: what a new score must beat
    int lastId = INT_MAX;
    for (std::int64_t c = lane; c < k; c += 32) {
        float v = widen(r[c]);
        int vi = int(c);
        if (!before(v, vi, lastScore, lastId)) {
            continue;
        }
        // Insert by carrying the displaced entry down the (unrolled, register) list.
#pragma unroll
        for (int q = 0; q < kMaxL; ++q) {
            if (q < l && before(v, vi, s[q], id[q])) {
                const float ts = s[q];
                const int ti = id[q];
                s[q] = v;
                id[q] = vi;
                v = ts;
                vi = ti;
            }
            if (q == l - 1) {
                lastScore = s[q];
                lastId = id[q];
            }
        }
    }
    // Merge: round j takes the best head of the 32 lists; its lane pops it.
    for (int j = 0; j < l; ++j) {
        float bs = s[0];
        int bi = id[0];
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) {
            const float os = __shfl_xor_sync(0xffffffffu, bs, off);
            const int oi = __shfl_xor_sync(0xffffffffu, bi, off);
            if (before(os, oi, bs, bi)) {
                bs = os;
                bi = oi;
            }
        }
        if (id[0] == bi) {  // ids are distinct across lanes (disjoint columns)
#pragma unroll
            for (int q = 0; q + 1 < kMaxL; ++q) {
                s[q] = s[q + 1];
                id[q] = id[q + 1];
            }
            s[kMaxL - 1] = -INFINITY;
            id[kMaxL - 1] = INT_MAX;
        }
        if (lane == 0) {
            ids[row * l + j] = bi;
            outScores[row * l + j] = bs;
            if (j == 0) {
                atomicAdd(counts + bi, 1ull);
            }
        }
    }
}

template <typename T>
void launchTyped(const void* scores, std::int64_t rows, std::int64_t k, int l, std::int32_t* ids,
                 float* out, std::int64_t* counts, cudaStream_t stream) {
    constexpr int kWarps = 8;
    const dim3 block(32 * kWarps);
    const dim3 grid(unsigned((rows + kWarps - 1) / kWarps));
    auto* c = reinterpret_cast<unsigned long long*>(counts);
    const T* s = static_cast<const T*>(scores);
    if (l <= 8) {
        topLScanKernel<T, 8><<<grid, block, 0, stream>>>(s, rows, k, l, ids, out, c);
    } else if (l <= 16) {
        topLScanKernel<T, 16><<<grid, block, 0, stream>>>(s, rows, k, l, ids, out, c);
    } else {
        topLScanKernel<T, kMaxTopL><<<grid, block, 0, stream>>>(s, rows, k, l, ids, out, c);
    }
    ONCE_CUDA_CHECK_LAUNCH("topLScanKernel");
}

}  // namespace

void launchTopLScan(const void* scores, ElementType type, std::int64_t rows, std::int64_t k, int l,
                    std::int32_t* ids, float* outScores, std::int64_t* counts,
                    cudaStream_t stream) {
    if (rows <= 0) {
        return;
    }
    if (l < 1 || l > kMaxTopL || l > k) {
        fail("top-L scan list length out of range", {}, "topL",
             "1 … min(K, " + std::to_string(kMaxTopL) + ")", std::to_string(l));
    }
    withElementType(type, [&](auto tag) {
        launchTyped<typename decltype(tag)::type>(scores, rows, k, l, ids, outScores, counts,
                                                  stream);
    });
}

}  // namespace once::gpu
