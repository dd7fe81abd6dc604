#pragma once
// Summaries of evaluation results: accuracy overall and per task with question-level bootstrap
// 95% CIs (SplitMix64 from an explicit seed, so tests/reference/eval_report.py reproduces them),
// the budget × method accuracy table in the layout of the paper's Table 1 (dense row first, then
// each budget's methods; one column per benchmark), and the efficiency table (visual tokens,
// prefill FLOPs, latency, and their change relative to dense), as text and CSV.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/diagnostics.h"
#include "eval/eval_record.h"

namespace once {

struct AccuracyCell {
    std::string benchmark, method;  ///< method label ("dense", "once", "tome{r=2}")
    std::int64_t budget = 0;        ///< 0: dense
    std::string task;               ///< empty: overall
    std::int64_t questions = 0, correct = 0;
    Estimate accuracyPct;  ///< percent, percentile 95% CI over resampled questions
};

struct EfficiencyRow {
    std::string benchmark, method;
    std::int64_t budget = 0;
    std::int64_t questions = 0;
    double visualTokens = 0;                    ///< mean content + layout tokens entering the LLM
    double prefillFlops = 0;                    ///< mean
    double prefillSeconds = 0, e2eSeconds = 0;  ///< means
    /// Relative to the dense rows of the same benchmark and questions (NaN without them).
    double tokenReductionPct = 0, flopsReductionPct = 0, speedup = 0;
};

struct EvalSummary {
    std::vector<AccuracyCell> accuracy;  ///< overall cells, then per-task cells
    std::vector<EfficiencyRow> efficiency;
    std::vector<std::string> benchmarks;  ///< in order of appearance
};

/// Most bootstrap resamples (each holds one accuracy per cell in memory while sorting).
constexpr std::int64_t kMaxBootstrapResamples = 1'000'000;

/// Bootstrap with `bootstrap` resamples (0: no interval; above kMaxBootstrapResamples an
/// OnceError); each cell draws from its own SplitMix64(seed) stream over its questions sorted
/// by id.
EvalSummary summarizeResults(const std::vector<EvalRecord>& records, std::int64_t bootstrap = 1000,
                             std::uint64_t seed = 20260811);

/// Table 1 layout: rows "budget, method", columns benchmarks, cells "acc [lo, hi]".
std::string accuracyTableText(const EvalSummary& s);
/// Long form, one row per cell (overall and per task): benchmark,method,budget,task,n,correct,
/// accuracy,ci_lo,ci_hi.
std::string accuracyCsv(const EvalSummary& s);
std::string efficiencyTableText(const EvalSummary& s);
std::string efficiencyCsv(const EvalSummary& s);
/// Per-task accuracy of one benchmark as text (rows tasks, columns budget/method).
std::string perTaskTableText(const EvalSummary& s, const std::string& benchmark);

}  // namespace once
