#pragma once
// Step 3: every token to its nearest selected codeword. A token whose top-L list holds a selected
// codeword takes the first such entry (exactly its argmax over the selection: the list is the L
// best in order, ties to the lower index); the others get new dot products against the selected
// codewords only.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

#include "compress/assignment.h"

namespace once {

struct Reassignment {
    std::vector<std::int64_t> groupOfToken;  ///< index into `selected` (+ offset), −1 untouched
    std::vector<float> cosine;               ///< cos(xᵢ, c_{kᵢ}) of the chosen codeword
    std::int64_t fallbackTokens = 0;         ///< tokens whose list held no selected codeword
    std::int64_t rescoredScores = 0;  ///< F32 scores the certified kernel's fallback computed
};

/// Reassigns `tokens` (all when empty) to `selected` (codeword ids; group g = offset + position),
/// writing into `out` (sized N by the caller). `x` is [N, D], `cn` the normalised codebook.
void reassignTokens(const at::Tensor& x, const at::Tensor& cn, const Assignment& a,
                    const std::vector<std::int32_t>& selected, std::int64_t groupOffset,
                    const std::vector<std::int64_t>& tokens, Reassignment& out);

}  // namespace once
