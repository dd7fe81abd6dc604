#pragma once
// Step 4: segmented mean pooling of the original features, accumulated in float32.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace once {

/// means[g] = mean of x[i] over tokens with group[i] == g (group −1 is skipped); sizes[g] = count.
/// Parallel over feature columns, so a huge group costs no more than many small ones and no
/// atomics are needed.
void poolGroups(const at::Tensor& x, const std::vector<std::int64_t>& group, std::int64_t groups,
                at::Tensor& means, at::Tensor& sizes);

/// cos(a[r], b[r]) for each row (float32 result).
at::Tensor rowCosine(const at::Tensor& a, const at::Tensor& b);

}  // namespace once
