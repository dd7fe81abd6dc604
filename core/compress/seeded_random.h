#pragma once
// Seeded randomness with a fully specified algorithm (SplitMix64 + Fisher–Yates), so that the
// same seed gives the same permutation on every platform and in the NumPy reference
// (tests/reference/once_reference.py implements the same two functions).
#include <cstdint>
#include <numeric>
#include <vector>

namespace once {

class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform integer in [0, n) (n >= 1); the modulo bias is below 2^-40 for n < 2^24.
    std::uint64_t below(std::uint64_t n) { return next() % n; }

  private:
    std::uint64_t state_;
};

/// A permutation of 0..n-1: Fisher–Yates from the last position down, j = below(i + 1).
inline std::vector<std::int64_t> seededPermutation(std::int64_t n, std::uint64_t seed) {
    std::vector<std::int64_t> p(std::size_t(n < 0 ? 0 : n));
    std::iota(p.begin(), p.end(), std::int64_t(0));
    SplitMix64 rng(seed);
    for (std::int64_t i = n - 1; i > 0; --i) {
        std::int64_t j = std::int64_t(rng.below(std::uint64_t(i) + 1));
        std::swap(p[std::size_t(i)], p[std::size_t(j)]);
    }
    return p;
}

}  // namespace once
