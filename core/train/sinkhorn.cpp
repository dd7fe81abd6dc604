#include "train/sinkhorn.h"

#include <ATen/ATen.h>

#include "util/error.h"

namespace once {

namespace {

// log Σ_j exp(x_j) for x = log(E·s) + shifts, with E = exp(S/ε − top) and s = exp(p − max p).
at::Tensor shiftedLse(const at::Tensor& matVec, double top, const at::Tensor& pot) {
    return matVec.log() + top + pot.max();
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
    SinkhornPotentials p{at::zeros({s.size(0)}, at::kFloat), at::zeros({s.size(1)}, at::kFloat)};
    const double top = s.max().item<double>() / epsilon;
    const double bottom = s.min().item<double>() / epsilon;
    if (top - bottom < 80.0) {
        // E ∈ [e^-80, 1]: every matrix-vector sum has a term ≥ e^-80 times its largest weight
        // (= 1 after the max shift), so nothing underflows in F32.
        at::Tensor e = (s / epsilon - top).exp_();
        at::Tensor et = e.t();
        for (int it = 0; it < iterations; ++it) {
            p.g = lb - shiftedLse(at::mv(et, (p.f - p.f.max()).exp()), top, p.f);
            p.f = la - shiftedLse(at::mv(e, (p.g - p.g.max()).exp()), top, p.g);
        }
        return p;
    }
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

}  // namespace once
