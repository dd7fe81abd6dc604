// Step 1's scan on the GPU: the L best codewords of each row of a tile of similarity scores that
// cuBLAS has just written (a 2048 × 8192 BF16 tile is 32 MiB: it is read back from L2, not HBM),
// fused with the counts n_k. One warp per row; each lane keeps a sorted top-L of the columns it
// reads (lane, lane + 32, …: increasing, so an equal score never displaces an earlier, lower
// column) in registers, then L rounds of a warp-wide argmax merge the 32 lists. Ties go to the
// lower codeword index, as in the CPU reference (compress/top_l_scan.h).
#include <climits>
#include <cmath>
#include <cstdint>

#include "cuda_check.h"
#include "element_types.cuh"
#include "kernels.h"

namespace once::gpu {
namespace {

// a ranks before b: higher score, then lower id.
__device__ __forceinline__ bool before(float a, int ia, float b, int ib) {
    return a > b || (a == b && ia < ib);
}

// Inserts (v, vi) into a lane's sorted list if it ranks before the l-th entry, carrying the
// displaced entries down the (unrolled, register) list; keeps the l-th entry in last*.
template <int kMaxL>
__device__ __forceinline__ void insert(float v, int vi, int l, float (&s)[kMaxL], int (&id)[kMaxL],
                                       float& lastScore, int& lastId) {
    if (!before(v, vi, lastScore, lastId)) {
        return;
    }
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

// Merges the 32 lanes' lists: round j takes the best head of the 32 lists and its lane pops it;
// lane 0 writes entry j and counts the best one.
template <int kMaxL>
__device__ __forceinline__ void mergeAndWrite(std::int64_t row, int lane, int l, float (&s)[kMaxL],
                                              int (&id)[kMaxL], std::int32_t* __restrict__ ids,
                                              float* __restrict__ outScores,
                                              unsigned long long* __restrict__ counts) {
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

// Element j of a 16-byte vector as F32, read from its 32-bit words rather than through a pointer
// (taking the vector's address would put it in local memory). j is a constant after unrolling.
__device__ __forceinline__ unsigned word(const uint4& v, int w) {
    return w == 0 ? v.x : w == 1 ? v.y : w == 2 ? v.z : v.w;
}
template <typename T>
__device__ __forceinline__ float element(const uint4& v, int j);
template <>
__device__ __forceinline__ float element<float>(const uint4& v, int j) {
    return __uint_as_float(word(v, j));
}
template <>
__device__ __forceinline__ float element<__nv_bfloat16>(const uint4& v, int j) {
    const unsigned w = word(v, j / 2);  // little-endian: element 2i is the low half
    return __uint_as_float(j % 2 == 0 ? w << 16 : w & 0xFFFF0000u);
}
template <>
__device__ __forceinline__ float element<__half>(const uint4& v, int j) {
    const unsigned w = word(v, j / 2);
    return __half2float(__ushort_as_half(static_cast<unsigned short>(j % 2 == 0 ? w : w >> 16)));
}

// Any row length and alignment: lane c reads columns c, c + 32, … one element at a time.
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
        insert(widen(r[c]), int(c), l, s, id, lastScore, lastId);
    }
    mergeAndWrite(row, lane, l, s, id, ids, outScores, counts);
}

// Rows of 16-byte multiples on 16-byte boundaries (K a multiple of 8 for BF16/F16, of 4 for
// F32; every cuBLAS output tile here): lane c reads 16 bytes at a time, vectors c, c + 32, …,
// kUnroll of them in flight before the first compare, and a rolled insertion loop entered only
// when an element of the vector beats the lane's l-th entry (rare after the first columns). The
// first version read one element per lane per iteration and ran at 188 µs for a 2,048 × 8,192 BF16
// tile on an H100 (6 % of L2 bandwidth, compute-bound on the loop;
// bench/results/gpu/2026-11-26-h100-run1).
// kExact: l == kMaxL, so that the l-th entry is a constant index and the lists stay in
// registers (with a run-time l the compiler indexes them in local memory).
template <typename T, int kMaxL, int kUnroll, bool kExact>
__global__ void topLScanVectorKernel(const T* __restrict__ scores, std::int64_t rows,
                                     std::int64_t k, int runtimeL, std::int32_t* __restrict__ ids,
                                     float* __restrict__ outScores,
                                     unsigned long long* __restrict__ counts) {
    const int l = kExact ? kMaxL : runtimeL;
    constexpr int kPerVector = 16 / int(sizeof(T));
    const std::int64_t row = std::int64_t(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = int(threadIdx.x & 31);
    if (row >= rows) {
        return;
    }
    const uint4* r = reinterpret_cast<const uint4*>(scores + row * k);
    const std::int64_t vectors = k / kPerVector;
    float s[kMaxL];
    int id[kMaxL];
#pragma unroll
    for (int q = 0; q < kMaxL; ++q) {
        s[q] = -INFINITY;
        id[q] = INT_MAX;
    }
    float lastScore = -INFINITY;
    int lastId = INT_MAX;
    // What an element must beat to be kept: the best of the lanes' l-th entries. Some lane holds
    // l entries at or before it, so an element after it cannot be among the row's l best. A lane
    // sees only 1/32 of the row, so its own l-th entry alone lets about one element in nine
    // through (l·ln(n/l) insertions of n); the warp's lets a few dozen per row.
    float warpScore = -INFINITY;
    int warpId = INT_MAX;
    for (std::int64_t base = 0; base < vectors; base += 32 * kUnroll) {  // warp-uniform
        uint4 buffer[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const std::int64_t v = base + lane + 32 * u;
            buffer[u] = v < vectors ? __ldg(r + v) : make_uint4(0, 0, 0, 0);
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const std::int64_t v = base + lane + 32 * u;
            if (v >= vectors) {
                continue;
            }
            // The common case: no element of the vector beats the threshold. Only otherwise
            // the (rolled) insertion loop runs, which keeps the unrolled code small enough for
            // registers.
            bool beats = false;
#pragma unroll
            for (int j = 0; j < kPerVector; ++j) {
                beats |=
                    before(element<T>(buffer[u], j), int(v * kPerVector + j), warpScore, warpId);
            }
            if (beats) {
#pragma unroll 1
                for (int j = 0; j < kPerVector; ++j) {
                    const float e = element<T>(buffer[u], j);
                    const int ei = int(v * kPerVector + j);
                    if (before(e, ei, warpScore, warpId)) {
                        insert(e, ei, l, s, id, lastScore, lastId);
                    }
                }
            }
        }
        warpScore = lastScore;
        warpId = lastId;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) {
            const float os = __shfl_xor_sync(0xffffffffu, warpScore, off);
            const int oi = __shfl_xor_sync(0xffffffffu, warpId, off);
            if (before(os, oi, warpScore, warpId)) {
                warpScore = os;
                warpId = oi;
            }
        }
    }
    mergeAndWrite(row, lane, l, s, id, ids, outScores, counts);
}

template <typename T>
void launchTyped(const void* scores, std::int64_t rows, std::int64_t k, int l, std::int32_t* ids,
                 float* out, std::int64_t* counts, cudaStream_t stream) {
    constexpr int kWarps = 8;
    const dim3 block(32 * kWarps);
    const dim3 grid(unsigned((rows + kWarps - 1) / kWarps));
    auto* c = reinterpret_cast<unsigned long long*>(counts);
    const T* s = static_cast<const T*>(scores);
    const bool vectors = k % (16 / std::int64_t(sizeof(T))) == 0 &&
                         reinterpret_cast<std::uintptr_t>(scores) % 16 == 0;
    constexpr int kUnroll = 2;  // 64 registers at L = 8 (4: 96, fewer warps per SM)
    if (vectors && l == 8) {
        topLScanVectorKernel<T, 8, kUnroll, true>
            <<<grid, block, 0, stream>>>(s, rows, k, l, ids, out, c);
    } else if (vectors && l <= 8) {
        topLScanVectorKernel<T, 8, kUnroll, false>
            <<<grid, block, 0, stream>>>(s, rows, k, l, ids, out, c);
    } else if (vectors && l == 16) {
        topLScanVectorKernel<T, 16, kUnroll, true>
            <<<grid, block, 0, stream>>>(s, rows, k, l, ids, out, c);
    } else if (vectors && l <= 16) {
        topLScanVectorKernel<T, 16, kUnroll, false>
            <<<grid, block, 0, stream>>>(s, rows, k, l, ids, out, c);
    } else if (vectors) {
        topLScanVectorKernel<T, kMaxTopL, kUnroll, false>
            <<<grid, block, 0, stream>>>(s, rows, k, l, ids, out, c);
    } else if (l <= 8) {
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
