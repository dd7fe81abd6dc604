#include "charts/budget_sweep.h"

#include <algorithm>

#include "pipeline/session.h"
#include "session/answer_pipeline.h"

namespace once::studio {
namespace {
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}
}  // namespace

std::vector<std::int64_t> sweepBudgets(std::int64_t codebookSize) {
    std::vector<std::int64_t> out;
    for (std::int64_t b = 1; b < codebookSize; b *= 2) {
        out.push_back(b);
    }
    if (codebookSize >= 1) {
        out.push_back(codebookSize);
    }
    return out;
}

BudgetSweep measureBudgetSweep(const at::Tensor& features, const once::Assignment& assignment,
                               const once::Codebook& codebook, once::Variant variant, int repeats,
                               once::Progress* progress) {
    BudgetSweep sweep;
    sweep.denseTokens = assignment.numTokens;
    sweep.assignMs = assignment.seconds * 1e3;
    const auto budgets = sweepBudgets(assignment.codebookSize);
    if (progress) {
        progress->begin("budget sweep", static_cast<double>(budgets.size()));
    }
    repeats = std::max(1, repeats);
    for (std::size_t i = 0; i < budgets.size(); ++i) {
        once::CompressOptions options;
        options.budget = budgets[i];
        options.variant = variant;
        std::vector<double> select, reassign, pool;
        SweepPoint p;
        p.budget = budgets[i];
        for (int r = 0; r < repeats; ++r) {
            const auto result = once::compressAssigned(features, assignment, codebook, options);
            select.push_back(result.seconds.select * 1e3);
            reassign.push_back(result.seconds.reassign * 1e3);
            pool.push_back(result.seconds.pool * 1e3);
            p.outputs = result.numOutputs;
            p.coverage = result.coverage;
        }
        p.selectMs = median(select);
        p.reassignMs = median(reassign);
        p.poolMs = median(pool);
        sweep.points.push_back(p);
        if (progress) {
            progress->update(static_cast<double>(i + 1));
        }
    }
    return sweep;
}

BudgetSweep measureCompressorSweep(
    const std::function<once::CompressionResult(std::int64_t budget)>& compress,
    const std::vector<std::int64_t>& budgets, std::int64_t numTokens, double prepareMs, int repeats,
    once::Progress* progress) {
    BudgetSweep sweep;
    sweep.denseTokens = numTokens;
    sweep.assignMs = prepareMs;
    if (progress) {
        progress->begin("budget sweep", static_cast<double>(budgets.size()));
    }
    repeats = std::max(1, repeats);
    for (std::size_t i = 0; i < budgets.size(); ++i) {
        std::vector<double> times;
        SweepPoint p;
        p.budget = budgets[i];
        for (int r = 0; r < repeats; ++r) {
            if (progress) {
                progress->throwIfCancelled();
            }
            const auto result = compress(budgets[i]);
            times.push_back(result.seconds.total() * 1e3 - result.seconds.assign * 1e3);
            p.outputs = result.numOutputs;
            p.coverage = result.coverage;
        }
        p.poolMs = median(times);
        sweep.points.push_back(p);
        if (progress) {
            progress->update(static_cast<double>(i + 1));
        }
    }
    return sweep;
}

void measureModelLatency(BudgetSweep& sweep, AnswerPipeline& pipeline, const PipelineKey& key,
                         const std::string& method,
                         const std::map<std::string, std::string>& params,
                         once::Progress* progress) {
    auto lease = pipeline.acquire(key, progress);
    const bool compressed = method != "once" || !key.codebook.isEmpty();
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
        SweepPoint& p = sweep.points[i];
        timeAnswer(p.budget, p.prefillMs, p.endToEndMs);
        if (progress) {
            progress->update(static_cast<double>(i + 2));
        }
    }
}

}  // namespace once::studio
