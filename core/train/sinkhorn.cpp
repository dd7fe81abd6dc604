#include "train/sinkhorn.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cmath>
#include <vector>

#include "util/error.h"

namespace once {

namespace {

// Row blocks are a fixed partition (not one per thread), so sums do not depend on the thread
// count.
constexpr std::int64_t kBlocks = 64;

// Column log-sum-exp accumulator of one block: Σ_r exp(f_r − M)·E_r with a running max M
// (rescaled when a larger f_r arrives), as in online softmax.
struct ColumnSum {
    std::vector<float> acc;
    double max = -INFINITY;
};

void accumulateRow(ColumnSum& c, const float* e, std::int64_t k, double f) {
    if (f > c.max) {
        if (c.max > -INFINITY) {
            const auto scale = float(std::exp(c.max - f));
            for (std::int64_t j = 0; j < k; ++j) {
                c.acc[std::size_t(j)] *= scale;
            }
        }
        c.max = f;
    }
    const auto w = float(std::exp(f - c.max));
    float* acc = c.acc.data();
    for (std::int64_t j = 0; j < k; ++j) {
        acc[j] += w * e[j];
    }
}

double rowDot(const float* e, const float* v, std::int64_t k) {
    // 16 independent lanes so the compiler vectorises without reassociating one sum.
    float lane[16] = {};
    std::int64_t j = 0;
    for (; j + 16 <= k; j += 16) {
        for (int l = 0; l < 16; ++l) {
            lane[l] += e[j + l] * v[j + l];
        }
    }
    double total = 0;
    for (; j < k; ++j) {
        total += double(e[j]) * v[j];
    }
    for (float x : lane) {
        total += x;
    }
    return total;
}

// g = log b − log Σ_r exp(f_r)·E_r − top, merging the blocks in order.
void finishColumns(std::vector<ColumnSum>& blocks, const float* lb, double top, float* g,
                   std::int64_t k) {
    double m = -INFINITY;
    for (const auto& c : blocks) {
        m = std::max(m, c.max);
    }
    std::vector<double> sum(static_cast<std::size_t>(k), 0.0);
    for (const auto& c : blocks) {
        if (c.max == -INFINITY) {
            continue;
        }
        const double scale = std::exp(c.max - m);
        for (std::int64_t j = 0; j < k; ++j) {
            sum[std::size_t(j)] += scale * c.acc[std::size_t(j)];
        }
    }
    for (std::int64_t j = 0; j < k; ++j) {
        g[j] = float(lb[j] - (std::log(sum[std::size_t(j)]) + top + m));
    }
}

// Exp-domain Sinkhorn over E = exp(S/ε − top) ∈ [e^-80, 1]: each iteration's row update and
// the next iteration's column sums are one pass over E (rows are final once g is known), so
// `iterations` updates read E iterations + 1 times instead of 2·iterations.
SinkhornPotentials sinkhornExp(const at::Tensor& s, const at::Tensor& la, const at::Tensor& lb,
                               double epsilon, int iterations, double smax) {
    const std::int64_t b = s.size(0), k = s.size(1);
    const double top = smax / epsilon;
    // One allocation, then in place (ATen's vectorised exp over the whole matrix).
    at::Tensor e = at::sub(s, smax);
    e.mul_(1.0 / epsilon).exp_();
    SinkhornPotentials p{at::empty({b}, at::kFloat), at::empty({k}, at::kFloat)};
    const std::int64_t blocks = std::min(kBlocks, b);
    std::vector<ColumnSum> cols(static_cast<std::size_t>(blocks));
    const float* pla = la.data_ptr<float>();
    const float* plb = lb.data_ptr<float>();
    float* pf = p.f.data_ptr<float>();
    float* pg = p.g.data_ptr<float>();
    float* pe = e.data_ptr<float>();
    std::vector<float> sg(static_cast<std::size_t>(k));

    // Column sums at f = 0.
    at::parallel_for(0, blocks, 1, [&](std::int64_t lo, std::int64_t hi) {
        for (std::int64_t blk = lo; blk < hi; ++blk) {
            ColumnSum& c = cols[std::size_t(blk)];
            c.acc.assign(std::size_t(k), 0.0f);
            c.max = -INFINITY;
            for (std::int64_t r = blk * b / blocks; r < (blk + 1) * b / blocks; ++r) {
                accumulateRow(c, pe + r * k, k, 0.0);
            }
        }
    });
    finishColumns(cols, plb, top, pg, k);

    for (int it = 0; it < iterations; ++it) {
        const bool last = it + 1 == iterations;
        const double gmax = p.g.max().item<double>();
        for (std::int64_t j = 0; j < k; ++j) {
            sg[std::size_t(j)] = float(std::exp(double(pg[j]) - gmax));
        }
        at::parallel_for(0, blocks, 1, [&](std::int64_t lo, std::int64_t hi) {
            for (std::int64_t blk = lo; blk < hi; ++blk) {
                ColumnSum& c = cols[std::size_t(blk)];
                std::fill(c.acc.begin(), c.acc.end(), 0.0f);
                c.max = -INFINITY;
                const std::int64_t r0 = blk * b / blocks, r1 = (blk + 1) * b / blocks;
                for (std::int64_t r = r0; r < r1; ++r) {
                    const float* er = pe + r * k;
                    pf[r] = float(pla[r] - (std::log(rowDot(er, sg.data(), k)) + top + gmax));
                    if (!last) {
                        accumulateRow(c, er, k, pf[r]);
                    }
                }
            }
        });
        if (!last) {
            finishColumns(cols, plb, top, pg, k);
        }
    }
    return p;
}

}  // namespace

SinkhornPotentials sinkhornLog(const at::Tensor& scores, const at::Tensor& logA,
                               const at::Tensor& logB, double epsilon, int iterations) {
    if (scores.dim() != 2 || logA.numel() != scores.size(0) || logB.numel() != scores.size(1)) {
        fail("Sinkhorn marginals do not match the score matrix", {}, "marginals",
             "[" + std::to_string(scores.size(0)) + "], [" + std::to_string(scores.size(1)) + "]",
             std::to_string(logA.numel()) + ", " + std::to_string(logB.numel()));
    }
    if (!(epsilon > 0) || iterations < 1) {
        fail("Sinkhorn needs epsilon > 0 and at least one iteration", {}, "epsilon/iterations",
             "> 0 / >= 1", std::to_string(epsilon) + " / " + std::to_string(iterations));
    }
    at::Tensor s = scores.to(at::kFloat).contiguous();
    at::Tensor la = logA.to(at::kFloat).contiguous(), lb = logB.to(at::kFloat).contiguous();
    const double smax = s.max().item<double>();
    const double smin = s.min().item<double>();
    if ((smax - smin) / epsilon < 80.0) {
        // E ∈ [e^-80, 1]: every sum has a term ≥ e^-80 times its largest weight (= 1 after the
        // max shift), so nothing underflows in F32.
        return sinkhornExp(s, la, lb, epsilon, iterations, smax);
    }
    SinkhornPotentials p{at::zeros({s.size(0)}, at::kFloat), at::zeros({s.size(1)}, at::kFloat)};
    at::Tensor lk = s / epsilon;
    for (int it = 0; it < iterations; ++it) {
        p.g = lb - (lk + p.f.unsqueeze(1)).logsumexp(0);
        p.f = la - (lk + p.g.unsqueeze(0)).logsumexp(1);
    }
    return p;
}

at::Tensor sinkhornLogPlan(const at::Tensor& scores, const SinkhornPotentials& p, double epsilon) {
    return scores.to(at::kFloat) / epsilon + p.f.unsqueeze(1) + p.g.unsqueeze(0);
}

at::Tensor sinkhornPlan(const at::Tensor& scores, const SinkhornPotentials& p, double epsilon) {
    const at::Tensor s = scores.to(at::kFloat).contiguous();
    const at::Tensor f = p.f.to(at::kFloat).unsqueeze(1), g = p.g.to(at::kFloat).unsqueeze(0);
    at::Tensor out = at::empty_like(s);
    // Blocks of about 1 MiB, each scaled, shifted and exponentiated where it will stay, while in
    // cache: the three-temporary expression above allocates three fresh B×K matrices, and at
    // 65,536 × 8192 (2 GiB each) faulting their pages in took longer than the arithmetic.
    const std::int64_t b = s.size(0), k = std::max<std::int64_t>(s.size(1), 1);
    const std::int64_t rows = std::max<std::int64_t>(1, (std::int64_t(1) << 18) / k);
    for (std::int64_t r0 = 0; r0 < b; r0 += rows) {
        const std::int64_t n = std::min(rows, b - r0);
        at::Tensor o = out.narrow(0, r0, n);
        o.copy_(s.narrow(0, r0, n)).div_(epsilon).add_(f.narrow(0, r0, n)).add_(g).exp_();
    }
    return out;
}

}  // namespace once
