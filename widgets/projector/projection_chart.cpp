#include "projector/projection_chart.h"

#include <qcustomplot.h>

#include <algorithm>
#include <limits>

#include "charts/chart_export.h"
#include "charts/chart_legend.h"
#include "overlay/group_overlay.h"

namespace once::studio {
namespace {

constexpr double kPickRadius = 12;  ///< pixels within which a click picks a codeword

QCPGraph* scatter(QCustomPlot* plot, const QString& name, const QColor& colour,
                  QCPScatterStyle::ScatterShape shape, double size, const QColor& fill = {}) {
    QCPGraph* g = plot->addGraph();
    g->setName(name);
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(shape, colour, fill.isValid() ? fill : colour, size));
    g->setAdaptiveSampling(false);  // every point drawn: a sampled scatter hides outliers
    return g;
}

void setPoints(QCPGraph* g, const std::vector<QPointF>& points) {
    QVector<double> x, y;
    x.reserve(static_cast<int>(points.size()));
    y.reserve(static_cast<int>(points.size()));
    for (const QPointF& p : points) {
        x << p.x();
        y << p.y();
    }
    g->setData(x, y, false);  // not sorted: a scatter's order is the data's
}

}  // namespace

ProjectionChart::ProjectionChart(QWidget* parent)
    : ChartWidget(tr("Codebook projector"), parent), plot_(new QCustomPlot(this)) {
    plot_->setMinimumHeight(240);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    placeLegendBelow(plot_);
    setPlotWidget(plot_);
    connect(plot_, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
        if (event->button() == Qt::LeftButton) {
            const std::int64_t k = codewordAt(event->pos());
            if (k >= 0) {
                emit codewordClicked(k);
            }
        }
    });
    replot();
}

void ProjectionChart::setMap(Map map, const QString& why) {
    map_ = std::move(map);
    why_ = why;
    const auto k = static_cast<std::int64_t>(map_.codewords.size());
    chosen_ = chosen_ < k ? chosen_ : -1;
    replot();
    plot_->rescaleAxes();
    plot_->replot();
}

void ProjectionChart::setSelectedCodewords(std::vector<std::int64_t> ids) {
    selected_ = std::move(ids);
    replot();
}

void ProjectionChart::setChosen(std::int64_t codeword, std::vector<std::int64_t> similar) {
    chosen_ = codeword;
    similar_ = std::move(similar);
    replot();
}

void ProjectionChart::setInspectedToken(int token) {
    inspected_ = token;
    replot();
}

void ProjectionChart::setTokensShown(bool shown) {
    tokensShown_ = shown;
    replot();
}

