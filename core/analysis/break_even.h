#pragma once
// The break-even count of the paper's "One-time offline cost" paragraph: with offline work
// T_A + T_B (Stage A extraction, Stage B fitting) and a per-video latency saving
// ℓ_dense − ℓ_method, N* = (T_A + T_B) / (ℓ_dense − ℓ_method) inferences repay the codebook.
// Latencies come from `once eval` results (mean end-to-end seconds over the questions answered
// both dense and by the method) or are given directly.
#include <cstdint>
#include <string>
#include <vector>

#include "eval/eval_record.h"

namespace once {

/// +infinity when the saving is not positive (the method never repays the offline cost).
double breakEvenCount(double offlineSeconds, double latencyDifferenceSeconds);

struct BreakEvenRow {
    std::string benchmark, method;  ///< method label as in the eval report
    std::int64_t budget = 0;
    std::int64_t questions = 0;                  ///< answered both dense and by the method
    double denseSeconds = 0, methodSeconds = 0;  ///< mean end-to-end latency per question
    double offlineSeconds = 0;
    double nStar = 0;  ///< +inf when methodSeconds >= denseSeconds
};

/// One row per (benchmark, method, budget) with dense records of the same questions.
std::vector<BreakEvenRow> breakEvenFromResults(const std::vector<EvalRecord>& records,
                                               double offlineSeconds);

std::string breakEvenTableText(const std::vector<BreakEvenRow>& rows);
/// benchmark,method,budget,questions,dense_seconds,method_seconds,difference_seconds,
/// offline_seconds,n_star
std::string breakEvenCsv(const std::vector<BreakEvenRow>& rows);

}  // namespace once
