#pragma once
// Budget vs latency: a measured sweep over budgets (compression time; prefill and end-to-end
// time when a model is loaded) with Dense as the reference line, and prefill FLOPs from the
// actual input length on a second axis. Or, loaded from `once bench`, the paper's efficiency
// panel over methods (charts/efficiency_panel.h); whichever came last is shown.
#include <optional>

#include "analysis/budget_sweep.h"
#include "charts/chart_widget.h"
#include "eval/efficiency_bench_file.h"
#include "models/prefill_flops.h"

class QCustomPlot;
class QPushButton;

namespace once::studio {

class BudgetLatencyChart : public ChartWidget {
    Q_OBJECT
  public:
    explicit BudgetLatencyChart(QWidget* parent = nullptr);

    /// The measured sweep (nullopt clears). `layoutTokens` are added to every input length.
    void setSweep(const std::optional<BudgetSweep>& sweep, int layoutTokens);
    /// A `once bench` table to draw instead of the sweep (nullopt: back to the sweep).
    void setEfficiencyBench(const std::optional<once::EfficiencyBench>& bench);
    bool showsEfficiencyBench() const { return bench_.has_value(); }
    QPushButton* openBenchButton() const { return openBench_; }
    /// Dimensions used for FLOPs; `fromModel` false labels them as the reference model's.
    void setLlm(const once::LlmShape& dims, bool fromModel);
    /// Text tokens of the prompt around the video (system turn, question).
    void setPromptTokens(int tokens);
    /// Enables the "Measure" button (the method is ready for the video on screen).
    void setCanMeasure(bool can);
    /// A sweep is running: the button is off and says so (progress and Cancel are in the status
    /// bar).
    void setMeasuring(bool measuring);
    bool isMeasuring() const { return measuring_; }
    /// The running sweep was cancelled: the chart keeps the previous sweep (or stays empty) and
    /// its note says the new one was cancelled.
    void showCancelled();
    QPushButton* measureButton() const { return measure_; }
    /// The line under the plot.
    QString note() const { return note_; }

    bool exportImage(const QString& path, QString* error = nullptr) override;
    CsvTable table() const override;
    QCustomPlot* plot() const { return plot_; }

  signals:
    void measureRequested();
    /// "Open Bench Results…" was pressed (the charts panel shows the file dialog).
    void openBenchRequested();

  private:
    void replot();
    void showNote(const QString& note);

    QCustomPlot* plot_;
    QPushButton* measure_;
    QPushButton* openBench_;
    std::optional<BudgetSweep> sweep_;
    std::optional<once::EfficiencyBench> bench_;
    bool canMeasure_ = false, measuring_ = false, cancelled_ = false;
    QString note_;
    int layoutTokens_ = 0;
    int promptTokens_ = 32;
    once::LlmShape llm_ = once::LlmShape::qwen2_7b();
    bool llmFromModel_ = false;
};

}  // namespace once::studio
