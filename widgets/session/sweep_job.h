#pragma once
// The budget sweep of the document's current method as a job for the compression controller's
// sweep worker: what it measures (the prepared compressor, budgets, model) is copied from the
// document when the job is made, so the document may change while it runs.
#include <functional>
#include <memory>

#include "analysis/budget_sweep.h"
#include "tasks/background_task.h"

namespace once {
class PreparedCompressor;
}

namespace once::studio {

class StudioSession;

/// Times compression over the method's valid budgets (its BudgetRange on the current video;
/// ONCE 1 … K) from `compressor`, prepared for the current video, and prefill and end-to-end
/// time when a model folder is open. `deliver` gets the sweep on the GUI thread — also a cancelled
/// one with the budgets measured before the cancel (BudgetSweep::cancelled; the sweep task
/// delivers when cancelled), unless none was.
BackgroundTask::Work makeSweepJob(const StudioSession& session,
                                  std::shared_ptr<once::PreparedCompressor> compressor,
                                  std::function<void(const BudgetSweep&)> deliver);

}  // namespace once::studio
