#pragma once
// The compression controller's jobs asked of a `once serve` while the session's RemoteConnection
// is connected (issue 29: budgets and the overlay use the remote engine; this machine only
// decodes for display): a compression at the document's method and budget, and the budget
// sweep timed by the server. Like sweep_job.h, what they need is copied from the document when
// the job is made. A failure of the server is delivered, not thrown, so that the controller can
// say what happened and compress on this machine instead; a cancel (the slider moved on) closes
// the connection, which cancels the server's work.
#include <QString>
#include <functional>
#include <memory>

#include "analysis/budget_sweep.h"
#include "tasks/background_task.h"

namespace once {
struct CompressionResult;
}

namespace once::studio {

class StudioSession;

/// What a remote job ended with: the result, or why there is none.
struct RemoteOutcome {
    std::shared_ptr<const once::CompressionResult> result;  ///< null when it failed
    QString machine;                                        ///< the server's host:port
    QString error;             ///< the server's or the connection's message (empty on success)
    bool unreachable = false;  ///< the server is gone: work on this machine from now on
    bool busy = false;         ///< HTTP 429: "server busy, retry in N s"
    /// The server's token grid is not the video on screen (another encoder, sampling or
    /// pooling here): its groups cannot be drawn.
    bool otherGrid = false;
};

/// Compresses the document's video (its file) at its method, variant and budget on the server.
BackgroundTask::Work makeRemoteCompressJob(const StudioSession& session,
                                           std::function<void(const RemoteOutcome&)> deliver);

/// Times the server's compression over the method's budgets (the local sweep's budgets and
/// repeats); prefill and end-to-end times are not measured there (BudgetSweep::machine names
/// the server; the chart says so). `failed` gets a failure; `deliver` the sweep, also a
/// cancelled one with the budgets measured before.
BackgroundTask::Work makeRemoteSweepJob(const StudioSession& session,
                                        std::function<void(const BudgetSweep&)> deliver,
                                        std::function<void(const RemoteOutcome&)> failed);

}  // namespace once::studio
