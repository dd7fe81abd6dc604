#include "charts/residual_chart.h"

#include <qcustomplot.h>

#include "charts/chart_export.h"
#include "charts/chart_legend.h"

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
    placeLegendBelow(plot_);
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
    plot_->xAxis->setRange(0, hi);
    plot_->xAxis->setLabel(tr("Cosine residual 1 − cos(x, c)"));
    plot_->yAxis->setLabel(tr("Density"));
    updateLegendVisibility(plot_);
    // Lay the plot out once so the axis rect's pixel size is known for placing the labels.
    plot_->yAxis->setRange(0, top * 1.15);
    plot_->replot(QCustomPlot::rpImmediateRefresh);

    // Percentile markers: solid for this video, dashed for the corpus. Labels that would touch
    // go to the next row (issue 16: "R90 corpusR95 corpus"); the rows sit above the curves.
    struct Marker {
        double value;
        QString text;
        QColor colour;
        Qt::PenStyle style;
    };
    const QFontMetrics metrics(font());
    // Markers of one series closer than their label's width share one label ("R95/R99"), so
    // a tight distribution needs a few label rows, not one per percentile.
    std::vector<Marker> markers;
    std::vector<Marker> labels;
    auto addSeries = [&](const std::map<QString, double>& p, const QColor& colour,
                         Qt::PenStyle style, bool corpus) {
        std::vector<std::pair<double, QString>> sorted;
        for (const auto& [name, value] : p) {
            sorted.emplace_back(value, name);
            markers.push_back({value, name, colour, style});
        }
        std::sort(sorted.begin(), sorted.end());
        auto text = [corpus](const QStringList& names) {
            const QString joined = names.join(QLatin1Char('/'));
            return corpus ? tr("%1 corpus").arg(joined) : joined;
        };
        for (std::size_t i = 0; i < sorted.size();) {
            QStringList names{sorted[i].second};
            const double left = plot_->xAxis->coordToPixel(sorted[i].first);
            std::size_t j = i + 1;
            while (j < sorted.size() && plot_->xAxis->coordToPixel(sorted[j].first) - left <
                                            metrics.horizontalAdvance(text(names)) + 8) {
                names << sorted[j].second;
                ++j;
            }
            labels.push_back({sorted[i].first, text(names), colour, style});
            i = j;
        }
    };
    addSeries(videoPercentiles_, QColor(20, 60, 130), Qt::SolidLine, false);
    addSeries(corpusPercentiles_, QColor(120, 120, 120), Qt::DashLine, true);
    std::stable_sort(labels.begin(), labels.end(),
                     [](const Marker& a, const Marker& b) { return a.value < b.value; });
    const int rowHeight = metrics.height() + 2;
    const double axisHeight = std::max(40, plot_->axisRect()->height());
    std::vector<double> rowEnds;  // right edge (pixels) of the last label in each row
    std::vector<int> rowOf;
    for (const Marker& m : labels) {
        const double left = plot_->xAxis->coordToPixel(m.value);
        const double width = metrics.horizontalAdvance(m.text) + 6;
        std::size_t row = 0;
        while (row < rowEnds.size() && rowEnds[row] + 2 > left) {
            ++row;
        }
        if (row == rowEnds.size()) {
            rowEnds.push_back(0);
        }
        rowEnds[row] = left + width;
        rowOf.push_back(static_cast<int>(row));
    }
    // Head room for the label rows above the highest bin.
    const double band = std::min(0.6, (rowEnds.size() * rowHeight + 4) / axisHeight);
    plot_->yAxis->setRange(0, top * 1.05 / std::max(0.4, 1.0 - band));
    for (const Marker& m : markers) {
        auto* line = new QCPItemStraightLine(plot_);
        line->point1->setCoords(m.value, 0);
        line->point2->setCoords(m.value, 1);
        line->setPen(QPen(m.colour, 1.2, m.style));
    }
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const Marker& m = labels[i];
        auto* label = new QCPItemText(plot_);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setAxisRect(plot_->axisRect());
        label->position->setCoords(m.value, (2.0 + rowOf[i] * rowHeight) / axisHeight);
        label->setText(m.text);
        label->setFont(font());
        label->setColor(m.colour);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setPadding(QMargins(3, 0, 0, 0));
        label->setClipToAxisRect(false);
    }
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

void ResidualChart::resizeEvent(QResizeEvent* event) {
    ChartWidget::resizeEvent(event);
    replot();  // label rows depend on the pixel width
}

QList<QRectF> ResidualChart::percentileLabelRects() const {
    QList<QRectF> out;
    for (int i = 0; i < plot_->itemCount(); ++i) {
        if (auto* t = qobject_cast<QCPItemText*>(plot_->item(i))) {
            out << QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition());
        }
    }
    return out;
}

bool ResidualChart::exportImage(const QString& path, QString* error) {
    return exportCustomPlot(plot_, path, error, title());
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
