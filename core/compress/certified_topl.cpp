#include "compress/certified_topl.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace once {

double bf16ScoreErrorBound(std::int64_t d) {
    const double u = std::ldexp(1.0, -8);  // BF16 keeps 8 significant bits
    const double dd = double(std::max<std::int64_t>(d, 1)) * std::ldexp(1.0, -24);
    const double gamma = dd / (1.0 - dd);
    // |x̃·c̃ − x·c| ≤ (2u + u²) Σ|xⱼcⱼ| for the rounded operands, ≤ γ(1+u)² Σ|x̃ⱼc̃ⱼ| for the
    // GEMM's accumulation and γ Σ|xⱼcⱼ| for ours (3γ(1+u)² covers both with margin); Σ|xⱼcⱼ|
    // ≤ ‖x‖‖c‖ ≤ 1 + 1e-6 for rows normalised in F32.
    const double products = ((2 * u + u * u) + 3 * gamma * (1 + u) * (1 + u)) * (1 + 1e-6);
    return products + u * (1 + products) + 1e-6;  // the BF16 output's rounding, slack
}

float dotF32(const float* a, const float* b, std::int64_t d) {
    // 16 independent partial sums: vectorises without reassociation, so the order is fixed.
    float acc[16] = {};
    std::int64_t j = 0;
    for (; j + 16 <= d; j += 16) {
        for (int q = 0; q < 16; ++q) {
            acc[q] += a[j + q] * b[j + q];
        }
    }
    for (int q = 0; j < d; ++j, ++q) {
        acc[q] += a[j] * b[j];
    }
    for (int width = 8; width >= 1; width /= 2) {
        for (int q = 0; q < width; ++q) {
            acc[q] += acc[q + width];
        }
    }
    return acc[0];
}

int certifyTopL(const float* x, const float* codebook, std::int64_t d,
                const std::int32_t* candidates, int numCandidates, float tau, double eps, int l,
                std::int32_t* ids, float* scores) {
    struct Scored {
        float score;
        std::int32_t id;
    };
    Scored local[64];
    const int c = std::min(numCandidates, 64);
    for (int i = 0; i < c; ++i) {
        local[i] = {dotF32(x, codebook + std::int64_t(candidates[i]) * d, d), candidates[i]};
    }
    std::sort(local, local + c, [](const Scored& p, const Scored& q) {
        return p.score > q.score || (p.score == q.score && p.id < q.id);
    });
    // Strictly above τ + ε: a codeword left out can neither beat nor tie (ties go by index, and
    // a left-out codeword might have the lower one).
    const double bar = double(tau) + eps;
    int m = 0;
    while (m < c && m<l&& double(local[m].score)> bar) {
        ids[m] = local[m].id;
        scores[m] = local[m].score;
        ++m;
    }
    for (int i = m; i < l; ++i) {
        ids[i] = -1;
        scores[i] = std::numeric_limits<float>::quiet_NaN();
    }
    return m;
}

}  // namespace once
