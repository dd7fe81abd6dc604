#pragma once
// One token under the microscope (issue 30, view 15): its k nearest codewords by cosine, the
// group it ends in, the output token it feeds and how far it is from both. The overlay's hover
// says which group a patch is in; this says why — whether the token kept its own nearest
// codeword k̂ or was reassigned to its r-th nearest because k̂ was not among the B selected, and
// how well the pooled output token still represents it.
//
// Computed from the features and the codebook themselves in F32 (one K×D product per token),
// not from the assignment's top-L lists: those stop at L, may be BF16-scored or a certified
// prefix, and peers have none. Ties go to the lower codeword index, as in assignTokens.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

#include "codebook/codeword_ranking.h"

namespace once {

class Codebook;
struct CompressionResult;

struct TokenInspection {
    std::int64_t token = -1;
    /// The k codewords of highest cosine, best first (empty without a codebook). nearest[0] is k̂.
    std::vector<NearestCodeword> nearest;
    /// Output row the token is pooled into (the output token it feeds), −1 when dropped.
    std::int64_t outputRow = -1;
    /// Codeword of that group (−1 for a method without codewords, or when dropped).
    std::int64_t groupCodeword = -1;
    std::int64_t groupSize = 0;
    /// Rank of the group's codeword in the token's whole ranking (0: the token kept k̂; r: it was
    /// reassigned to its (r+1)-th nearest codeword). −1 when there is no group codeword.
    std::int64_t groupCodewordRank = -1;
    /// Cosine to the group's codeword (−1 rank: NaN).
    float cosineToGroupCodeword = 0;
    /// The result's residual 1 − cos(x, c) of this token (NaN when the method has none).
    float residual = 0;
    /// Cosine to the output token it feeds (NaN when dropped).
    float cosineToOutput = 0;
};

struct TokenInspectionLimits {
    /// Nearest codewords listed at most (a table a person reads, not a search).
    static constexpr int kMaxNearest = 256;
};

/// Inspects token `token` of `features` ([N, D] or [T, P, D], frame-major, any float dtype, CPU)
/// under `result` (a compression of those features). `codebook` may be null (peers). k is
/// clamped to [1, min(K, kMaxNearest)]. Throws OnceError when the token is out of range, or the
/// features, result and codebook do not fit together (naming the sizes).
TokenInspection inspectToken(const at::Tensor& features, const Codebook* codebook,
                             const CompressionResult& result, std::int64_t token, int k);

}  // namespace once
