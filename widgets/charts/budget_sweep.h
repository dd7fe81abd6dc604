#pragma once
// A measured sweep over budgets: re-compression of one video from its cached assignment at
// budgets 1, 2, 4, … K, timed stage by stage (median of a few repeats). Runs on a worker.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "compress/compression.h"
#include "util/progress.h"

namespace once::studio {

struct SweepPoint {
    std::int64_t budget = 0;
    std::int64_t outputs = 0;  ///< M
    double coverage = 1;
    double selectMs = 0, reassignMs = 0, poolMs = 0;
    double compressMs() const { return selectMs + reassignMs + poolMs; }
    double prefillMs = -1;  ///< measured with a loaded model; negative: not measured
    double endToEndMs = -1;
};

struct BudgetSweep {
    std::string method = "once";  ///< registry name of the compressor measured
    std::vector<SweepPoint> points;
    std::int64_t denseTokens = 0;  ///< N: what the LLM gets without compression
    double assignMs = 0;           ///< step 1 (a peer: its prepare()), paid once per video
    double densePrefillMs = -1, denseEndToEndMs = -1;
};

/// Budgets 1, 2, 4, … and K itself, ascending.
std::vector<std::int64_t> sweepBudgets(std::int64_t codebookSize);

/// Times compressAssigned at each budget (`repeats` runs, median per stage). Cancellable.
BudgetSweep measureBudgetSweep(const at::Tensor& features, const once::Assignment& assignment,
                               const once::Codebook& codebook, once::Variant variant, int repeats,
                               once::Progress* progress);

/// Times `compress` (a prepared peer's compress()) at each of `budgets` (`repeats` runs, the
/// median; the whole time is recorded as poolMs). `prepareMs` is its once-per-video part.
BudgetSweep measureCompressorSweep(
    const std::function<once::CompressionResult(std::int64_t budget)>& compress,
    const std::vector<std::int64_t>& budgets, std::int64_t numTokens, double prepareMs, int repeats,
    once::Progress* progress);

class AnswerPipeline;
struct PipelineKey;

/// Adds prefill and end-to-end times measured with the answering pipeline: one short answer
/// (8 new tokens) dense and at each budget of the sweep with `method` and its `params` (ONCE's
/// budgets only when `key` has a codebook file). End to end = compress + prefill + generate of
/// that answer, the video's features being cached.
void measureModelLatency(BudgetSweep& sweep, AnswerPipeline& pipeline, const PipelineKey& key,
                         const std::string& method,
                         const std::map<std::string, std::string>& params,
                         once::Progress* progress);

}  // namespace once::studio
