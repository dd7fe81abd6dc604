#pragma once
// ONCE (DESIGN §3) with tensor operations only, on whatever device the features live: the path
// a CUDA tensor takes, so that the visual tokens never travel to host memory and back. No
// .item(), no .cpu(), no loop over data_ptr: every step is a handful of ATen kernels, and the
// only transfer is the few counts that give the result its shape (one small copy at the very
// end of compressOnDevice). The same code runs on CPU tensors, which is how CI checks it against
// the CPU reference (assign_cpu.cpp, selection.cpp, reassign.cpp, pooling.cpp) without a GPU:
// same lists, same codeword order, same groups, pooled tokens within rounding.
//
// Ties are decided exactly as on the CPU (lower codeword index first) without relying on the
// order in which at::topk or at::max report equal values: each score becomes one 64-bit key,
// its float bits made order-preserving in the high half and (K − 1 − id) in the low half, so
// keys are distinct and the largest key is the best score with the lowest id.
#include <ATen/core/Tensor.h>

#include <functional>

#include "compress/assignment.h"
#include "compress/compression.h"

namespace once {

class Codebook;

/// Order-preserving 64-bit keys of F32 scores [*, C] whose column c holds codeword ids[c]
/// ([C] or [*, C] int, broadcast): larger key = larger score, then lower id. `k` is the
/// codebook size (ids in [0, k)). Scores must not be NaN; −0 and +0 are one value.
at::Tensor scoreKeys(const at::Tensor& scores, const at::Tensor& ids, std::int64_t k);
/// The codeword id inside a key of scoreKeys.
at::Tensor keyToId(const at::Tensor& keys, std::int64_t k);

/// Step 1 on x's device: normalise, similarity one tile of `tileRows` rows at a time (the N×K
/// matrix never exists whole), top-L per token, counts n_k and per-codeword sums of x. Fills
/// topIds [N, L] int32, topScores [N, L] F32, counts [K] int64, codewordSums [K, D] F32 of
/// `out` on x's device. float32 precision: F32 operands and product (kernel "sgemm");
/// bfloat16: BF16 operands, BF16 scores (kernel "bf16"), as the CPU reference does. `cn` is
/// the normalised codebook [K, D] F32 (moved to x's device when elsewhere).
void assignOnDevice(const at::Tensor& x, const at::Tensor& cn, const AssignOptions& options,
                    Assignment& out);

/// Step 2 for Q = 1 on the counts' device: the S = min(B, K) codeword ids [S] int64 of largest
/// n_k (ties: lower id), best first. Entries whose n_k is 0 come last; `used` (0-dim int64 on
/// the device) is their complement's size, so the selection is ids[: min(B, used)].
at::Tensor selectOnDevice(const at::Tensor& counts, std::int64_t budget, at::Tensor* used);

/// The groups of one budget, padded to S = min(B, K) rows: rows at or beyond `numOutputs` (a
/// 0-dim device tensor) are unselected codewords with size 0.
struct DeviceGrouping {
    at::Tensor codewordIds;     ///< [S] int64, frequency rank
    at::Tensor groupOfToken;    ///< [N] int64, −1 when dropped (no-reassign)
    at::Tensor cosine;          ///< [N] F32, cos(xᵢ, c_{kᵢ}) (k̂ᵢ's when dropped)
    at::Tensor numOutputs;      ///< 0-dim int64: M
    at::Tensor usedCodewords;   ///< 0-dim int64: #{k : n_k > 0}
    at::Tensor fallbackTokens;  ///< 0-dim int64: tokens whose list held no selected codeword
};

/// Steps 2–3 (full rule or no-reassign) on the device of the assignment. A token takes the first
/// selected codeword of its top-L list; the others get new dot products against the selected
/// codewords, in the assignment's precision, ties to the lower codeword id (reassign.cpp's rule).
DeviceGrouping groupOnDevice(const at::Tensor& x, const at::Tensor& cn, const Assignment& a,
                             std::int64_t budget, bool reassign, std::int64_t tileRows = 2048);

/// Step 4: means [groups, D] F32 and sizes [groups] int64 of x's rows by group (−1 skipped),
/// accumulated in F32, on x's device. Uses the registered segmented-pooling kernel for x's
/// device type when there is one (gpu/: no atomics hot spot on popular groups), else ATen.
void poolOnDevice(const at::Tensor& x, const at::Tensor& groupOfToken, std::int64_t groups,
                  at::Tensor& means, at::Tensor& sizes);

/// A faster step 4 for one device type (registered by gpu/ for CUDA). Same contract.
using SegmentedPoolKernel =
    std::function<void(const at::Tensor& x, const at::Tensor& group, std::int64_t groups,
                       at::Tensor& means, at::Tensor& sizes)>;
void registerSegmentedPoolKernel(c10::DeviceType type, SegmentedPoolKernel kernel);

/// True when compressOnDevice implements this variant (full, no-reassign, codeword-output at
/// Q = 1); the others take the host path (compression.cpp).
bool deviceCompressSupports(const CompressOptions& options);

/// Steps 2–5 on the device of the assignment's lists (features moved there if needed). The
/// result's tensors stay on that device; M, coverage and the counts come back in one copy.
CompressionResult compressOnDevice(const at::Tensor& x, const Assignment& a,
                                   const Codebook& codebook, const CompressOptions& options);

/// The codebook's normalised rows (or its vectors, `normalized` false) as F32 on `device`,
/// copied once per codebook and device and reused (the codebook is 100+ MB at K = 8192).
at::Tensor codebookOnDevice(const Codebook& codebook, const at::Device& device,
                            bool normalized = true);
/// `source` as contiguous F32 on `device`: itself when it is already there, else a copy kept for
/// the next call (up to 4 recent copies, keyed by the source tensor and its version).
at::Tensor cachedDeviceCopy(const at::Tensor& source, const at::Device& device);

}  // namespace once