void ProjectionChart::replot() {
    // Keep the user's zoom/pan: only a new map rescales (setMap).
    plot_->clearGraphs();
    plot_->legend->setFont(font());
    const auto k = static_cast<std::int64_t>(map_.codewords.size());
    const auto n = static_cast<int>(map_.tokens.size());
    auto pick = [&](const std::vector<std::int64_t>& ids) {
        std::vector<QPointF> out;
        for (std::int64_t id : ids) {
            if (id >= 0 && id < k) {
                out.push_back(map_.codewords[static_cast<std::size_t>(id)]);
            }
        }
        return out;
    };
    if (tokensShown_ && n > 0) {
        // Faint: a video has tens of thousands of tokens, the codewords must show through.
        setPoints(scatter(plot_, tr("this video's tokens"), QColor(70, 130, 200, 30),
                          QCPScatterStyle::ssDisc, 2.5),
                  map_.tokens);
    }
    setPoints(
        scatter(plot_, tr("codewords"), QColor(120, 120, 120, 150), QCPScatterStyle::ssDisc, 3),
        map_.codewords);
    if (!selected_.empty()) {
        setPoints(scatter(plot_, tr("selected by this result"), QColor(230, 120, 20),
                          QCPScatterStyle::ssDisc, 5),
                  pick(selected_));
    }
    if (chosen_ >= 0 && chosen_ < k) {
        if (tokensShown_ && static_cast<int>(map_.nearestOf.size()) == n) {
            std::vector<QPointF> own;
            for (int i = 0; i < n; ++i) {
                if (map_.nearestOf[static_cast<std::size_t>(i)] == chosen_) {
                    own.push_back(map_.tokens[static_cast<std::size_t>(i)]);
                }
            }
            setPoints(scatter(plot_, tr("tokens with k̂ = %1").arg(chosen_), QColor(200, 170, 0),
                              QCPScatterStyle::ssDisc, 5),
                      own);
        }
        if (!similar_.empty()) {
            setPoints(scatter(plot_, tr("most similar codewords"), QColor(30, 150, 60),
                              QCPScatterStyle::ssDiamond, 8),
                      pick(similar_));
        }
        setPoints(scatter(plot_, tr("codeword %1").arg(chosen_),
                          GroupOverlay::codewordColour(chosen_).darker(150),
                          QCPScatterStyle::ssCircle, 14),
                  pick({chosen_}));
    }
    if (inspected_ >= 0 && inspected_ < n) {
        setPoints(
            scatter(plot_, tr("inspected patch"), Qt::black, QCPScatterStyle::ssCrossCircle, 12),
            {map_.tokens[static_cast<std::size_t>(inspected_)]});
    }
    plot_->xAxis->setLabel(tr("PC 1 (%1 % of variance)").arg(map_.explained[0] * 100, 0, 'f', 1));
    plot_->yAxis->setLabel(tr("PC 2 (%1 % of variance)").arg(map_.explained[1] * 100, 0, 'f', 1));
    plot_->replot();
    setNote(k == 0 ? why_
                   : tr("PCA of the %1 unit codewords; tokens projected on the same axes as "
                        "directions (cosine). Click a codeword to choose it; drag to pan, wheel "
                        "to zoom.")
                         .arg(k));
}

std::int64_t ProjectionChart::codewordAt(const QPoint& plotPos) const {
    std::int64_t best = -1;
    double bestDist = kPickRadius * kPickRadius;
    for (std::size_t i = 0; i < map_.codewords.size(); ++i) {
        const double px = plot_->xAxis->coordToPixel(map_.codewords[i].x());
        const double py = plot_->yAxis->coordToPixel(map_.codewords[i].y());
        const double d =
            (px - plotPos.x()) * (px - plotPos.x()) + (py - plotPos.y()) * (py - plotPos.y());
        if (d < bestDist) {
            bestDist = d;
            best = static_cast<std::int64_t>(i);
        }
    }
    return best;
}

QPoint ProjectionChart::codewordPosition(std::int64_t codeword) const {
    if (codeword < 0 || codeword >= static_cast<std::int64_t>(map_.codewords.size())) {
        return {};
    }
    const QPointF p = map_.codewords[static_cast<std::size_t>(codeword)];
    return QPointF(plot_->xAxis->coordToPixel(p.x()), plot_->yAxis->coordToPixel(p.y())).toPoint();
}

bool ProjectionChart::exportImage(const QString& path, QString* error) {
    return exportCustomPlot(plot_, path, error, title());
}

CsvTable ProjectionChart::table() const {
    CsvTable t;
    t.header = {QStringLiteral("kind"), QStringLiteral("id"), QStringLiteral("pc1"),
                QStringLiteral("pc2"), QStringLiteral("nearest_codeword")};
    for (std::size_t i = 0; i < map_.codewords.size(); ++i) {
        t.rows << QStringList{QStringLiteral("codeword"), QString::number(i),
                              QString::number(map_.codewords[i].x(), 'g', 8),
                              QString::number(map_.codewords[i].y(), 'g', 8), QString()};
    }
    for (std::size_t i = 0; i < map_.tokens.size(); ++i) {
        t.rows << QStringList{
            QStringLiteral("token"), QString::number(i),
            QString::number(map_.tokens[i].x(), 'g', 8),
            QString::number(map_.tokens[i].y(), 'g', 8),
            i < map_.nearestOf.size() ? QString::number(map_.nearestOf[i]) : QString()};
    }
    return t;
}

}  // namespace once::studio
