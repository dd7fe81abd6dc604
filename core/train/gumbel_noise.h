#pragma once
// Gumbel noise for Stage B's straight-through Gumbel-Softmax, from a counter-based stream: every
// element is a function of (seed, element index) only, so a [65,536 × 8192] block is filled on
// all cores (ATen's CPU generator draws serially) and a step's noise can be regenerated alone —
// what makes a resumed fit bit-identical to an uninterrupted one, whatever the thread count.
#include <ATen/core/Tensor.h>

#include <cstdint>

namespace once {

/// G = −log(−log U) [rows, cols] F32 with U = (m + ½)·2⁻²³, m the top 23 bits of
/// SplitMix64's output for (seed, index): U ∈ (0, 1) exactly, so G is finite (|G| < 17).
at::Tensor gumbelNoise(std::int64_t rows, std::int64_t cols, std::uint64_t seed);

}  // namespace once
