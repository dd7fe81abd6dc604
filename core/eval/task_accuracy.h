#pragma once
// Per-task accuracy of one or more methods (Dense, ONCE at some budget, …) for the radar chart.
// Read from the evaluation harness's output or a hand-made table:
//   CSV, the harness's: `once eval report --csv PREFIX` → PREFIX_accuracy.csv (per-task rows,
//               or the benchmarks as axes when it holds overall rows only)
//   CSV, long:  task,method,accuracy      (one row per task and method)
//   CSV, wide:  task,<method 1>,<method 2>…
//   JSON:       {"tasks": [...], "methods": {"Dense": [...], "ONCE B=512": [...]}}
//           or  {"results": [{"task": …, "method": …, "accuracy": …}, …]}
// Accuracy in percent (0…100); values in 0…1 throughout are scaled by 100. Cells may be quoted
// (RFC 4180).
#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

namespace once::studio {

struct EvaluationResults {
    QString source;
    QStringList tasks;
    QStringList methods;
    QList<QVector<double>> accuracy;  ///< [method][task], NaN where missing

    bool isEmpty() const { return tasks.isEmpty() || methods.isEmpty(); }
    /// Throws once::OnceError naming the file, the line or key, and what is wrong.
    static EvaluationResults load(const QString& path);
};

}  // namespace once::studio
