#pragma once
// Entropy-regularised balanced optimal transport (paper Eq. "balanced_ot"), log domain:
//   Γ = diag(e^f) exp(S/ε) diag(e^g),  Γ1 = a,  Γᵀ1 = b.
// One iteration is a column update then a row update (the order of POT's sinkhorn_log), so the
// returned plan has exact row marginals a — the representatives' training mass.
#include <ATen/core/Tensor.h>

namespace once {

struct SinkhornPotentials {
    at::Tensor f;  ///< [B] F32 row log-scalings
    at::Tensor g;  ///< [K] F32 column log-scalings
};

/// scores S [B, K] F32 (cosines), logA [B], logB [K] (log marginals), ε > 0, iterations ≥ 1.
/// When every S/ε lies within 80 of its maximum (cosines with ε ≥ 0.025) the log-sum-exps are
/// evaluated in the exp domain over one E = exp(S/ε − max) matrix with max-shifted potentials —
/// the same potentials without an exp per element per iteration — and each iteration's row
/// update is fused with the next column sums, so E is read iterations + 1 times, on all cores,
/// in a fixed partition (the result does not depend on the thread count). Otherwise a
/// per-element log-sum-exp is used.
SinkhornPotentials sinkhornLog(const at::Tensor& scores, const at::Tensor& logA,
                               const at::Tensor& logB, double epsilon, int iterations);

/// log Γ = S/ε + f + g, the full plan in log space (tests and small problems).
at::Tensor sinkhornLogPlan(const at::Tensor& scores, const SinkhornPotentials& p, double epsilon);

/// Γ = exp(S/ε + f + g), the plan itself (what POT's sinkhorn_log returns), built in place block
/// by block: one B×K allocation instead of four.
at::Tensor sinkhornPlan(const at::Tensor& scores, const SinkhornPotentials& p, double epsilon);

}  // namespace once
