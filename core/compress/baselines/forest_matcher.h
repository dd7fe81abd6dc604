#pragma once
// ForestPrune's attachment step (compress/baselines/forestprune.cpp), on its own because it is
// where the time goes: for each kept node of a frame, the earlier node whose tree it joins, as
// the public code chooses it — among earlier nodes with cosine >= tau within Chebyshev grid
// distance 1 − tau_spatial (coordinates r/(H−1), c/(W−1) in float32, as it computes them), the
// highest cosine, then the smaller distance, then the lower tree id.
//
// The public code multiplies each frame against every earlier node. Here only the grid rows
// within reach are multiplied (one float32 product per earlier grid row, whose earlier nodes are
// a contiguous prefix of a row-major copy), and a float32 cosine within eps of tau or of a node's
// best is recomputed in float64, which decides: the choice is the float64 one. eps bounds the
// float32 product's error for unit vectors of dimension D: (D + 4)·2⁻²⁴ (rounding the inputs and
// any summation order), with a margin. Cost per frame of k nodes: k × (earlier nodes in reach) ×
// D multiply-adds in float32 instead of k × (all earlier nodes) × D in float64.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace once::baselines {

class ForestMatcher {
  public:
    /// `unit` [total, D] float64 unit vectors of the kept nodes in frame order, `position` their
    /// grid positions (ascending within a frame) on a gridH × gridW grid.
    ForestMatcher(const at::Tensor& unit, const std::vector<std::int64_t>& position,
                  std::int64_t gridH, std::int64_t gridW, double tau, double tauSpatial);

    /// The chosen earlier node (or −1) of each node of the frame [begin, end), given the tree of
    /// every earlier node. Frames must come in order.
    std::vector<std::int64_t> frame(std::int64_t begin, std::int64_t end,
                                    const std::vector<std::int64_t>& tree);

  private:
    double dot(std::int64_t i, std::int64_t j) const;
    float distance(std::int64_t i, std::int64_t j) const;
    std::int64_t rowOf(std::int64_t node) const { return position_[std::size_t(node)] / width_; }

    const std::vector<std::int64_t>& position_;
    std::int64_t dim_, width_;
    double tau_, eps_;
    float reach_;
    at::Tensor unit64_, unit32_, byRow32_;
    std::vector<float> rowCoord_, col_;
    std::vector<std::pair<std::int64_t, std::int64_t>> reachable_;  // grid rows within reach
    std::vector<std::int64_t> rowStart_, filled_, byRow_;
};

}  // namespace once::baselines
