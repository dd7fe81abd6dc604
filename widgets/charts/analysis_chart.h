#pragma once
// The evaluation harness's and the paper's analyses' CSV files (analysis_results.h) as a chart:
// one line per method (or the difference per metric) with its interval as error bars, levels
// such as Dense accuracy or zero as dashed lines, log axes where the quantity spans decades.
#include "charts/analysis_results.h"
#include "charts/chart_widget.h"

class QCustomPlot;
class QPushButton;

namespace once::studio {

class AnalysisChart : public ChartWidget {
    Q_OBJECT
  public:
    explicit AnalysisChart(QWidget* parent = nullptr);

    void setResults(const AnalysisResults& results);
    const AnalysisResults& results() const { return results_; }

    bool exportImage(const QString& path, QString* error = nullptr) override;
    /// The file as read (its own columns), so the exported data is what was charted.
    CsvTable table() const override;
    QCustomPlot* plot() const { return plot_; }

  signals:
    /// The user asked to open an analysis or evaluation CSV file.
    void openRequested();

  private:
    void replot();

    QCustomPlot* plot_;
    QPushButton* open_;
    AnalysisResults results_;
    bool loaded_ = false;
};

}  // namespace once::studio
