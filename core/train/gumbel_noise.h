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

/// Stage B's straight-through Gumbel-Softmax from the Sinkhorn plan's logits.
struct GumbelAssignment {
    at::Tensor hard;  ///< [B] int64: argmax of y (ties to the lower index, as ATen's argmax)
    at::Tensor soft;  ///< [B, K] F32: softmax of y
};

/// y = (G + S/ε + g)/τ for noise G [B, K], scores S [B, K] and column potentials g [K] (the row
/// potential is constant along a row and drops out), built row block by row block while each
/// block is in cache: one B×K output and no temporaries, where the element-wise expression
/// streams several 2 GiB matrices through memory at 65,536 × 8192.
GumbelAssignment gumbelStraightThrough(const at::Tensor& scores, const at::Tensor& g,
                                       const at::Tensor& noise, double epsilon, double tau);

}  // namespace once
