#include "analysis/break_even.h"

#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace once {

double breakEvenCount(double offlineSeconds, double difference) {
    if (!(difference > 0)) {
        return std::numeric_limits<double>::infinity();
    }
    return offlineSeconds / difference;
}

std::vector<BreakEvenRow> breakEvenFromResults(const std::vector<EvalRecord>& records,
                                               double offlineSeconds) {
    // (benchmark, question) → dense e2e; (benchmark, label, budget) → question → e2e.
    std::map<std::pair<std::string, std::string>, double> dense;
    std::map<std::tuple<std::string, std::string, std::int64_t>, std::map<std::string, double>>
        methods;
    std::vector<std::tuple<std::string, std::string, std::int64_t>> order;
    std::set<std::string> seen;
    for (const auto& r : records) {
        if (!seen.insert(r.key()).second || !r.seconds.count("e2e")) {
            continue;  // the first record of a key counts, as in the report
        }
        const double e2e = r.seconds.at("e2e");
        if (r.method == "dense") {
            dense[{r.benchmark, r.questionId}] = e2e;
            continue;
        }
        auto key = std::make_tuple(r.benchmark, r.methodLabel(), r.budget);
        if (!methods.count(key)) {
            order.push_back(key);
        }
        methods[key][r.questionId] = e2e;
    }
    std::vector<BreakEvenRow> rows;
    for (const auto& key : order) {
        BreakEvenRow row;
        std::tie(row.benchmark, row.method, row.budget) = key;
        double d = 0, m = 0;
        for (const auto& [q, e2e] : methods[key]) {
            auto it = dense.find({row.benchmark, q});
            if (it == dense.end()) {
                continue;
            }
            ++row.questions;
            d += it->second;
            m += e2e;
        }
        if (row.questions == 0) {
            continue;
        }
        row.denseSeconds = d / double(row.questions);
        row.methodSeconds = m / double(row.questions);
        row.offlineSeconds = offlineSeconds;
        row.nStar = breakEvenCount(offlineSeconds, row.denseSeconds - row.methodSeconds);
        rows.push_back(row);
    }
    return rows;
}

std::string breakEvenTableText(const std::vector<BreakEvenRow>& rows) {
    std::ostringstream o;
    o << std::left << std::setw(16) << "benchmark" << std::setw(20) << "method" << std::setw(8)
      << "budget" << std::setw(11) << "questions" << std::setw(14) << "dense s" << std::setw(14)
      << "method s" << std::setw(14) << "saving ms" << std::setw(14) << "offline s"
      << "N*\n";
    for (const auto& r : rows) {
        std::ostringstream n;
        if (std::isinf(r.nStar)) {
            n << "never (no saving)";
        } else {
            n << std::fixed << std::setprecision(0) << std::ceil(r.nStar);
        }
        o << std::setw(16) << r.benchmark << std::setw(20) << r.method << std::setw(8) << r.budget
          << std::setw(11) << r.questions << std::setw(14) << std::setprecision(6) << r.denseSeconds
          << std::setw(14) << r.methodSeconds << std::setw(14)
          << (r.denseSeconds - r.methodSeconds) * 1e3 << std::setw(14) << r.offlineSeconds
          << n.str() << "\n";
    }
    return o.str();
}

std::string breakEvenCsv(const std::vector<BreakEvenRow>& rows) {
    std::ostringstream o;
    o << std::setprecision(12);
    o << "benchmark,method,budget,questions,dense_seconds,method_seconds,difference_seconds,"
         "offline_seconds,n_star\n";
    for (const auto& r : rows) {
        o << r.benchmark << "," << r.method << "," << r.budget << "," << r.questions << ","
          << r.denseSeconds << "," << r.methodSeconds << "," << r.denseSeconds - r.methodSeconds
          << "," << r.offlineSeconds << ","
          << (std::isinf(r.nStar) ? std::string("inf") : std::to_string(r.nStar)) << "\n";
    }
    return o.str();
}

}  // namespace once
