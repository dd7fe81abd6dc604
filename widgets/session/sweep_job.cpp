#include "session/sweep_job.h"

#include "codebook/codebook.h"
#include "session/methods.h"
#include "session/model_latency.h"
#include "session/prepared_peer.h"
#include "session/studio_session.h"

namespace once::studio {
namespace {
/// Runs per budget; the chart draws their median.
constexpr int kSweepRepeats = 3;
}  // namespace

BackgroundTask::Work makeSweepJob(const StudioSession& session, std::shared_ptr<PreparedPeer> peer,
                                  std::function<void(const BudgetSweep&)> deliver) {
    const VideoData& video = session.video();
    const std::string method = session.method().toStdString();
    const at::Tensor features = video.features;
    const std::int64_t numTokens = video.numTokens();
    // A peer is measured over the budgets it honours (below its minimum it gives no token).
    const once::BudgetRange range = session.budgetRange();
    auto assignment = session.assignment();
    auto codebook = session.codebook();
    const auto variant = session.variant();
    // With a model, prefill and end-to-end time are measured too.
    const bool withModel = session.model().has_value() && !video.path.isEmpty();
    const PipelineKey key = session.pipelineKey();
    const PipelineInputs inputs = session.pipelineInputs();
    auto pipeline = session.answerPipeline();
    once::CompressorParams params;
    if (methods::hasVariants(session.method())) {
        params["variant"] = once::variantName(variant);
    }
    return [=](once::Progress& progress) -> BackgroundTask::Deliver {
        std::shared_ptr<BudgetSweep> sweep;
        if (!peer) {
            sweep = std::make_shared<BudgetSweep>(measureBudgetSweep(
                features, *assignment, *codebook, variant, kSweepRepeats, &progress));
        } else {
            sweep = std::make_shared<BudgetSweep>(measureCompressorSweep(
                [peer](std::int64_t budget) { return peer->measure(budget); },
                sweepBudgets(range.max, range.min), numTokens, peer->prepareMs(), kSweepRepeats,
                &progress));
        }
        sweep->method = method;
        if (withModel) {
            measureModelLatency(*sweep, *pipeline, key, inputs, method, params, &progress);
        }
        return [sweep, deliver] { deliver(*sweep); };
    };
}

}  // namespace once::studio
