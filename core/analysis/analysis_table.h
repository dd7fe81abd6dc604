#pragma once
// The CSV files of the evaluation harness and the paper's analyses, read back for charting. The
// kind is recognised from the header line, exactly as the commands write it:
//   accuracy       once eval report --csv P      → P_accuracy.csv: overall accuracy vs budget,
//                  one line per benchmark and method with its bootstrap CI, Dense as a level
//   efficiency     once eval report --csv P      → P_efficiency.csv: end-to-end seconds per
//                  question vs visual tokens, one line per benchmark and method (Dense a point)
//   break-even     once analyze break-even --csv → N* vs budget (videos after which the
//                  codebook's offline cost is repaid; infinite N* left out and counted)
//   support-origin once analyze support-origin --csv → donor − current R95 vs budget with its
//                  simultaneous band, zero as the level
//   stress         once analyze stress --csv P   → P.csv: random − learned per metric with its
//                  CI; P_vs_first_i.csv: other − reference per metric
// Anything else (the per-video tables, another CSV) is refused with a message naming the file.
#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>
#include <limits>

#include "charts/chart_data.h"

namespace once::studio {

struct AnalysisPoint {
    double x = 0, y = 0;
    double lo = std::numeric_limits<double>::quiet_NaN();  ///< interval, NaN when there is none
    double hi = std::numeric_limits<double>::quiet_NaN();
    bool hasInterval() const { return lo == lo && hi == hi; }
};

struct AnalysisSeries {
    QString name;
    QVector<AnalysisPoint> points;  ///< ascending x
};

/// A horizontal level across the chart (Dense accuracy, zero difference).
struct AnalysisLevel {
    QString name;
    double y = 0;
};

struct AnalysisResults {
    Q_DECLARE_TR_FUNCTIONS(AnalysisResults)
  public:
    enum class Kind { Accuracy, Efficiency, BreakEven, SupportOrigin, Stress, Comparison };
    Kind kind = Kind::Accuracy;
    QString source;
    QString title, xLabel, yLabel;
    bool logX = false, logY = false;
    QStringList categories;  ///< x tick labels when x is categorical (x = 1, 2, …)
    QList<AnalysisSeries> series;
    QList<AnalysisLevel> levels;
    QString note;    ///< what was left out, how to read it
    CsvTable table;  ///< the file as read (the chart's "Export data…")

    /// Throws once::OnceError naming the file, the line or column, and what is wrong.
    static AnalysisResults load(const QString& path);
};

}  // namespace once::studio
