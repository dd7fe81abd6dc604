#include "session/sweep_job.h"

#include "compress/prepared_compressor.h"
#include "session/model_latency.h"
#include "session/studio_session.h"

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
    return [=](once::Progress& progress) -> BackgroundTask::Deliver {
        auto sweep = std::make_shared<BudgetSweep>(measureCompressorSweep(
            [compressor](std::int64_t budget) { return compressor->measure(budget); },
            sweepBudgets(range.max, range.min), numTokens, compressor->prepareMs(), kSweepRepeats,
            &progress));
        sweep->method = compressor->method();
        if (withModel) {
            measureModelLatency(*sweep, *pipeline, key, inputs, compressor->method(),
                                compressor->params(), &progress);
        }
        return [sweep, deliver] { deliver(*sweep); };
    };
}

}  // namespace once::studio
