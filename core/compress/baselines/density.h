#pragma once
// DPC-kNN density-peak scores (Rodriguez & Laio's density peaks with a k-nearest-neighbour
// density), the token-importance score FastVID uses to pick its anchor (contextual) tokens, in
// the form of FastVID's code (llmc fastvid.py, "Parallel Density Score Computation"):
//   dist   = ‖xᵢ − xⱼ‖ / √D
//   ρᵢ     = exp(−mean of the k smallest dist²ᵢⱼ)  (the k include j = i itself)
//   ρᵢ    += 1e-6 · uᵢ                             (tie-breaking noise; uᵢ from SplitMix64)
//   δᵢ     = min dist over j with ρⱼ > ρᵢ, or the largest distance in the set for the densest
//   scoreᵢ = ρᵢ · δᵢ
// High scores are tokens that are both locally dense and far from anything denser: cluster
// centres, hence good anchors.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

#include "compress/seeded_random.h"

namespace once::baselines {

/// Scores of the rows of x [n, D] (float64), k neighbours (clamped to n), noise drawn from rng
/// in row order.
std::vector<double> dpcKnnScores(const at::Tensor& x, std::int64_t k, SplitMix64& rng);

}  // namespace once::baselines
