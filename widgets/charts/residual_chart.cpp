#include "charts/residual_chart.h"

#include <qcustomplot.h>

#include "charts/chart_export.h"

namespace once::studio {
namespace {
constexpr int kBins = 60;
const QStringList& percentileNames() {
    static const QStringList names = {QStringLiteral("R50"), QStringLiteral("R90"),
                                      QStringLiteral("R95"), QStringLiteral("R99")};
    return names;
}
std::map<QString, double> percentilesOf(const std::vector<float>& v) {
    std::map<QString, double> out;
    if (v.empty()) {
        return out;
    }
    for (const QString& name : percentileNames()) {
        out[name] = percentile(v, name.mid(1).toDouble());
    }
    return out;
}
// Step-shaped outline of a histogram, so several distributions can share one plot.
void setStepData(QCPGraph* graph, const Histogram& h) {
    QVector<double> x, y;
    const double w = h.binWidth();
    for (std::size_t b = 0; b < h.density.size(); ++b) {
        x << h.lo + b * w << h.lo + (b + 1) * w;
        y << h.density[b] << h.density[b];
    }
    graph->setData(x, y, true);
}
}  // namespace

ResidualChart::ResidualChart(QWidget* parent)
    : ChartWidget(tr("Cosine residual distribution"), parent), plot_(new QCustomPlot(this)) {
    plot_->setMinimumHeight(220);
    setPlotWidget(plot_);
    replot();
}

void ResidualChart::setNearestResiduals(std::vector<float> residuals) {
    nearest_ = std::move(residuals);
    videoPercentiles_ = percentilesOf(nearest_);
    replot();
}

void ResidualChart::setBudgetResiduals(std::vector<float> residuals, std::int64_t budget) {
    atBudget_ = std::move(residuals);
    budget_ = budget;
    budgetPercentiles_ = percentilesOf(atBudget_);
    replot();
}

void ResidualChart::setCorpusPercentiles(const std::map<QString, double>& percentiles) {
    corpusPercentiles_ = percentiles;
    replot();
}

void ResidualChart::replot() {
    plot_->clearPlottables();
    plot_->clearItems();
    plot_->legend->setVisible(true);
    plot_->legend->setFont(font());
    // One x range for all curves: up to the largest R99 (with room), at least 0.05.
    double hi = 0.05;
    for (const auto* p : {&videoPercentiles_, &budgetPercentiles_, &corpusPercentiles_}) {
        auto it = p->find(QStringLiteral("R99"));
        if (it != p->end()) {
            hi = std::max(hi, it->second * 1.25);
        }
    }
    hi = std::min(hi, 2.0);
    nearestHist_ = histogram(nearest_, kBins, 0.0, hi);
    budgetHist_ = histogram(atBudget_, kBins, 0.0, hi);

    double top = 1;
    if (!nearest_.empty()) {
        auto* g = new QCPGraph(plot_->xAxis, plot_->yAxis);
        g->setName(tr("This video, nearest of all K codewords"));
        g->setPen(QPen(QColor(40, 100, 180), 1.6));
        g->setBrush(QColor(40, 100, 180, 40));
        setStepData(g, nearestHist_);
        top = std::max(top,
                       *std::max_element(nearestHist_.density.begin(), nearestHist_.density.end()));
    }
    if (!atBudget_.empty()) {
        auto* g = new QCPGraph(plot_->xAxis, plot_->yAxis);
        g->setName(tr("This video, after reassignment at B = %1").arg(budget_));
        g->setPen(QPen(QColor(200, 80, 40), 1.4));
        setStepData(g, budgetHist_);
        top = std::max(top,
                       *std::max_element(budgetHist_.density.begin(), budgetHist_.density.end()));
    }
    plot_->yAxis->setRange(0, top * 1.15);
    plot_->xAxis->setRange(0, hi);
    plot_->xAxis->setLabel(tr("Cosine residual 1 − cos(x, c)"));
    plot_->yAxis->setLabel(tr("Density"));

    // Percentile markers: solid for this video, dashed for the corpus.
    auto mark = [&](const std::map<QString, double>& p, const QColor& colour, Qt::PenStyle style,
                    double labelY, const QString& suffix) {
        for (const auto& [name, value] : p) {
            auto* line = new QCPItemStraightLine(plot_);
            line->point1->setCoords(value, 0);
            line->point2->setCoords(value, 1);
            line->setPen(QPen(colour, 1.2, style));
            auto* label = new QCPItemText(plot_);
            label->position->setType(QCPItemPosition::ptPlotCoords);
            label->position->setCoords(value, top * labelY);
            label->setText(name + suffix);
            label->setColor(colour);
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
            label->setPadding(QMargins(3, 0, 0, 0));
        }
    };
    mark(videoPercentiles_, QColor(20, 60, 130), Qt::SolidLine, 1.08, QString());
    mark(corpusPercentiles_, QColor(120, 120, 120), Qt::DashLine, 0.9, tr(" corpus"));
    plot_->replot();

    QString note;
    if (nearest_.empty()) {
        note = tr("No assignment yet: open a video and a codebook.");
    } else {
        QStringList parts;
        for (const QString& name : percentileNames()) {
            parts << QStringLiteral("%1 = %2").arg(name).arg(videoPercentiles_[name], 0, 'f', 4);
        }
        note = tr("This video: %1.").arg(parts.join(QStringLiteral(", ")));
        if (corpusPercentiles_.empty()) {
            note += QLatin1Char(' ') + tr("The codebook file records no corpus residuals.");
        }
    }
    setNote(note);
}

bool ResidualChart::exportImage(const QString& path, QString* error) {
    return exportCustomPlot(plot_, path, error);
}

CsvTable ResidualChart::table() const {
    // Long format: percentile rows (quantity R50…, x = residual) and histogram rows
    // (quantity "density", x = bin centre, y = density).
    CsvTable t;
    t.header = {QStringLiteral("series"), QStringLiteral("quantity"), QStringLiteral("x"),
                QStringLiteral("y")};
    auto percentiles = [&t](const std::map<QString, double>& p, const QString& series) {
        for (const auto& [name, value] : p) {
            t.rows << QStringList{series, name, QString::number(value, 'g', 8), QString()};
        }
    };
    const QString atBudget = QStringLiteral("video_at_budget_%1").arg(budget_);
    percentiles(videoPercentiles_, QStringLiteral("video_nearest"));
    percentiles(budgetPercentiles_, atBudget);
    percentiles(corpusPercentiles_, QStringLiteral("corpus"));
    auto bins = [&t](const Histogram& h, const QString& series, bool present) {
        const double w = h.binWidth();
        for (std::size_t b = 0; present && b < h.density.size(); ++b) {
            t.rows << QStringList{series, QStringLiteral("density"),
                                  QString::number(h.lo + (b + 0.5) * w, 'g', 8),
                                  QString::number(h.density[b], 'g', 8)};
        }
    };
    bins(nearestHist_, QStringLiteral("video_nearest"), !nearest_.empty());
    bins(budgetHist_, atBudget, !atBudget_.empty());
    return t;
}

}  // namespace once::studio
