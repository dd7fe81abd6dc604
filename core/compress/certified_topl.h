#pragma once
// Exact F32 top-L lists from a BF16 product (the "bf16-certified" path of step 1). The BF16 GEMM
// runs about twice as fast as the F32 one on CPUs with AVX512-BF16, but its scores are off by up
// to ε. Each token's best candidates under the BF16 scores are re-scored in F32 and sorted
// exactly; any codeword outside the candidates has a BF16 score at most τ (the worst candidate's)
// and so an F32 score at most τ + ε. Every re-scored candidate above τ + ε therefore outranks all
// codewords left out, and those candidates, in exact order, are the exact top of the token's
// list: the certified prefix. A token whose prefix is empty gets the plain F32 product instead.
// Only the prefix is kept (−1 ids after it); the reassignment of a new budget falls back to dot
// products for a token whose prefix holds no selected codeword, as it does past the L-th entry.
#include <cstdint>

namespace once {

/// A rigorous bound on |BF16-product score − F32 score| for unit vectors of dimension `d`:
/// operands rounded to BF16 (relative error u = 2⁻⁸ each), F32 accumulation in any order on
/// both sides (γ_d = d·2⁻²⁴/(1 − d·2⁻²⁴), counted three times for margin), the product's
/// rounding to BF16, and a norm slack of 1e-6; plus 1e-6 absolute.
double bf16ScoreErrorBound(std::int64_t d);

/// The F32 dot product of a[0..d) and b[0..d) in a fixed order (16 partial sums, then a pairwise
/// reduction): the same value on every call and every thread count.
float dotF32(const float* a, const float* b, std::int64_t d);

/// Re-scores `numCandidates` candidates (codeword ids, any order) of the unit token `x` against
/// the unit codeword rows `codebook` [K, d] in F32, sorts them (score descending, id ascending)
/// and writes the certified prefix, at most `l` entries, to ids/scores, padding the rest of the
/// l slots with −1 / NaN. `tau` bounds the BF16 score of every codeword not among the
/// candidates; `eps` is bf16ScoreErrorBound(d). Returns the number of entries written.
int certifyTopL(const float* x, const float* codebook, std::int64_t d,
                const std::int32_t* candidates, int numCandidates, float tau, double eps, int l,
                std::int32_t* ids, float* scores);

}  // namespace once
