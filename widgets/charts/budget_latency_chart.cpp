#include "charts/budget_latency_chart.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QPushButton>

#include "charts/chart_axes.h"
#include "charts/chart_export.h"
#include "charts/chart_legend.h"
#include "charts/efficiency_panel.h"
#include "session/methods.h"

namespace once::studio {

BudgetLatencyChart::BudgetLatencyChart(QWidget* parent)
    : ChartWidget(tr("Budget vs latency"), parent), plot_(new QCustomPlot(this)) {
    plot_->setMinimumHeight(220);
    // Under the axes and only with entries: no empty legend box before a sweep (issue 16).
    placeLegendBelow(plot_);
    measure_ = new QPushButton(tr("&Measure Sweep"), this);
    measure_->setToolTip(tr("Re-compress this video at budgets 1, 2, 4, … K and time each stage"));
    connect(measure_, &QPushButton::clicked, this, &BudgetLatencyChart::measureRequested);
    openBench_ = new QPushButton(tr("&Open Bench Results…"), this);
    openBench_->setToolTip(
        tr("Draw a `once bench` table: speed-up over Dense (and accuracy) "
           "against the budget for each method"));
    connect(openBench_, &QPushButton::clicked, this, &BudgetLatencyChart::openBenchRequested);
    auto* holder = new QWidget(this);
    auto* layout = new QVBoxLayout(holder);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(measure_);
    buttons->addWidget(openBench_);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    setPlotWidget(holder);
    setCanMeasure(false);
    replot();
}

void BudgetLatencyChart::setSweep(const std::optional<BudgetSweep>& sweep, int layoutTokens) {
    sweep_ = sweep;
    cancelled_ = false;
    layoutTokens_ = layoutTokens;
    if (sweep) {
        bench_.reset();  // a new measurement replaces a loaded table
    }
    replot();
}

void BudgetLatencyChart::setEfficiencyBench(const std::optional<once::EfficiencyBench>& bench) {
    bench_ = bench;
    replot();
}

void BudgetLatencyChart::setLlm(const once::LlmShape& dims, bool fromModel) {
    llm_ = dims.valid() ? dims : once::LlmShape::qwen2_7b();
    llmFromModel_ = fromModel && dims.valid();
    replot();
}

void BudgetLatencyChart::setPromptTokens(int tokens) {
    promptTokens_ = std::max(0, tokens);
    replot();
}

void BudgetLatencyChart::setCanMeasure(bool can) {
    canMeasure_ = can;
    measure_->setEnabled(canMeasure_ && !measuring_);
}

void BudgetLatencyChart::setMeasuring(bool measuring) {
    if (measuring == measuring_) {
        return;
    }
    measuring_ = measuring;
    if (measuring) {
        cancelled_ = false;
    }
    measure_->setText(measuring ? tr("Measuring…") : tr("&Measure Sweep"));
    setCanMeasure(canMeasure_);
    replot();
}

void BudgetLatencyChart::showCancelled() {
    cancelled_ = true;
    replot();
}

void BudgetLatencyChart::showNote(const QString& note) {
    QString text = note;
    if (measuring_) {
        text = tr("Measuring the sweep: the status bar shows its progress and can cancel it.") +
               QLatin1Char(' ') + text;
    } else if (cancelled_) {
        text = (sweep_ && sweep_->cancelled && !sweep_->points.empty()
                    ? tr("The sweep was cancelled after %1 of %2 budgets: the chart shows those "
                         "measured.")
                          .arg(sweep_->points.size())
                          .arg(sweep_->plannedBudgets)
                : sweep_ && !sweep_->points.empty()
                    ? tr("The new sweep was cancelled: the chart still shows the previous one.")
                    : tr("The sweep was cancelled before it finished: nothing was measured.")) +
               QLatin1Char(' ') + text;
    }
    note_ = text;
    setNote(text);
}

void BudgetLatencyChart::replot() {
    if (bench_) {
        plot_->legend->setFont(font());
        showNote(drawEfficiencyPanel(plot_, *bench_));
        return;
    }
    plot_->clearPlottables();
    plot_->clearItems();
    plot_->legend->setFont(font());
    useBudgetAxis(plot_->xAxis);
    plot_->xAxis->setLabel(tr("Token budget B"));
    plot_->yAxis->setLabel(tr("Time (ms)"));
    // The FLOPs axis only with a sweep: before one, two axes' labels and ticks left the empty
    // plot ~50 px in a narrow dock (issue 30).
    const bool measured = sweep_ && !sweep_->points.empty();
    plot_->yAxis2->setVisible(measured);
    plot_->yAxis2->setLabel(tr("Prefill TFLOPs (%1)").arg(QString::fromStdString(llm_.name)));
    if (!measured) {
        plot_->xAxis->setRange(1, 1024);
        updateLegendVisibility(plot_);
        plot_->replot();
        showNote(tr("Press Measure Sweep to time re-compression over budgets."));
        return;
    }
    const auto& points = sweep_->points;
    QVector<double> x, compress, flops, prefill, e2e;
    const std::int64_t extra = layoutTokens_ + promptTokens_;
    for (const SweepPoint& p : points) {
        x << static_cast<double>(p.budget);
        compress << p.compressMs();
        flops << prefillFlops(llm_, p.outputs + extra) / 1e12;
        if (p.prefillMs >= 0) {
            prefill << p.prefillMs;
        }
        if (p.endToEndMs >= 0) {
            e2e << p.endToEndMs;
        }
    }
    const double x0 = x.front() * 0.8, x1 = x.back() * 1.25;
    double top = *std::max_element(compress.begin(), compress.end());

    // A method with an assignment times its stages apart and prepares by assigning.
    const bool assigns = methods::hasAssignment(QString::fromStdString(sweep_->method));
    const QString title = methods::title(QString::fromStdString(sweep_->method));
    auto* compressGraph = new QCPGraph(plot_->xAxis, plot_->yAxis);
    compressGraph->setName(assigns ? tr("ONCE compression (select + reassign + pool)")
                                   : tr("%1 compression").arg(title));
    compressGraph->setData(x, compress, true);
    compressGraph->setPen(QPen(QColor(40, 100, 180), 2));
    compressGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));

    auto* assign = new QCPGraph(plot_->xAxis, plot_->yAxis);
    assign->setName(
        assigns ? tr("Assignment, once per video (%1 ms)").arg(sweep_->assignMs, 0, 'f', 1)
                : tr("Preparation, once per video (%1 ms)").arg(sweep_->assignMs, 0, 'f', 1));
    assign->setData(QVector<double>{x0, x1}, QVector<double>{sweep_->assignMs, sweep_->assignMs});
    assign->setPen(QPen(QColor(40, 100, 180), 1, Qt::DotLine));
    top = std::max(top, sweep_->assignMs);

    auto timed = [&](const QVector<double>& y, double dense, const QString& name,
                     const QColor& colour) {
        if (y.size() == x.size()) {
            auto* g = new QCPGraph(plot_->xAxis, plot_->yAxis);
            g->setName(name);
            g->setData(x, y, true);
            g->setPen(QPen(colour, 2));
            top = std::max(top, *std::max_element(y.begin(), y.end()));
        }
        if (dense >= 0) {
            auto* d = new QCPGraph(plot_->xAxis, plot_->yAxis);
            d->setName(tr("Dense: %1").arg(name));
            d->setData(QVector<double>{x0, x1}, QVector<double>{dense, dense});
            d->setPen(QPen(colour, 1.5, Qt::DashLine));
            top = std::max(top, dense);
        }
    };
    timed(prefill, sweep_->densePrefillMs, tr("prefill"), QColor(200, 80, 40));
    timed(e2e, sweep_->denseEndToEndMs, tr("end to end"), QColor(60, 150, 60));

    auto* flopsGraph = new QCPGraph(plot_->xAxis, plot_->yAxis2);
    flopsGraph->setName(tr("Prefill FLOPs, %1").arg(title));
    flopsGraph->setData(x, flops, true);
    flopsGraph->setPen(QPen(QColor(140, 60, 160), 1.5));
    flopsGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, 5));
    const double denseFlops = prefillFlops(llm_, sweep_->denseTokens + extra) / 1e12;
    auto* denseFlopsGraph = new QCPGraph(plot_->xAxis, plot_->yAxis2);
    denseFlopsGraph->setName(tr("Prefill FLOPs, Dense (N = %1)").arg(sweep_->denseTokens));
    denseFlopsGraph->setData(QVector<double>{x0, x1}, QVector<double>{denseFlops, denseFlops});
    denseFlopsGraph->setPen(QPen(QColor(140, 60, 160), 1.5, Qt::DashLine));

    plot_->xAxis->setRange(x0, x1);
    plot_->yAxis->setRange(0, top * 1.15);
    plot_->yAxis2->setRange(0, std::max(denseFlops, flops.back()) * 1.1);
    updateLegendVisibility(plot_);
    plot_->replot();
    // Which machine timed it (issue 29): a server's sweep times its compression only.
    const QString flopsNote =
        tr("FLOPs count %1 layout and %2 prompt tokens besides the visual ones.")
            .arg(layoutTokens_)
            .arg(promptTokens_);
    QString note;
    if (!sweep_->machine.empty()) {
        note = tr("Compression measured on %1 (remote), median of 3 runs per budget; prefill and "
                  "end-to-end times are not measured on a server.")
                   .arg(QString::fromStdString(sweep_->machine)) +
               QLatin1Char(' ') + flopsNote;
    } else {
        note = tr("Measured on this machine, median of 3 runs per budget.") + QLatin1Char(' ') +
               flopsNote;
    }
    if (!llmFromModel_ && sweep_->machine.empty()) {
        note += QLatin1Char(' ') + tr("No model loaded: FLOPs use %1's dimensions, and prefill "
                                      "and end-to-end times are not measured.")
                                       .arg(QString::fromStdString(llm_.name));
    }
    showNote(note);
}

