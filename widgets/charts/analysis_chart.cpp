#include "charts/analysis_chart.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "charts/chart_axes.h"
#include "charts/chart_export.h"
#include "charts/chart_legend.h"

namespace once::studio {
namespace {

const QColor kPalette[] = {QColor(40, 100, 180),  QColor(200, 80, 40),  QColor(60, 150, 60),
                           QColor(140, 60, 160),  QColor(180, 140, 20), QColor(20, 150, 150),
                           QColor(120, 120, 120), QColor(220, 60, 130)};

QColor colourOf(int i) {
    return kPalette[i % int(std::size(kPalette))];
}

// [lo, hi] padded by 8 % (by a factor on a log axis); one value gets a band around it.
QCPRange padded(double lo, double hi, bool log) {
    if (log) {
        return {lo / 1.5, hi * 1.5};
    }
    const double pad = hi > lo ? (hi - lo) * 0.08 : std::max(std::abs(hi) * 0.1, 1e-6);
    return {lo - pad, hi + pad};
}

}  // namespace

AnalysisChart::AnalysisChart(QWidget* parent)
    : ChartWidget(tr("Analyses"), parent), plot_(new QCustomPlot(this)) {
    plot_->setMinimumHeight(220);
    placeLegendBelow(plot_);
    open_ = new QPushButton(tr("&Open Analysis or Evaluation CSV…"), this);
    open_->setToolTip(
        tr("The CSV written by once eval report --csv, once analyze stress, "
           "support-origin or break-even --csv"));
    connect(open_, &QPushButton::clicked, this, &AnalysisChart::openRequested);
    auto* holder = new QWidget(this);
    auto* layout = new QVBoxLayout(holder);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_, 1);
    layout->addWidget(open_, 0, Qt::AlignLeft);
    setPlotWidget(holder);
    replot();
}

void AnalysisChart::setResults(const AnalysisResults& results) {
    results_ = results;
    loaded_ = true;
    replot();
}

void AnalysisChart::replot() {
    plot_->clearPlottables();
    plot_->clearItems();
    plot_->plotLayout()->setAutoMargins(QCP::msAll);
    plot_->legend->setFont(font());
    const AnalysisResults& r = results_;
    if (!loaded_) {
        useLogScale(plot_->xAxis, false);
        useLogScale(plot_->yAxis, false);
        plot_->xAxis->setLabel(QString());
        plot_->yAxis->setLabel(QString());
        updateLegendVisibility(plot_);
        plot_->replot();
        setNote(
            tr("Open the CSV of an evaluation (accuracy or efficiency) or of an analysis "
               "(stress, support origin, break-even) to chart it."));
        return;
    }
    const bool categorical = !r.categories.isEmpty();
    // A log x axis holds budgets (powers of two): a tick at each of them.
    if (r.logX && !categorical) {
        useBudgetAxis(plot_->xAxis);
    } else {
        useLogScale(plot_->xAxis, false);
    }
    useLogScale(plot_->yAxis, r.logY);
    if (categorical) {
        QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
        for (int i = 0; i < r.categories.size(); ++i) {
            ticker->addTick(i + 1, r.categories[i]);
        }
        plot_->xAxis->setTicker(ticker);
    }
    plot_->xAxis->setLabel(r.xLabel);
    plot_->yAxis->setLabel(r.yLabel);

    double x0 = qInf(), x1 = -qInf(), y0 = qInf(), y1 = -qInf();
    auto extend = [&](double x, double y) {
        if (!r.logX || x > 0 || categorical) {
            x0 = std::min(x0, x), x1 = std::max(x1, x);
        }
        if (!r.logY || y > 0) {
            y0 = std::min(y0, y), y1 = std::max(y1, y);
        }
    };
    int colour = 0;
    for (const AnalysisSeries& s : r.series) {
        QVector<double> x, y, minus, plus;
        bool intervals = false;
        for (const AnalysisPoint& p : s.points) {
            x << p.x;
            y << p.y;
            extend(p.x, p.y);
            if (p.hasInterval()) {
                intervals = true;
                minus << std::max(0.0, p.y - p.lo);
                plus << std::max(0.0, p.hi - p.y);
                extend(p.x, p.lo);
                extend(p.x, p.hi);
            } else {
                minus << 0.0;
                plus << 0.0;
            }
        }
        const QColor c = colourOf(colour++);
        auto* g = new QCPGraph(plot_->xAxis, plot_->yAxis);
        g->setName(s.name);
        g->setData(x, y, true);
        g->setPen(QPen(c, 2));
        g->setLineStyle(categorical ? QCPGraph::lsNone : QCPGraph::lsLine);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
        if (intervals) {
            auto* bars = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
            bars->removeFromLegend();
            bars->setDataPlottable(g);
            bars->setData(minus, plus);
            bars->setPen(QPen(c, 1.2));
        }
    }
    if (!std::isfinite(x0)) {  // levels only (Dense rows without budgets)
        x0 = 1, x1 = 2;
    }
    const QCPRange xr = categorical ? QCPRange(0.5, r.categories.size() + 0.5)
                                    : padded(x0, x1, r.logX && !categorical);
    for (const AnalysisLevel& level : r.levels) {
        auto* g = new QCPGraph(plot_->xAxis, plot_->yAxis);
        g->setName(level.name);
        g->setData(QVector<double>{xr.lower, xr.upper}, QVector<double>{level.y, level.y});
        g->setPen(QPen(level.y == 0 ? QColor(90, 90, 90) : colourOf(colour++), 1.5, Qt::DashLine));
        extend(x0, level.y);
    }
    plot_->xAxis->setRange(xr);
    plot_->yAxis->setRange(std::isfinite(y0) ? padded(y0, y1, r.logY) : QCPRange(0, 1));
    updateLegendVisibility(plot_);
    plot_->replot();
    const QString heading = r.title + QStringLiteral(" — ") + QFileInfo(r.source).fileName();
    setNote(r.note.isEmpty() ? heading : heading + QStringLiteral(". ") + r.note);
}

bool AnalysisChart::exportImage(const QString& path, QString* error) {
    const QString heading =
        loaded_ ? results_.title + QStringLiteral(" — ") + QFileInfo(results_.source).fileName()
                : title();
    return exportCustomPlot(plot_, path, error, heading);
}

CsvTable AnalysisChart::table() const {
    return loaded_ ? results_.table : CsvTable{};
}

}  // namespace once::studio
