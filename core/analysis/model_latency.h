#pragma once
// Prefill and end-to-end times added to a budget sweep (analysis/budget_sweep.h) by answering
// with a loaded model: the studio's budget chart's latency axis when a model folder is open, and
// any tool's.
#include <map>
#include <string>

#include "analysis/budget_sweep.h"
#include "util/progress.h"

namespace once {

class AnswerSession;

/// Adds prefill and end-to-end times measured with `session` (its video loaded): one short
/// answer (8 new tokens) dense and, when `compressed`, at each budget of the sweep with `method`
/// and its `params` (a method that needs a codebook only when the session has one). End to end
/// = compress + prefill + generate of that answer, the video being encoded already.
void measureModelLatency(BudgetSweep& sweep, AnswerSession& session, const std::string& method,
                         const std::map<std::string, std::string>& params, bool compressed,
                         Progress* progress);

}  // namespace once
