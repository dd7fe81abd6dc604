#pragma once
// A measured sweep over budgets: re-compression of one video from its cached assignment (ONCE)
// or its prepared state (a peer) at budgets 1, 2, 4, … K, timed stage by stage (median of a few
// repeats). Engine code: the studio's chart and any tool draw or print it. Cancellable through
// Progress between compressions.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compress/compression.h"
#include "util/progress.h"

namespace once {

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

/// Budgets `min`, then the powers of two above it, and `max` itself, ascending (empty when
/// max < min). ONCE sweeps 1 … K; a peer its BudgetRange (compress/token_compressor.h).
std::vector<std::int64_t> sweepBudgets(std::int64_t max, std::int64_t min = 1);

/// Times compressAssigned at each budget (`repeats` runs, median per stage). Cancellable.
BudgetSweep measureBudgetSweep(const at::Tensor& features, const Assignment& assignment,
                               const Codebook& codebook, Variant variant, int repeats,
                               Progress* progress);

/// Times `compress` (a prepared peer's compress()) at each of `budgets` (`repeats` runs, the
/// median; the whole time is recorded as poolMs). `prepareMs` is its once-per-video part.
BudgetSweep measureCompressorSweep(
    const std::function<CompressionResult(std::int64_t budget)>& compress,
    const std::vector<std::int64_t>& budgets, std::int64_t numTokens, double prepareMs, int repeats,
    Progress* progress);

}  // namespace once
