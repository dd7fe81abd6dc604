#include "train/gumbel_noise.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

namespace once {

namespace {

// SplitMix64's output function (Steele, Lea, Flood 2014) on the counter seed + i·γ.
inline std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

}  // namespace

at::Tensor gumbelNoise(std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
    at::Tensor u = at::empty({rows, cols}, at::kFloat);
    float* p = u.data_ptr<float>();
    const std::uint64_t base = mix(seed);
    at::parallel_for(0, rows * cols, 1 << 16, [&](std::int64_t lo, std::int64_t hi) {
        for (std::int64_t i = lo; i < hi; ++i) {
            const std::uint64_t h = mix(base + std::uint64_t(i + 1) * 0x9E3779B97F4A7C15ull);
            p[i] = (float(h >> 41) + 0.5f) * 0x1.0p-23f;
        }
    });
    // Vectorised (ATen's runtime-dispatched) logs over the whole block.
    return u.log_().neg_().log_().neg_();
}

GumbelAssignment gumbelStraightThrough(const at::Tensor& scores, const at::Tensor& g,
                                       const at::Tensor& noise, double epsilon, double tau) {
    const at::Tensor s = scores.to(at::kFloat).contiguous();
    const at::Tensor n = noise.to(at::kFloat).contiguous();
    const at::Tensor gRow = g.to(at::kFloat).reshape({1, -1});
    const std::int64_t b = s.size(0), k = std::max<std::int64_t>(s.size(1), 1);
    GumbelAssignment out{at::empty({b}, at::kLong), at::empty_like(s)};
    // About 2 MiB per block: the L2 of two cores.
    const std::int64_t rows = std::max<std::int64_t>(1, (std::int64_t(1) << 19) / k);
    for (std::int64_t r0 = 0; r0 < b; r0 += rows) {
        const std::int64_t m = std::min(rows, b - r0);
        at::Tensor y = out.soft.narrow(0, r0, m);
        y.copy_(n.narrow(0, r0, m)).add_(s.narrow(0, r0, m), 1.0 / epsilon).add_(gRow).div_(tau);
        out.hard.narrow(0, r0, m).copy_(y.argmax(1));
        y.copy_(at::softmax(y, 1));
    }
    return out;
}

}  // namespace once
