#pragma once
// A measured sweep over budgets: re-compression of one video from its prepared compressor
// (compress/prepared_compressor.h: ONCE's assignment, a peer's prepared state) at budgets
// min, powers of two, … max, timed stage by stage (median of a few repeats). Engine code: the
// studio's chart and any tool draw or print it. Cancellable through Progress between
// compressions.
#include <cstddef>
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
    /// Ended by a cancel: `points` holds the budgets measured before it (of plannedBudgets).
    bool cancelled = false;
    std::size_t plannedBudgets = 0;
    /// The server ("host:port") whose compressor was timed; "" for this machine. A server's
    /// sweep times compression only (no prefill or end-to-end times).
    std::string machine;
};

/// Budgets `min`, then the powers of two above it, and `max` itself, ascending (empty when
/// max < min): a method's BudgetRange (compress/token_compressor.h; ONCE 1 … K).
std::vector<std::int64_t> sweepBudgets(std::int64_t max, std::int64_t min = 1);

/// Times `compress` (a prepared compressor's measure()) at each of `budgets` (`repeats` runs,
/// the median of each stage of CompressionResult::seconds: ONCE's select, reassign and pool; a
/// peer records its whole compress() as pool). `prepareMs` is its once-per-video part.
/// A cancel (through `progress`) ends the sweep early and returns the budgets measured so far,
/// with `cancelled` set: minutes of measurement are not thrown away.
BudgetSweep measureCompressorSweep(
    const std::function<CompressionResult(std::int64_t budget)>& compress,
    const std::vector<std::int64_t>& budgets, std::int64_t numTokens, double prepareMs, int repeats,
    Progress* progress);

}  // namespace once
