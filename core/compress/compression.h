#pragma once
// Steps 2–5 of ONCE and its ablation variants (DESIGN §3), given the cached Assignment:
// select the B most used codewords, reassign every token to its nearest selected codeword,
// mean-pool each group. A new budget or variant costs only this part.
#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

#include "compress/assignment.h"

namespace once {

class Codebook;

enum class Variant {
    Full,            ///< the paper's rule
    NoReassign,      ///< tokens whose k̂ᵢ is not selected are dropped
    FixedRandom,     ///< one seeded codeword permutation for all videos, first B kept
    FrameWise,       ///< selection per frame segment, budget split evenly
    RandomGrouping,  ///< Full's group sizes, seeded random membership
    CodewordOutput,  ///< emit c_k instead of the source mean
    MedoidOutput,    ///< emit the member closest (cosine) to its group mean
};

std::string variantName(Variant v);
/// Parses "full", "no-reassign", …; throws OnceError listing the valid names.
Variant parseVariant(const std::string& name);
std::vector<std::string> variantNames();

struct CompressOptions {
    std::int64_t budget = 512;  ///< B >= 1
    Variant variant = Variant::Full;
    std::uint64_t seed = 42;  ///< for fixed-random and random-grouping
    /// Selection rounds Q (see docs/algorithm.md). Q = 1 is exactly the paper's rule.
    int rounds = 1;
};

struct CompressionResult {
    at::Tensor tokens;        ///< [M, D] float32, in output order
    at::Tensor codewordIds;   ///< [M] int64
    at::Tensor groupSizes;    ///< [M] int64
    at::Tensor groupOfToken;  ///< [N] int64: output row of each token, −1 when dropped
    /// [N] float32: 1 − cos(xᵢ, c_{kᵢ}) for the codeword each token ends in (k̂ᵢ when dropped).
    /// Undefined for methods without a codebook.
    at::Tensor residual;
    /// [M] float32: cosine of each output row to the mean of its group's source tokens.
    at::Tensor outputCosine;

    std::int64_t numTokens = 0;   ///< N
    std::int64_t numOutputs = 0;  ///< M
    std::int64_t budget = 0;
    std::int64_t usedCodewords = 0;   ///< #{k : n_k > 0}
    std::int64_t fallbackTokens = 0;  ///< tokens reassigned with new dot products
    std::int64_t rescoredScores = 0;  ///< of those, F32 scores the certified kernel computed
    double coverage = 1.0;            ///< share of tokens inside an output group
    Variant variant = Variant::Full;
    std::string method = "once";  ///< TokenCompressor registry name (baselines: their own)

    struct Timings {
        double assign = 0, select = 0, reassign = 0, pool = 0;
        double total() const { return assign + select + reassign + pool; }
    } seconds;
};

/// Steps 2–5 for features X [N, D] or [T, P, D] and their cached assignment.
/// Throws OnceError for budget < 1 or features that do not match the assignment.
CompressionResult compressAssigned(const at::Tensor& features, const Assignment& assignment,
                                   const Codebook& codebook, const CompressOptions& options);

/// Steps 1–5 in one call (the cached path is compressAssigned).
CompressionResult compressOnce(const at::Tensor& features, const Codebook& codebook,
                               const CompressOptions& options,
                               const AssignOptions& assignOptions = {});

}  // namespace once
