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

}  // namespace once::gpu
