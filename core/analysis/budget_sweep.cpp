#include "analysis/budget_sweep.h"

#include <algorithm>

#include "util/error.h"

namespace once {
namespace {
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}
}  // namespace

std::vector<std::int64_t> sweepBudgets(std::int64_t max, std::int64_t min) {
    std::vector<std::int64_t> out;
    min = std::max<std::int64_t>(1, min);
    if (max < min) {
        return out;
    }
    out.push_back(min);
    std::int64_t b = 1;
    while (b <= min) {
        b *= 2;
    }
    for (; b < max; b *= 2) {
        out.push_back(b);
    }
    if (max > min) {
        out.push_back(max);
    }
    return out;
}

namespace {

/// The measuring loop of measureCompressorSweep, appending each budget's point as it is done.
void measureBudgets(BudgetSweep& sweep,
                    const std::function<CompressionResult(std::int64_t budget)>& compress,
                    const std::vector<std::int64_t>& budgets, int repeats, Progress* progress) {
    for (std::size_t i = 0; i < budgets.size(); ++i) {
        std::vector<double> select, reassign, pool;
        SweepPoint p;
        p.budget = budgets[i];
        for (int r = 0; r < repeats; ++r) {
            if (progress) {
                progress->throwIfCancelled();
            }
            const auto result = compress(budgets[i]);
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
}

}  // namespace

BudgetSweep measureCompressorSweep(
    const std::function<CompressionResult(std::int64_t budget)>& compress,
    const std::vector<std::int64_t>& budgets, std::int64_t numTokens, double prepareMs, int repeats,
    Progress* progress) {
    BudgetSweep sweep;
    sweep.denseTokens = numTokens;
    sweep.assignMs = prepareMs;
    if (progress) {
        progress->begin("budget sweep", static_cast<double>(budgets.size()));
    }
    repeats = std::max(1, repeats);
    sweep.plannedBudgets = budgets.size();
    try {
        measureBudgets(sweep, compress, budgets, repeats, progress);
    } catch (const Cancelled&) {
        sweep.cancelled = true;
    }
    return sweep;
}

}  // namespace once
