#include "analysis/model_latency.h"

#include <optional>

#include "pipeline/answer_session.h"

namespace once {

void measureModelLatency(BudgetSweep& sweep, AnswerSession& session, const std::string& method,
                         const std::map<std::string, std::string>& params, bool compressed,
                         Progress* progress) {
    if (progress) {
        progress->begin("prefill sweep",
                        1.0 + (compressed ? static_cast<double>(sweep.points.size()) : 0.0));
    }
    auto timeAnswer = [&](std::optional<std::int64_t> budget, double& prefillMs, double& e2eMs) {
        AskOptions o;
        o.budget = budget;
        o.maxNewTokens = 8;
        if (budget) {
            o.method = method;
            o.params = params;
        }
        const AskReport r = session.ask("Describe the video briefly.", o, progress);
        prefillMs = 0;
        e2eMs = 0;
        for (const auto& s : r.stages) {
            if (s.name == "prefill") {
                prefillMs = s.seconds * 1e3;
            }
            if (s.name == "compress" || s.name == "prefill" || s.name == "generate") {
                e2eMs += s.seconds * 1e3;
            }
        }
    };
    timeAnswer(std::nullopt, sweep.densePrefillMs, sweep.denseEndToEndMs);
    if (progress) {
        progress->update(1);
    }
    if (!compressed) {
        return;
    }
    for (std::size_t i = 0; i < sweep.points.size(); ++i) {
        SweepPoint& p = sweep.points[i];
        timeAnswer(p.budget, p.prefillMs, p.endToEndMs);
        if (progress) {
            progress->update(static_cast<double>(i + 2));
        }
    }
}

}  // namespace once
