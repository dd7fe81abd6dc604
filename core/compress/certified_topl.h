#pragma once
// Exact F32 scores from a BF16 product (the "bf16-certified" kernel of float32 precision). The
// BF16 GEMM runs 2–4× faster than the F32 one on CPUs with AVX512-BF16, but its scores g are off
// the F32 ones f (dotF32 of the F32 unit rows) by up to a bound computed per token:
//
//   |f − g| ≤ A + u·|g|/(1 − u),   A = ‖x̃‖·r + ‖x̃ − x‖·n + 1.5·γ_d·(‖x̃‖·ñ + ‖x‖·n)
//
// with x̃ the token's BF16 rounding, (r, n, ñ) the largest ‖c̃ − c‖, ‖c‖, ‖c̃‖ over the codewords
// that can be scored, γ_d = d·2⁻²⁴/(1 − d·2⁻²⁴) (F32 accumulation of exact BF16 products in any
// order, on the GEMM's side and on dotF32's, ×1.5 for margin), u = 2⁻⁸ (the product's rounding
// to BF16). Measured rounding residuals instead of the worst case u·‖x‖ make A about 0.4 of the
// operand-only bound (‖c̃ − c‖ ≈ 0.4u for unit rows), so far fewer scores need an F32 look.
//
// Step 1: each token's best candidates under g are re-scored with dotF32 and sorted; every
// codeword left out has g ≤ τ (the worst candidate's), so f ≤ upper(τ); the candidates whose f is
// above it, in order, are the exact top of the ranking: the certified prefix (−1 ids after it).
// Re-budget: the argmax over the selected codewords is among those whose upper bound reaches the
// best lower bound; only those are re-scored.
#include <ATen/core/Tensor.h>

#include <cstdint>

namespace once {

/// Norms of a row and of its BF16 rounding, in double: ‖v‖, ‖ṽ‖, ‖ṽ − v‖.
struct Bf16RowNorms {
    double norm = 0;
    double roundedNorm = 0;
    double residual = 0;
};

/// The norms of one F32 row and its BF16 rounding `rounded` (raw BF16 bits, as the GEMM reads
/// them).
Bf16RowNorms bf16RowNorms(const float* row, const std::uint16_t* rounded, std::int64_t d);

/// Element-wise maximum (the codeword side of the bound is the worst codeword's).
Bf16RowNorms maxNorms(const Bf16RowNorms& a, const Bf16RowNorms& b);

/// maxNorms over `count` rows [count, d] and their BF16 roundings, on all cores.
Bf16RowNorms maxBf16RowNorms(const float* rows, const std::uint16_t* rounded, std::int64_t count,
                             std::int64_t d);

/// The same for contiguous F32 rows [count, d] and their BF16 rounding of the same shape.
Bf16RowNorms maxBf16RowNorms(const at::Tensor& rows, const at::Tensor& rounded);

/// The raw bits of a contiguous BF16 tensor, as bf16RowNorms reads them.
const std::uint16_t* bf16Bits(const at::Tensor& bf16);

/// A of the bound above, for a token with norms `token` against codewords whose maxima are
/// `codes`, in dimension `d`; with 1e-6 relative and 1e-7 absolute slack.
double bf16TokenSlack(const Bf16RowNorms& token, const Bf16RowNorms& codes, std::int64_t d);

/// Bounds on the F32 score of a codeword whose BF16-product score is `g`: the product's rounding
/// to BF16 is |g − ĝ| ≤ u·|ĝ| ≤ u·|g|/(1 − u) for the F32 sum ĝ (u = 2⁻⁸). Both are increasing in
/// g, so a bound on g bounds f. Inline: they run per score in the re-budget's inner loop.
inline double bf16ScoreUpper(float g, double slack) {
    constexpr double kRound = (1.0 / 256) / (1 - 1.0 / 256);
    return double(g) + kRound * (g < 0 ? -double(g) : double(g)) + slack;
}
inline double bf16ScoreLower(float g, double slack) {
    constexpr double kRound = (1.0 / 256) / (1 - 1.0 / 256);
    return double(g) - kRound * (g < 0 ? -double(g) : double(g)) - slack;
}

/// The F32 dot product of a[0..d) and b[0..d) in a fixed order (16 partial sums, then a pairwise
/// reduction): the same value on every call and every thread count.
float dotF32(const float* a, const float* b, std::int64_t d);

/// Re-scores `numCandidates` (at most 64) candidates (codeword ids, any order) of the unit token
/// `x` against the unit codeword rows `codebook` [K, d] in F32, sorts them (score descending, id
/// ascending) and writes those strictly above `bar` (an upper bound on the F32 score of every
/// codeword not among the candidates), at most `l`, to ids/scores, padding the rest of the l
/// slots with −1 / NaN. Returns the number of entries written.
int certifyTopL(const float* x, const float* codebook, std::int64_t d,
                const std::int32_t* candidates, int numCandidates, double bar, int l,
                std::int32_t* ids, float* scores);

/// The argmax (F32 dotF32 score; ties to the lower id) over `s` codewords given their BF16
/// scores `g`, F32 unit rows `rows` [s, d] and ids: only the codewords whose upper bound reaches
/// the best lower bound are re-scored. Returns the position; its score goes to `score` and the
/// number re-scored to `rescored`.
std::int64_t certifiedArgmax(const float* x, const float* rows, std::int64_t d, const float* g,
                             const std::int32_t* ids, std::int64_t s, double slack, float& score,
                             std::int64_t& rescored);

}  // namespace once