bool BudgetLatencyChart::exportImage(const QString& path, QString* error) {
    return exportCustomPlot(plot_, path, error, title());
}

CsvTable BudgetLatencyChart::table() const {
    if (bench_) {
        return efficiencyPanelTable(*bench_);
    }
    CsvTable t;
    t.header = {QStringLiteral("method"),        QStringLiteral("budget"),
                QStringLiteral("visual_tokens"), QStringLiteral("coverage"),
                QStringLiteral("select_ms"),     QStringLiteral("reassign_ms"),
                QStringLiteral("pool_ms"),       QStringLiteral("compress_ms"),
                QStringLiteral("prefill_ms"),    QStringLiteral("end_to_end_ms"),
                QStringLiteral("prefill_flops")};
    if (!sweep_) {
        return t;
    }
    const std::int64_t extra = layoutTokens_ + promptTokens_;
    auto ms = [](double v) { return v >= 0 ? QString::number(v, 'g', 8) : QString(); };
    t.rows << QStringList{QStringLiteral("dense"),
                          QString(),
                          QString::number(sweep_->denseTokens + layoutTokens_),
                          QStringLiteral("1"),
                          QString(),
                          QString(),
                          QString(),
                          QStringLiteral("0"),
                          ms(sweep_->densePrefillMs),
                          ms(sweep_->denseEndToEndMs),
                          QString::number(prefillFlops(llm_, sweep_->denseTokens + extra), 'g', 8)};
    for (const SweepPoint& p : sweep_->points) {
        t.rows << QStringList{QString::fromStdString(sweep_->method),
                              QString::number(p.budget),
                              QString::number(p.outputs + layoutTokens_),
                              QString::number(p.coverage, 'g', 8),
                              ms(p.selectMs),
                              ms(p.reassignMs),
                              ms(p.poolMs),
                              ms(p.compressMs()),
                              ms(p.prefillMs),
                              ms(p.endToEndMs),
                              QString::number(prefillFlops(llm_, p.outputs + extra), 'g', 8)};
    }
    return t;
}

}  // namespace once::studio
