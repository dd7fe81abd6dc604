#pragma once
// The CSV files of the evaluation harness and the paper's analyses, read back for charting (the
// studio's analysis chart, any tool). The kind is recognised from the header line, exactly as
// the commands write it (their writers: eval/report.h, analysis/break_even.h,
// analysis/support_origin.h, analysis/stress_diagnostic.h):
//   accuracy       once eval report --csv P      → P_accuracy.csv: overall accuracy vs budget,
//                  one series per benchmark and method with its bootstrap CI, Dense as a level
//   efficiency     once eval report --csv P      → P_efficiency.csv: end-to-end seconds per
//                  question vs visual tokens, one series per benchmark and method
//   break-even     once analyze break-even --csv → N* vs budget (videos after which the
//                  codebook's offline cost is repaid; infinite N* left out and counted)
//   support-origin once analyze support-origin --csv → donor − current R95 vs budget with its
//                  simultaneous band, zero as the level
//   stress         once analyze stress --csv P   → P.csv: random − learned per metric with its
//                  CI; P_vs_first_i.csv: other − reference per metric
// Anything else (the per-video tables, another CSV) is refused with an error naming the file.
// The files are untrusted: at most kMaxAnalysisTableBytes, every number checked.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "util/csv.h"

namespace once {

/// Largest table read (64 MiB: far more rows than any run writes).
constexpr std::size_t kMaxAnalysisTableBytes = std::size_t(64) << 20;

struct AnalysisPoint {
    double x = 0, y = 0;
    double lo = std::numeric_limits<double>::quiet_NaN();  ///< interval, NaN when there is none
    double hi = std::numeric_limits<double>::quiet_NaN();
    bool hasInterval() const { return lo == lo && hi == hi; }
};

struct AnalysisSeries {
    std::string name;
    std::vector<AnalysisPoint> points;  ///< ascending x
};

/// A horizontal level across the chart (Dense accuracy, zero difference).
struct AnalysisLevel {
    std::string name;
    double y = 0;
};

struct AnalysisTable {
    enum class Kind { Accuracy, Efficiency, BreakEven, SupportOrigin, Stress, Comparison };
    Kind kind = Kind::Accuracy;
    std::string source;
    /// Budgets and token counts span decades: x is logarithmic except for categorical x.
    bool logX = true, logY = false;
    std::vector<std::string> categories;  ///< x tick labels when x is categorical (x = 1, 2, …)
    /// Named by the file (methods, benchmarks), except the one series and the zero level of
    /// the support-origin and difference tables, which are named in English here.
    std::vector<AnalysisSeries> series;
    std::vector<AnalysisLevel> levels;
    /// Rows not drawn: per-task rows of an accuracy table (the radar draws those), break-even
    /// rows whose N* is infinite (no per-video saving).
    std::int64_t rowsLeftOut = 0;
    CsvText table;  ///< the file as read

    /// Throws OnceError naming the file, the line or column, and what is wrong.
    static AnalysisTable load(const std::string& path);
    /// The same from the file's text; `source` names it in errors.
    static AnalysisTable parse(const std::string& text, const std::string& source);
};

}  // namespace once
