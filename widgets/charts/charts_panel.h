#pragma once
// The charts dock: usage deciles, residual distribution, budget vs latency, the per-task radar
// and the analyses (evaluation and analysis CSV files) as tabs, kept in step with a StudioSession.
#include <QWidget>
#include <functional>

class QTabWidget;

namespace once::studio {

class AnalysisChart;
class BudgetLatencyChart;
class ChartWidget;
class ResidualChart;
class StudioSession;
class TaskRadarChart;
class UsageDecileChart;

class ChartsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ChartsPanel(StudioSession* session, QWidget* parent = nullptr);

    UsageDecileChart* usageChart() const { return usage_; }
    ResidualChart* residualChart() const { return residual_; }
    BudgetLatencyChart* latencyChart() const { return latency_; }
    TaskRadarChart* radarChart() const { return radar_; }
    AnalysisChart* analysisChart() const { return analysis_; }
    QTabWidget* tabs() const { return tabs_; }
    /// The chart on the visible tab.
    ChartWidget* currentChart() const;

  public slots:
    /// File dialog, then loads per-task accuracies into the radar (errors in a message box).
    void openEvaluationResults();
    /// Loads per-task accuracies; returns false and shows nothing on error (`error` set).
    bool loadEvaluationResults(const QString& path, QString* error = nullptr);
    /// File dialog, then charts an evaluation or analysis CSV (errors in a message box).
    void openAnalysisResults();
    /// Charts an evaluation or analysis CSV; returns false and keeps the chart on error.
    bool loadAnalysisResults(const QString& path, QString* error = nullptr);
    /// File dialog, then draws a `once bench` table in "Budget vs latency" (errors in a box).
    void openBenchResults();
    /// Draws a `once bench` JSON in "Budget vs latency"; false and the chart kept on error.
    bool loadBenchResults(const QString& path, QString* error = nullptr);

  private:
    void onAssignment();
    void onResult();
    void onCodebook();
    void onSweep();
    void onModel();
    void updateMeasurable();
    /// Runs `load` (which throws on a bad file), then shows `tab`; false with `error` set if
    /// it threw.
    bool loadResults(const std::function<void()>& load, QWidget* tab, QString* error);
    /// A file dialog, then `load`; a failure goes to a message box titled `failTitle`.
    void openResults(const QString& title, const QString& filter, const QString& failTitle,
                     bool (ChartsPanel::*load)(const QString&, QString*));

    StudioSession* session_;
    QTabWidget* tabs_;
    UsageDecileChart* usage_;
    ResidualChart* residual_;
    BudgetLatencyChart* latency_;
    TaskRadarChart* radar_;
    AnalysisChart* analysis_;
};

}  // namespace once::studio
