#pragma once
// Per-task accuracy radar (paper, "MVBench subtask performance"): one closed polygon per method
// on spokes of the same raw scale, so an outward shift means higher accuracy on that task.
// A Qt Charts polar chart; shown when evaluation results are loaded.
#include <QColor>

#include "charts/chart_widget.h"
#include "eval/task_accuracy.h"

class QChartView;
class QPushButton;

namespace once::studio {

class TaskRadarChart : public ChartWidget {
    Q_OBJECT
  public:
    explicit TaskRadarChart(QWidget* parent = nullptr);

    void setResults(const once::TaskAccuracy& results);
    const once::TaskAccuracy& results() const { return results_; }

    bool exportImage(const QString& path, QString* error = nullptr) override;
    CsvTable table() const override;
    QChartView* view() const { return view_; }
    /// The colour of the `index`-th method's polygon (a fixed palette, repeating).
    static QColor seriesColor(int index);

  signals:
    /// The user asked to open an evaluation results file.
    void openRequested();

  private:
    void rebuild();

    QChartView* view_;
    QPushButton* open_;
    once::TaskAccuracy results_;
};

}  // namespace once::studio
