#pragma once
// Step 4: segmented mean pooling of the original features, accumulated in float32.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

#include "compress/assignment.h"

namespace once {

/// means[g] = mean of x[i] over tokens with group[i] == g (group −1 is skipped); sizes[g] = count.
/// Parallel over feature columns, so a huge group costs no more than many small ones and no
/// atomics are needed.
void poolGroups(const at::Tensor& x, const std::vector<std::int64_t>& group, std::int64_t groups,
                at::Tensor& means, at::Tensor& sizes);

/// The same means from the assignment's per-codeword sums: group g of codeword[g] starts from
/// the sum of the tokens with k̂ᵢ = codeword[g] and adds only the tokens that moved into it, so
/// a new budget reads a fraction of the features. Applies when every token whose k̂ᵢ is a
/// group's codeword sits in that group (the full rule); returns false, touching nothing, when
/// that does not hold or the sums are missing.
bool poolFromCodewordSums(const at::Tensor& x, const Assignment& a,
                          const std::vector<std::int64_t>& codeword,
                          const std::vector<std::int64_t>& group, at::Tensor& means,
                          at::Tensor& sizes);

/// cos(a[r], b[r]) for each row (float32 result).
at::Tensor rowCosine(const at::Tensor& a, const at::Tensor& b);

}  // namespace once
