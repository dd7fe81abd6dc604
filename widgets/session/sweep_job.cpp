#include "session/sweep_job.h"

#include "analysis/model_latency.h"
#include "compress/prepared_compressor.h"
#include "session/answer_pipeline.h"
#include "session/methods.h"
#include "session/studio_session.h"
#include "util/error.h"

namespace once::studio {
namespace {
/// Runs per budget; the chart draws their median.
constexpr int kSweepRepeats = 3;
}  // namespace

BackgroundTask::Work makeSweepJob(const StudioSession& session,
                                  std::shared_ptr<once::PreparedCompressor> compressor,
                                  std::function<void(const BudgetSweep&)> deliver) {
    const VideoData& video = session.video();
    const std::int64_t numTokens = video.numTokens();
    // Measured over the budgets the method honours (below a peer's minimum it gives no token).
    const once::BudgetRange range = session.budgetRange();
    // With a model, prefill and end-to-end time are measured too.
    const bool withModel = session.model().has_value() && !video.path.isEmpty();
    const PipelineKey key = session.pipelineKey();
    const PipelineInputs inputs = session.pipelineInputs();
    auto pipeline = session.answerPipeline();
    const QString method = session.method();
    return [=](once::Progress& progress) -> BackgroundTask::Deliver {
        auto sweep = std::make_shared<BudgetSweep>(measureCompressorSweep(
            [compressor](std::int64_t budget) { return compressor->measure(budget); },
            sweepBudgets(range.max, range.min), numTokens, compressor->prepareMs(), kSweepRepeats,
            &progress));
        sweep->method = compressor->method();
        if (withModel && !sweep->cancelled) {
            try {
                auto lease = pipeline->acquire(key, inputs, &progress);
                // A method that needs a codebook has budgets only when the studio has one.
                const bool compressed =
                    !methods::needsCodebook(method) || inputs.codebook != nullptr;
                once::measureModelLatency(*sweep, lease.session(), compressor->method(),
                                          compressor->params(), compressed, &progress);
            } catch (const once::Cancelled&) {
                sweep->cancelled = true;  // the compression times measured are kept
            }
        }
        if (sweep->cancelled && sweep->points.empty()) {
            return {};  // cancelled before the first budget: the previous sweep stays
        }
        return [sweep, deliver] { deliver(*sweep); };
    };
}

}  // namespace once::studio
