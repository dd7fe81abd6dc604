#pragma once
// Step 2: which codewords a video keeps (DESIGN §3), with the selection-rounds extension.
#include <cstdint>
#include <vector>

#include "compress/assignment.h"

namespace once {

/// Codewords to keep for the tokens `tokens` (all tokens when empty), in output order.
/// Q = `rounds` = 1 is the paper's rule: the min(B, #used) codewords with the largest n_k, ties to
/// the lower index. For Q > 1 (docs/algorithm.md): the budget is filled in Q rounds; round 1 ranks
/// by n_k; later rounds rank by the votes of tokens not yet served (no selected codeword in their
/// top-L list), each voting for its k̂ᵢ; codewords with no vote fill any remainder by n_k.
std::vector<std::int32_t> selectCodewords(const Assignment& a, std::int64_t budget, int rounds,
                                          const std::vector<std::int64_t>& tokens = {});

/// Number of distinct codewords that are some token's k̂ᵢ.
std::int64_t countUsedCodewords(const Assignment& a);

}  // namespace once
