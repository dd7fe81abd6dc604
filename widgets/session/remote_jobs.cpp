#include "session/remote_jobs.h"

#include "compress/compression.h"
#include "compress/prepared_compressor.h"
#include "serve/remote_client.h"
#include "session/methods.h"
#include "session/remote_connection.h"
#include "session/studio_session.h"
#include "util/error.h"

namespace once::studio {
namespace {

/// Runs per budget, as the local sweep (sweep_job.cpp); the chart draws their median.
constexpr int kSweepRepeats = 3;

/// What every remote job copies from the document.
struct RemoteInputs {
    once::serve::RemoteEndpoint endpoint;
    std::string path, sampling;
    QString machine;
    std::int64_t videoTokens = 0;
    once::AskOptions options;  ///< method, params (the variant) and seed; the budget per call

    explicit RemoteInputs(const StudioSession& s)
        : endpoint(s.remote()->endpoint()),
          path(s.video().path.toStdString()),
          sampling(RemoteConnection::samplingFor(s.pipelineSettings())),
          machine(s.remote()->machine()),
          videoTokens(s.video().numTokens()) {
        options.method = s.method().toStdString();
        options.params = methods::params(s.method(), s.variant());
        options.seed = once::PreparedCompressor::kSeed;  // the local compressions' seed
    }

    once::serve::RemoteCompression compress(std::int64_t budget,
                                            const once::CancelToken& cancel) const {
        once::AskOptions o = options;
        o.budget = budget;
        return once::serve::remoteCompress(endpoint, path, o, sampling, cancel);
    }
};

/// The outcome of a server's refusal or a lost connection.
RemoteOutcome failure(const once::OnceError& e, const QString& machine) {
    RemoteOutcome o;
    o.machine = machine;
    o.error = QString::fromStdString(e.what());
    o.unreachable = e.where().field == once::serve::kUnreachableField;
    o.busy = e.where().field == once::serve::kBusyField;
    return o;
}

}  // namespace

BackgroundTask::Work makeRemoteCompressJob(const StudioSession& session,
                                           std::function<void(const RemoteOutcome&)> deliver) {
    const RemoteInputs in(session);
    const std::int64_t budget = session.budget();
    const once::Variant variant = session.variant();
    return [=](once::Progress& progress) -> BackgroundTask::Deliver {
        RemoteOutcome o;
        o.machine = in.machine;
        try {
            const once::serve::RemoteCompression r = in.compress(budget, progress.token());
            if (r.result->numTokens != in.videoTokens) {
                o.otherGrid = true;
                o.error = QString::number(r.result->numTokens);
            } else {
                auto result = std::make_shared<once::CompressionResult>(*r.result);
                result->variant = variant;  // a parameter the server does not echo
                o.result = std::move(result);
            }
        } catch (const once::Cancelled&) {
            throw;
        } catch (const once::OnceError& e) {
            o = failure(e, in.machine);
        }
        return [o, deliver] { deliver(o); };
    };
}

BackgroundTask::Work makeRemoteSweepJob(const StudioSession& session,
                                        std::function<void(const BudgetSweep&)> deliver,
                                        std::function<void(const RemoteOutcome&)> failed) {
    const RemoteInputs in(session);
    const once::BudgetRange range = session.budgetRange();
    return [=](once::Progress& progress) -> BackgroundTask::Deliver {
        const std::vector<std::int64_t> budgets = sweepBudgets(range.max, range.min);
        try {
            if (budgets.empty()) {
                return {};
            }
            // The first compression prepares the method on the server (if it was not) and
            // says what that costs once per video, as the local sweep's prepareMs.
            const double prepareMs = in.compress(budgets.front(), progress.token()).prepareMs;
            auto sweep = std::make_shared<BudgetSweep>(measureCompressorSweep(
                [&](std::int64_t budget) { return *in.compress(budget, progress.token()).result; },
                budgets, in.videoTokens, prepareMs, kSweepRepeats, &progress));
            sweep->method = in.options.method;
            sweep->machine = in.machine.toStdString();
            if (sweep->cancelled && sweep->points.empty()) {
                return {};
            }
            return [sweep, deliver] { deliver(*sweep); };
        } catch (const once::Cancelled&) {
            throw;
        } catch (const once::OnceError& e) {
            const RemoteOutcome o = failure(e, in.machine);
            return [o, failed] { failed(o); };
        }
    };
}

}  // namespace once::studio
