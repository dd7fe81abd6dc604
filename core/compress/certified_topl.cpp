#include "compress/certified_topl.h"

#include <ATen/Parallel.h>
#include <c10/util/BFloat16.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace once {

namespace {

float bf16ToFloat(std::uint16_t h) {
    const std::uint32_t bits = std::uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

}  // namespace

Bf16RowNorms bf16RowNorms(const float* row, const std::uint16_t* rounded, std::int64_t d) {
    // F32 with 16 partial sums (vectorises without reassociation). ṽ − v is exact in F32 (both
    // lie on v's ulp grid, less than a BF16 ulp apart) and every term is non-negative, so each
    // computed sum is at least (1 − γ_{d+1}) times the true one: dividing by that bounds the
    // norms from above, which is the side the error bound needs.
    float n[16] = {}, nr[16] = {}, r[16] = {};
    std::int64_t j = 0;
    for (; j + 16 <= d; j += 16) {
        for (int q = 0; q < 16; ++q) {
            const float v = row[j + q], vr = bf16ToFloat(rounded[j + q]), e = vr - v;
            n[q] += v * v;
            nr[q] += vr * vr;
            r[q] += e * e;
        }
    }
    for (int q = 0; j < d; ++j, ++q) {
        const float v = row[j], vr = bf16ToFloat(rounded[j]), e = vr - v;
        n[q] += v * v;
        nr[q] += vr * vr;
        r[q] += e * e;
    }
    double sn = 0, snr = 0, sr = 0;
    for (int q = 0; q < 16; ++q) {
        sn += n[q];
        snr += nr[q];
        sr += r[q];
    }
    const double dd = double(d + 2) * std::ldexp(1.0, -24);
    const double up = 1.0 / (1.0 - dd / (1.0 - dd));
    return {std::sqrt(sn * up), std::sqrt(snr * up), std::sqrt(sr * up)};
}

Bf16RowNorms maxNorms(const Bf16RowNorms& a, const Bf16RowNorms& b) {
    return {std::max(a.norm, b.norm), std::max(a.roundedNorm, b.roundedNorm),
            std::max(a.residual, b.residual)};
}

Bf16RowNorms maxBf16RowNorms(const float* rows, const std::uint16_t* rounded, std::int64_t count,
                             std::int64_t d) {
    // Fixed chunks, each reduced on its own, then in order: max is exact, so any split gives the
    // same value; the chunks only spread the work.
    constexpr std::int64_t kChunk = 256;
    const std::int64_t chunks = (count + kChunk - 1) / kChunk;
    std::vector<Bf16RowNorms> part(static_cast<std::size_t>(chunks));
    at::parallel_for(0, chunks, 1, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t q = b; q < e; ++q) {
            Bf16RowNorms m;
            for (std::int64_t r = q * kChunk; r < std::min(count, (q + 1) * kChunk); ++r) {
                m = maxNorms(m, bf16RowNorms(rows + r * d, rounded + r * d, d));
            }
            part[std::size_t(q)] = m;
        }
    });
    Bf16RowNorms out;
    for (const auto& m : part) {
        out = maxNorms(out, m);
    }
    return out;
}

Bf16RowNorms maxBf16RowNorms(const at::Tensor& rows, const at::Tensor& rounded) {
    return maxBf16RowNorms(rows.data_ptr<float>(), bf16Bits(rounded), rows.size(0), rows.size(1));
}

const std::uint16_t* bf16Bits(const at::Tensor& bf16) {
    return reinterpret_cast<const std::uint16_t*>(bf16.data_ptr<c10::BFloat16>());
}

double bf16TokenSlack(const Bf16RowNorms& t, const Bf16RowNorms& c, std::int64_t d) {
    const double dd = double(std::max<std::int64_t>(d, 1)) * std::ldexp(1.0, -24);
    const double gamma = dd / (1.0 - dd);
    // x̃·c̃ − x·c = x̃·(c̃ − c) + (x̃ − x)·c (Cauchy–Schwarz on each), plus both sides' F32
    // accumulation errors γ_d·Σ|products| ≤ γ_d·‖·‖‖·‖.
    const double operands = t.roundedNorm * c.residual + t.residual * c.norm;
    const double sums = 1.5 * gamma * (t.roundedNorm * c.roundedNorm + t.norm * c.norm);
    return (operands + sums) * (1 + 1e-6) + 1e-7;
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
                const std::int32_t* candidates, int numCandidates, double bar, int l,
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
    // Strictly above the bar: a codeword left out can neither beat nor tie (ties go by index,
    // and a left-out codeword might have the lower one).
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

std::int64_t certifiedArgmax(const float* x, const float* rows, std::int64_t d, const float* g,
                             const std::int32_t* ids, std::int64_t s, double slack, float& score,
                             std::int64_t& rescored) {
    // The best lower bound is the top score's (the bounds increase with g).
    float top = -std::numeric_limits<float>::infinity();
    for (std::int64_t c = 0; c < s; ++c) {
        top = std::max(top, g[c]);
    }
    const double floor = bf16ScoreLower(top, slack);
    // The F32 argmax c* has f(c*) ≥ floor, so upper(g(c*)) ≥ floor; so has any codeword tied
    // with it. Non-strict, so that a tie with a lower id is re-scored too. A float pre-test
    // (g ≥ floor − slack − 2u, below every g that can pass) skips most bounds.
    const float pre = float(floor - slack - 2.0 / 256) - 1e-6f;
    std::int64_t best = -1;
    float bestScore = 0;
    for (std::int64_t c = 0; c < s; ++c) {
        if (g[c] < pre || bf16ScoreUpper(g[c], slack) < floor) {
            continue;
        }
        ++rescored;
        const float f = dotF32(x, rows + c * d, d);
        if (best < 0 || f > bestScore || (f == bestScore && ids[c] < ids[best])) {
            best = c;
            bestScore = f;
        }
    }
    score = bestScore;
    return best;
}

}  // namespace once
