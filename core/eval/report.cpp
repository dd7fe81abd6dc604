#include "eval/report.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "compress/seeded_random.h"
#include "util/csv.h"
#include "util/error.h"

namespace once {
namespace {

// A row of Table 1: (budget, method label); dense first, budgets ascending, methods in order of
// first appearance.
struct RowKey {
    std::int64_t budget;
    int methodOrder;
    std::string method;
    bool operator<(const RowKey& o) const {
        return std::tie(budget, methodOrder) < std::tie(o.budget, o.methodOrder);
    }
};

Estimate accuracyWithCi(const std::vector<bool>& correct, std::int64_t bootstrap,
                        std::uint64_t seed) {
    const auto n = correct.size();
    double hits = double(std::count(correct.begin(), correct.end(), true));
    Estimate e;
    e.value = n ? 100.0 * hits / double(n) : 0.0;
    e.lo = e.hi = e.value;
    if (bootstrap <= 0 || n == 0) {
        return e;
    }
    SplitMix64 rng(seed);
    std::vector<double> draws;
    draws.reserve(std::size_t(bootstrap));
    for (std::int64_t b = 0; b < bootstrap; ++b) {
        std::size_t h = 0;
        for (std::size_t i = 0; i < n; ++i) {
            h += correct[std::size_t(rng.below(n))] ? 1 : 0;
        }
        draws.push_back(100.0 * double(h) / double(n));
    }
    e.lo = percentileLinear(draws, 2.5);
    e.hi = percentileLinear(draws, 97.5);
    return e;
}

std::string fmt(double v, int digits = 2) {
    if (std::isnan(v)) {
        return "-";
    }
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

std::string budgetText(std::int64_t b) {
    return b == 0 ? "dense" : std::to_string(b);
}

std::string padRight(const std::string& s, std::size_t w) {
    return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}

}  // namespace

EvalSummary summarizeResults(const std::vector<EvalRecord>& records, std::int64_t bootstrap,
                             std::uint64_t seed) {
    if (bootstrap > kMaxBootstrapResamples) {
        fail("too many bootstrap resamples", {}, "bootstrap",
             "at most " + std::to_string(kMaxBootstrapResamples), std::to_string(bootstrap));
    }
    EvalSummary s;
    std::map<std::string, int> methodOrder;
    std::set<std::string> seen;
    // (benchmark, row, task) → question id → record; the first record of a key wins.
    std::map<std::tuple<std::string, RowKey, std::string>, std::map<std::string, const EvalRecord*>>
        cells;
    for (const auto& r : records) {
        if (!seen.insert(r.key()).second) {
            continue;
        }
        if (std::find(s.benchmarks.begin(), s.benchmarks.end(), r.benchmark) ==
            s.benchmarks.end()) {
            s.benchmarks.push_back(r.benchmark);
        }
        const std::string label = r.methodLabel();
        if (!methodOrder.count(label)) {
            methodOrder[label] = label == "dense" ? -1 : int(methodOrder.size());
        }
        RowKey row{r.method == "dense" ? 0 : r.budget, methodOrder[label], label};
        cells[{r.benchmark, row, ""}][r.questionId] = &r;
        cells[{r.benchmark, row, r.task}][r.questionId] = &r;
    }
    std::vector<AccuracyCell> overall, perTask;
    for (const auto& [key, qs] : cells) {
        const auto& [bench, row, task] = key;
        AccuracyCell c;
        c.benchmark = bench;
        c.method = row.method;
        c.budget = row.budget;
        c.task = task;
        std::vector<bool> correct;
        for (const auto& [id, r] : qs) {  // sorted by question id
            correct.push_back(r->correct);
        }
        c.questions = std::int64_t(correct.size());
        c.correct = std::int64_t(std::count(correct.begin(), correct.end(), true));
        c.accuracyPct = accuracyWithCi(correct, bootstrap, seed);
        (task.empty() ? overall : perTask).push_back(c);
    }
    s.accuracy = overall;
    s.accuracy.insert(s.accuracy.end(), perTask.begin(), perTask.end());

    for (const auto& [key, qs] : cells) {
        const auto& [bench, row, task] = key;
        if (!task.empty()) {
            continue;
        }
        EfficiencyRow e;
        e.benchmark = bench;
        e.method = row.method;
        e.budget = row.budget;
        const std::map<std::string, const EvalRecord*>* dense = nullptr;
        for (const auto& [k2, q2] : cells) {
            if (std::get<0>(k2) == bench && std::get<1>(k2).method == "dense" &&
                std::get<2>(k2).empty()) {
                dense = &q2;
            }
        }
        double tok = 0, fl = 0, pre = 0, e2e = 0, dTok = 0, dFl = 0, dE2e = 0;
        std::int64_t matched = 0;
        for (const auto& [id, r] : qs) {
            tok += double(r->contentTokens) + double(r->layoutTokens);
            fl += r->prefillFlops;
            pre += r->seconds.count("prefill") ? r->seconds.at("prefill") : 0.0;
            e2e += r->seconds.count("e2e") ? r->seconds.at("e2e") : 0.0;
        }
        e.questions = std::int64_t(qs.size());
        const double n = double(std::max<std::size_t>(qs.size(), 1));
        e.visualTokens = tok / n;
        e.prefillFlops = fl / n;
        e.prefillSeconds = pre / n;
        e.e2eSeconds = e2e / n;
        // Relative columns over the questions answered both ways.
        double mTok = 0, mFl = 0, mE2e = 0;
        if (dense) {
            for (const auto& [id, r] : qs) {
                auto it = dense->find(id);
                if (it == dense->end()) {
                    continue;
                }
                ++matched;
                mTok += double(r->contentTokens) + double(r->layoutTokens);
                mFl += r->prefillFlops;
                mE2e += r->seconds.count("e2e") ? r->seconds.at("e2e") : 0.0;
                const EvalRecord* d = it->second;
                dTok += double(d->contentTokens) + double(d->layoutTokens);
                dFl += d->prefillFlops;
                dE2e += d->seconds.count("e2e") ? d->seconds.at("e2e") : 0.0;
            }
        }
        const double nan = std::numeric_limits<double>::quiet_NaN();
        e.tokenReductionPct = matched && dTok > 0 ? 100.0 * (1.0 - mTok / dTok) : nan;
        e.flopsReductionPct = matched && dFl > 0 ? 100.0 * (1.0 - mFl / dFl) : nan;
        e.speedup = matched && mE2e > 0 ? dE2e / mE2e : nan;
        s.efficiency.push_back(e);
    }
    return s;
}

std::string accuracyTableText(const EvalSummary& s) {
    std::ostringstream o;
    o << padRight("Token budget", 14) << padRight("Method", 22);
    for (const auto& b : s.benchmarks) {
        o << padRight(b, 24);
    }
    o << "\n";
    std::vector<std::pair<std::int64_t, std::string>> rows;
    for (const auto& c : s.accuracy) {
        if (c.task.empty() &&
            std::find(rows.begin(), rows.end(), std::make_pair(c.budget, c.method)) == rows.end()) {
            rows.push_back({c.budget, c.method});
        }
    }
    std::int64_t last = -1;
    for (const auto& [budget, method] : rows) {
        if (budget != last) {
            o << std::string(14 + 22 + 24 * s.benchmarks.size(), '-') << "\n";
        }
        // The paper labels the dense row with its visual token count (23329 for 32x729 + 1).
        std::string label = budget == last ? "" : budgetText(budget);
        if (budget == 0 && !s.efficiency.empty()) {
            for (const auto& e : s.efficiency) {
                if (e.budget == 0 && e.benchmark == s.benchmarks.front()) {
                    label = fmt(e.visualTokens, 0);
                }
            }
        }
        o << padRight(label, 14) << padRight(method, 22);
        last = budget;
        for (const auto& b : s.benchmarks) {
            std::string cell = "-";
            for (const auto& c : s.accuracy) {
                if (c.task.empty() && c.benchmark == b && c.budget == budget &&
                    c.method == method) {
                    cell = fmt(c.accuracyPct.value) + " [" + fmt(c.accuracyPct.lo, 1) + ", " +
                           fmt(c.accuracyPct.hi, 1) + "]";
                }
            }
            o << padRight(cell, 24);
        }
        o << "\n";
    }
    return o.str();
}

std::string accuracyCsv(const EvalSummary& s) {
    std::ostringstream o;
    o << "benchmark,method,budget,task,questions,correct,accuracy_pct,ci_lo,ci_hi\n";
    o << std::setprecision(10);
    for (const auto& c : s.accuracy) {
        o << csvField(c.benchmark) << "," << csvField(c.method) << "," << budgetText(c.budget)
          << "," << csvField(c.task.empty() ? "overall" : c.task) << "," << c.questions << ","
          << c.correct << "," << c.accuracyPct.value << "," << c.accuracyPct.lo << ","
          << c.accuracyPct.hi << "\n";
    }
    return o.str();
}

std::string efficiencyTableText(const EvalSummary& s) {
    std::ostringstream o;
    o << padRight("Benchmark", 16) << padRight("Budget", 8) << padRight("Method", 20)
      << padRight("Vis.(avg)", 11) << padRight("Tok.-(%)", 10) << padRight("GFLOPs", 12)
      << padRight("FLOPs-(%)", 11) << padRight("E2E(s)", 10) << "E2E(x)\n";
    for (const auto& e : s.efficiency) {
        o << padRight(e.benchmark, 16) << padRight(budgetText(e.budget), 8)
          << padRight(e.method, 20) << padRight(fmt(e.visualTokens), 11)
          << padRight(fmt(e.tokenReductionPct), 10) << padRight(fmt(e.prefillFlops / 1e9, 3), 12)
          << padRight(fmt(e.flopsReductionPct), 11) << padRight(fmt(e.e2eSeconds, 3), 10)
          << fmt(e.speedup) << "\n";
    }
    return o.str();
}

std::string efficiencyCsv(const EvalSummary& s) {
    std::ostringstream o;
    o << "benchmark,method,budget,questions,visual_tokens,prefill_flops,prefill_seconds,"
         "e2e_seconds,token_reduction_pct,flops_reduction_pct,speedup\n";
    o << std::setprecision(10);
    for (const auto& e : s.efficiency) {
        o << csvField(e.benchmark) << "," << csvField(e.method) << "," << budgetText(e.budget)
          << "," << e.questions << "," << e.visualTokens << "," << e.prefillFlops << ","
          << e.prefillSeconds << "," << e.e2eSeconds << "," << e.tokenReductionPct << ","
          << e.flopsReductionPct << "," << e.speedup << "\n";
    }
    return o.str();
}

std::string perTaskTableText(const EvalSummary& s, const std::string& benchmark) {
    std::vector<std::string> tasks;
    std::vector<std::pair<std::int64_t, std::string>> cols;
    for (const auto& c : s.accuracy) {
        if (c.benchmark != benchmark || c.task.empty()) {
            continue;
        }
        if (std::find(tasks.begin(), tasks.end(), c.task) == tasks.end()) {
            tasks.push_back(c.task);
        }
        if (std::find(cols.begin(), cols.end(), std::make_pair(c.budget, c.method)) == cols.end()) {
            cols.push_back({c.budget, c.method});
        }
    }
    std::sort(tasks.begin(), tasks.end());
    std::ostringstream o;
    o << padRight(benchmark + " task", 30);
    for (const auto& [b, m] : cols) {
        o << padRight(budgetText(b) + " " + m, 18);
    }
    o << "\n";
    for (const auto& t : tasks) {
        o << padRight(t, 30);
        for (const auto& [b, m] : cols) {
            std::string cell = "-";
            for (const auto& c : s.accuracy) {
                if (c.benchmark == benchmark && c.task == t && c.budget == b && c.method == m) {
                    cell = fmt(c.accuracyPct.value) + " (" + std::to_string(c.questions) + ")";
                }
            }
            o << padRight(cell, 18);
        }
        o << "\n";
    }
    return o.str();
}

}  // namespace once
