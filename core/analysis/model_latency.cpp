#include "session/model_latency.h"

#include <optional>

#include "compress/token_compressor.h"
#include "pipeline/session.h"
#include "session/answer_pipeline.h"

namespace once::studio {

void measureModelLatency(once::BudgetSweep& sweep, AnswerPipeline& pipeline, const PipelineKey& key,
                         const PipelineInputs& inputs, const std::string& method,
                         const std::map<std::string, std::string>& params,
                         once::Progress* progress) {
    auto lease = pipeline.acquire(key, inputs, progress);
    // A method that needs a codebook has budgets only when the key has one.
    const bool compressed =
        !once::compressorInfo(method).needsCodebook || inputs.codebook != nullptr;
    if (progress) {
        progress->begin("prefill sweep",
                        1.0 + (compressed ? static_cast<double>(sweep.points.size()) : 0.0));
    }
    auto timeAnswer = [&](std::optional<std::int64_t> budget, double& prefillMs, double& e2eMs) {
        once::AskOptions o;
        o.budget = budget;
        o.maxNewTokens = 8;
        if (budget) {
            o.method = method;
            o.params = params;
        }
        const once::AskReport r = lease.session().ask("Describe the video briefly.", o, progress);
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
        once::SweepPoint& p = sweep.points[i];
        timeAnswer(p.budget, p.prefillMs, p.endToEndMs);
        if (progress) {
            progress->update(static_cast<double>(i + 2));
        }
    }
}

}  // namespace once::studio
