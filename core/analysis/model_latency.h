#pragma once
// Prefill and end-to-end times added to a budget sweep (analysis/budget_sweep.h) by answering
// with the studio's pipeline: the budget chart's latency axis when a model folder is open.
#include <map>
#include <string>

#include "analysis/budget_sweep.h"
#include "util/progress.h"

namespace once::studio {

class AnswerPipeline;
struct PipelineKey;
struct PipelineInputs;

/// Adds prefill and end-to-end times measured with the answering pipeline: one short answer
/// (8 new tokens) dense and at each budget of the sweep with `method` and its `params` (a method
/// that needs a codebook only when `inputs` have one). End to end = compress + prefill + generate
/// of that answer, the video being encoded already.
void measureModelLatency(once::BudgetSweep& sweep, AnswerPipeline& pipeline, const PipelineKey& key,
                         const PipelineInputs& inputs, const std::string& method,
                         const std::map<std::string, std::string>& params,
                         once::Progress* progress);

}  // namespace once::studio
