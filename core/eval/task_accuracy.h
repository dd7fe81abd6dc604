#pragma once
// Per-task accuracy of one or more methods (Dense, ONCE at some budget, …), read back for the
// studio's radar chart and any tool, from the evaluation harness's output (eval/report.h
// accuracyCsv) or a hand-made table:
//   CSV, the harness's: `once eval report --csv PREFIX` → PREFIX_accuracy.csv (per-task rows,
//               or the benchmarks as axes when it holds overall rows only)
//   CSV, long:  task,method,accuracy      (one row per task and method)
//   CSV, wide:  task,<method 1>,<method 2>…
//   JSON:       {"tasks": [...], "methods": {"Dense": [...], "ONCE B=512": [...]}}
//           or  {"results": [{"task": …, "method": …, "accuracy": …}, …]}
// Accuracy in percent (0…100); values in 0…1 throughout are scaled by 100. Cells may be quoted
// (RFC 4180). The files are untrusted: at most kMaxTaskAccuracyBytes, every number checked.
#include <cstddef>
#include <string>
#include <vector>

namespace once {

/// Largest file read (16 MiB).
constexpr std::size_t kMaxTaskAccuracyBytes = std::size_t(16) << 20;

struct TaskAccuracy {
    std::string source;
    std::vector<std::string> tasks;
    std::vector<std::string> methods;
    std::vector<std::vector<double>> accuracy;  ///< [method][task], NaN where missing

    bool empty() const { return tasks.empty() || methods.empty(); }
    /// A .json file as JSON, anything else as CSV. Throws OnceError naming the file, the line or
    /// key, and what is wrong.
    static TaskAccuracy load(const std::string& path);
    static TaskAccuracy parseCsv(const std::string& text, const std::string& source);
    static TaskAccuracy parseJson(const std::string& text, const std::string& source);
};

}  // namespace once
