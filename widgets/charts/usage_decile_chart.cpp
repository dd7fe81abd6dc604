#include "charts/usage_decile_chart.h"

#include <qcustomplot.h>

#include "charts/chart_export.h"
#include "charts/chart_legend.h"

namespace once::studio {

UsageDecileChart::UsageDecileChart(QWidget* parent)
    : ChartWidget(tr("Code usage by equal-count deciles"), parent), plot_(new QCustomPlot(this)) {
    plot_->setMinimumHeight(220);
    placeLegendBelow(plot_);
    setPlotWidget(plot_);
    replot();
}

void UsageDecileChart::setVideoCounts(const std::vector<std::int64_t>& counts) {
    video_ = usageDeciles(counts);
    replot();
}

void UsageDecileChart::setCorpusDeciles(const std::vector<double>& deciles) {
    corpus_ = deciles.size() == 10 ? deciles : std::vector<double>{};
    replot();
}

void UsageDecileChart::replot() {
    plot_->clearPlottables();
    plot_->clearItems();
    plot_->legend->setFont(font());
    QVector<double> x(10), video(10), corpus(10);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int d = 0; d < 10; ++d) {
        x[d] = d + 1;
        ticker->addTick(d + 1, QStringLiteral("D%1").arg(d + 1));
        video[d] = d < static_cast<int>(video_.size()) ? 100.0 * video_[d] : 0.0;
        corpus[d] = d < static_cast<int>(corpus_.size()) ? 100.0 * corpus_[d] : 0.0;
    }
    auto* group = new QCPBarsGroup(plot_);
    const double width = corpus_.empty() ? 0.7 : 0.38;
    // The leading fifth (D1, D2) is drawn as its own, darker series: it carries most of the mass.
    QVector<double> lead(10, 0.0), rest(10, 0.0);
    for (int d = 0; d < 10; ++d) {
        (d < 2 ? lead : rest)[d] = video[d];
    }
    auto* videoBars = new QCPBars(plot_->xAxis, plot_->yAxis);
    videoBars->setName(tr("This video"));
    videoBars->setWidth(width);
    videoBars->setData(x, rest);
    videoBars->setBrush(QColor(70, 130, 200));
    videoBars->setPen(Qt::NoPen);
    auto* leadBars = new QCPBars(plot_->xAxis, plot_->yAxis);
    leadBars->setName(tr("This video, leading fifth"));
    leadBars->setWidth(width);
    leadBars->setData(x, lead);
    leadBars->setBrush(QColor(25, 70, 140));
    leadBars->setPen(Qt::NoPen);
    leadBars->moveAbove(videoBars);  // stacked: the two never overlap, so the sum is the decile
    videoBars->setBarsGroup(group);
    if (!corpus_.empty()) {
        auto* corpusBars = new QCPBars(plot_->xAxis, plot_->yAxis);
        corpusBars->setName(tr("Codebook corpus"));
        corpusBars->setWidth(width);
        corpusBars->setData(x, corpus);
        corpusBars->setBrush(QColor(230, 150, 60));
        corpusBars->setPen(Qt::NoPen);
        corpusBars->setBarsGroup(group);
    }
    auto* uniform = new QCPGraph(plot_->xAxis, plot_->yAxis);
    uniform->setName(tr("Uniform (10 %)"));
    uniform->setData(QVector<double>{0.4, 10.6}, QVector<double>{10.0, 10.0});
    uniform->setPen(QPen(Qt::darkGray, 1.5, Qt::DashLine));

    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setRange(0.4, 10.6);
    plot_->xAxis->setLabel(tr("Codeword decile (most used first)"));
    plot_->yAxis->setLabel(tr("Share of assignments (%)"));
    double top = 12;
    for (int d = 0; d < 10; ++d) {
        top = std::max({top, video[d] * 1.1, corpus[d] * 1.1});
    }
    plot_->yAxis->setRange(0, top);
    updateLegendVisibility(plot_);
    if (video_.empty()) {
        plot_->legend->setVisible(false);  // bars of zeros: nothing to name yet
    }
    plot_->replot();
    setNote(video_.empty()
                ? tr("No assignment yet: open a video and a codebook.")
                : (corpus_.empty() ? tr("The codebook file records no corpus usage; only this "
                                        "video is shown.")
                                   : QString()));
}

bool UsageDecileChart::exportImage(const QString& path, QString* error) {
    return exportCustomPlot(plot_, path, error, title());
}

CsvTable UsageDecileChart::table() const {
    CsvTable t;
    t.header = {QStringLiteral("decile"), QStringLiteral("video_share"),
                QStringLiteral("corpus_share"), QStringLiteral("uniform_share")};
    for (std::size_t d = 0; d < video_.size(); ++d) {
        t.rows << QStringList{QString::number(d + 1), QString::number(video_[d], 'g', 8),
                              d < corpus_.size() ? QString::number(corpus_[d], 'g', 8) : QString(),
                              QStringLiteral("0.1")};
    }
    return t;
}

}  // namespace once::studio
