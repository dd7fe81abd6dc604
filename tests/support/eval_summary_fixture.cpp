#include "support/eval_summary_fixture.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace once::test {

EvalSummary sampleEvalSummary() {
    EvalSummary s;
    s.benchmarks = {"mvbench", "egoschema"};
    for (const char* bench : {"mvbench", "egoschema"}) {
        for (const auto& [method, budget] : std::vector<std::pair<std::string, std::int64_t>>{
                 {"dense", 0}, {"once", 256}, {"once", 64}, {"tome{r=2,x=1}", 64}}) {
            AccuracyCell c;
            c.benchmark = bench;
            c.method = method;
            c.budget = budget;
            c.questions = 100;
            const double pct = 40.0 + double(budget) / 16.0 + (method == "dense" ? 30 : 0);
            c.accuracyPct = {pct, pct - 4, pct + 3};
            s.accuracy.push_back(c);
            c.task = "Action Count";  // a per-task row: not on the accuracy chart
            s.accuracy.push_back(c);

            EfficiencyRow e;
            e.benchmark = bench;
            e.method = method;
            e.budget = budget;
            e.questions = 100;
            e.visualTokens = budget == 0 ? 6272 : double(budget) + 1;
            e.e2eSeconds = 0.5 + e.visualTokens / 1000.0;
            s.efficiency.push_back(e);
        }
    }
    return s;
}

}  // namespace once::test
