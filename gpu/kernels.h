#pragma once
// The launchers of gpu/'s kernels: plain pointers, sizes and a stream, no LibTorch types, so the
// .cu files compile with nvcc alone (seconds, not the minutes that ATen's headers cost) and the
// .cpp glue (cuda_assign_backend.cpp) keeps the tensors. Each launcher checks its launch with
// ONCE_CUDA_CHECK_LAUNCH; every pointer is device memory.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace once::gpu {

enum class ElementType { F32, F16, BF16 };

/// Longest top-L list the scan keeps in registers; longer lists take the ATen path.
constexpr int kMaxTopL = 32;

/// Step 1's scan of one tile of similarity scores, fused with the counts: for each of `rows`
/// rows of `scores` (row-major, `k` columns, type `type`), the `l` (≤ kMaxTopL) best columns,
/// best first, ties to the lower column, into ids/outScores (row-major [rows, l]); n_k of the
/// best column of each row is added to `counts` [k]. One warp per row: each lane keeps a running
/// top-L of its columns in registers, then the warp merges the 32 lists.
void launchTopLScan(const void* scores, ElementType type, std::int64_t rows, std::int64_t k, int l,
                    std::int32_t* ids, float* outScores, std::int64_t* counts, cudaStream_t stream);

/// Step 4's segmented sum without an atomics hot spot: `order` [n] lists token rows sorted by
/// group, `groupOfSorted` [n] their groups (non-decreasing; −1 = dropped, skipped). Each block
/// sums a chunk of consecutive sorted rows per column in registers and adds each run of one
/// group to sums [groups, d] (F32, zeroed by the caller) once: a group of P tokens costs about
/// P/64 + 1 atomic adds per column, not P.
void launchSegmentedSum(const void* x, ElementType type, std::int64_t d, const std::int64_t* order,
                        const std::int64_t* groupOfSorted, std::int64_t n, float* sums,
                        cudaStream_t stream);

/// Qwen2RMSNorm over `rows` contiguous rows of `n` elements: out = w ⊙ cast(x · rsqrt(mean(x²) +
/// eps)), the mean of squares summed in F32 (one block per row), every product rounded once as
/// the ATen operations round it (models/decoder_kernels.h).
void launchRmsNorm(const void* x, const void* w, void* out, ElementType type, std::int64_t rows,
                   std::int64_t n, float eps, cudaStream_t stream);

/// Rotary embedding and the key/value store of one row block of a fused q|k|v projection
/// (models/decoder_kernels.h: RotaryStoreArgs). Strides are in elements.
struct RotaryStoreParams {
    const void* qkv = nullptr;
    std::int64_t qkvRowStride = 0, rows = 0;
    int heads = 0, kvHeads = 0, headDim = 0;
    const float* invFreq = nullptr;          // [headDim / 2]
    std::int64_t firstPosition = 0;          // row r is at firstPosition + r …
    const std::int64_t* position = nullptr;  // … or position[0] + r when given (device memory)
    void* queries = nullptr;                 // [rows, heads, headDim] contiguous
    void *keyStore = nullptr, *valueStore = nullptr;
    std::int64_t storeHeadStride = 0, storeRowStride = 0, capacity = 0;
};
void launchRotaryStore(const RotaryStoreParams& p, ElementType type, cudaStream_t stream);

/// silu(gate) ⊙ up for `rows` rows of gateUp (row stride `rowStride`, gate in columns [0, i),
/// up in [i, 2i)) into out [rows, i] contiguous: SiLU rounded to the type, then the product.
void launchSwiglu(const void* gateUp, std::int64_t rowStride, std::int64_t rows, std::int64_t i,
                  void* out, ElementType type, cudaStream_t stream);

}  // namespace once::gpu
