#pragma once
// Step 1 of ONCE, the budget-independent part: every token's nearest codewords by cosine.
// Computed once per video and reused for every budget and variant (DESIGN §3).
#include <ATen/core/Tensor.h>

#include <memory>
#include <string>
#include <utility>

#include "util/progress.h"

namespace once {

class Codebook;

struct Assignment {
    std::int64_t numTokens = 0;       ///< N
    std::int64_t numFrames = 1;       ///< T (tokens are frame-major: token i is in frame i / P)
    std::int64_t tokensPerFrame = 0;  ///< P
    std::int64_t codebookSize = 0;    ///< K
    /// [N, L] int32: the L codewords of highest cosine per token, best first; ties go to the
    /// lower codeword index. Column 0 is k̂ᵢ. After the bf16-certified kernel a list may stop
    /// early (−1 after its certified prefix; see listsComplete); column 0 is always set.
    at::Tensor topIds;
    /// [N, L] float32: their cosines ν(xᵢ)·ν(c_k) (NaN where the id is −1).
    at::Tensor topScores;
    /// False when some list holds fewer than L codewords (compress/certified_topl.h). Every
    /// list is still the exact top of its token's ranking; only the Q > 1 selection rounds need
    /// whole lists, and complete them (completeTopLists).
    bool listsComplete = true;
    /// Tokens whose certified prefix was empty and that took the plain F32 product instead.
    std::int64_t exactFallbackTokens = 0;
    /// The kernel that produced the lists: "sgemm", "bf16-certified", "bf16", "cuda".
    std::string kernel;
    /// [K] int64: n_k, number of tokens whose k̂ᵢ = k.
    at::Tensor counts;
    /// [K, D] float32: Σ xᵢ over the tokens with k̂ᵢ = k. Under the full rule a selected
    /// codeword keeps all of its k̂ tokens, so pooling for a new budget only has to add the
    /// tokens that move instead of reading every feature again.
    at::Tensor codewordSums;
    /// [N, D] on the device of a device backend ("aten", "cuda"): the unit rows as the product
    /// took them (BF16 under bfloat16 precision, else F32), so that steps 2–5 rescore the
    /// tokens without normalising the features again (compress/device_compress.h). Undefined
    /// for the CPU backend, whose steps read the features.
    at::Tensor normalizedRows;
    std::string precision = "float32";  ///< of the similarity scores (AssignOptions::precision)
    double seconds = 0;                 ///< wall time of the assignment
    std::string backend;                ///< "cpu", "cuda", …
    std::int64_t listSize() const { return topIds.defined() ? topIds.size(1) : 0; }
};

struct AssignOptions {
    /// Length L of the per-token codeword list kept for re-budgeting.
    int topL = 8;
    /// Rows per tile of the similarity matrix: the N×K matrix only ever exists tile by tile.
    /// Large enough that the GEMM's packing of the codebook is paid rarely (2048 × K=8192 F32
    /// scores = 64 MiB); the scan of a tile runs on all cores while it is fresh.
    int tileRows = 2048;
    /// "float32": normalised operands and scores in F32 (exact; the default).
    /// "bfloat16": the paper's production order (cast to BF16, normalise, multiply): BF16
    /// operands, F32 accumulation, BF16 scores; ties from the coarser scores go to the lower
    /// index. Several times faster on CPUs with AMX or AVX512-BF16 (docs/performance.md).
    std::string precision = "float32";
    /// How float32 precision is computed on the CPU. "sgemm": the F32 product. "bf16-certified":
    /// the BF16 product, then each token's candidates re-scored in F32 and kept only where the
    /// ranking is certified (compress/certified_topl.h): the same lists' exact prefixes at
    /// about half the multiply cost on CPUs with native BF16 dot products. "auto": certified
    /// where the CPU has AVX512-BF16, sgemm elsewhere.
    std::string float32Kernel = "auto";
    /// "cpu", "cuda" or "auto" (cuda when a GPU backend is built in and a GPU is present).
    std::string device = "auto";
};

/// Computes step 1 for features X [N, D] or [T, P, D] (F32, F16 or BF16; any device the
/// backend accepts). Throws OnceError when D differs from the codebook's, or X is not 2-/3-D.
Assignment assignTokens(const at::Tensor& features, const Codebook& codebook,
                        const AssignOptions& options = {}, Progress* progress = nullptr);

/// The lists of `a` with every incomplete one (listsComplete false) recomputed as the exact
/// top-L from the F32 product of its token `x` [N, D] against the normalised codebook `cn`.
/// Returns `a`'s lists themselves when they are complete. {ids [N, L] int32, scores [N, L] F32}.
std::pair<at::Tensor, at::Tensor> completeTopLists(const Assignment& a, const at::Tensor& x,
                                                   const at::Tensor& cn);

/// The same features as [N, D], validated against the codebook (`source` names them in errors).
at::Tensor flattenFeatures(const at::Tensor& features, std::int64_t codebookDim,
                           const std::string& source = "features");

}  // namespace once
