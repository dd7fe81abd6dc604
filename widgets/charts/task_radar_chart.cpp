#include "charts/task_radar_chart.h"

#include <QCategoryAxis>
#include <QChartView>
#include <QLineSeries>
#include <QPolarChart>
#include <QPushButton>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>
#include <iterator>

#include "charts/chart_export.h"

namespace once::studio {

TaskRadarChart::TaskRadarChart(QWidget* parent)
    : ChartWidget(tr("Per-task accuracy"), parent), view_(new QChartView(this)) {
    view_->setRenderHint(QPainter::Antialiasing);
    view_->setMinimumHeight(240);
    open_ = new QPushButton(tr("&Open Evaluation Results…"), this);
    connect(open_, &QPushButton::clicked, this, &TaskRadarChart::openRequested);
    auto* holder = new QWidget(this);
    auto* layout = new QVBoxLayout(holder);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_, 1);
    layout->addWidget(open_, 0, Qt::AlignLeft);
    setPlotWidget(holder);
    rebuild();
}

QColor TaskRadarChart::seriesColor(int index) {
    // Okabe–Ito: distinct for the common colour-vision deficiencies, and none of them black.
    static const QColor kColors[] = {QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00),
                                     QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7),
                                     QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9),
                                     QColor(0xF0, 0xE4, 0x42)};
    constexpr int n = static_cast<int>(std::size(kColors));
    return kColors[((index % n) + n) % n];
}

void TaskRadarChart::setResults(const once::TaskAccuracy& results) {
    results_ = results;
    rebuild();
}

void TaskRadarChart::rebuild() {
    auto* chart = new QPolarChart;
    chart->setTitle(title());
    chart->legend()->setAlignment(Qt::AlignBottom);
    const int n = static_cast<int>(results_.tasks.size());
    auto* angular = new QCategoryAxis;
    angular->setRange(0, std::max(1, n));
    angular->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    for (int i = 0; i < n; ++i) {
        angular->append(QString::fromStdString(results_.tasks[std::size_t(i)]), i);
    }
    auto* radial = new QValueAxis;
    double top = 0;
    for (const auto& row : results_.accuracy) {
        for (double v : row) {
            if (std::isfinite(v)) {
                top = std::max(top, v);
            }
        }
    }
    radial->setRange(0, top > 0 ? std::ceil(top / 10.0) * 10.0 : 100.0);
    radial->setTickCount(6);
    radial->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(angular, QPolarChart::PolarOrientationAngular);
    chart->addAxis(radial, QPolarChart::PolarOrientationRadial);
    for (int m = 0; m < int(results_.methods.size()); ++m) {
        auto* series = new QLineSeries;
        series->setName(QString::fromStdString(results_.methods[std::size_t(m)]));
        for (int i = 0; i <= n; ++i) {
            const double v = results_.accuracy[std::size_t(m)][std::size_t(i % n)];  // back to the first spoke: closed
            series->append(i, std::isfinite(v) ? v : 0.0);
        }
        // A pen taken from a series not yet in a chart is the default black one, and setting it
        // stops the theme from colouring the series: every polygon was black (issue 16).
        QPen pen(seriesColor(m));
        pen.setWidthF(2.0);
        series->setPen(pen);
        chart->addSeries(series);
        series->attachAxis(angular);
        series->attachAxis(radial);
    }
    QChart* old = view_->chart();
    view_->setChart(chart);
    delete old;
    setNote(results_.empty()
                ? tr("No evaluation results loaded. Open a CSV (task,method,accuracy) or the "
                     "evaluation harness's JSON to compare methods task by task.")
                : tr("%1 tasks, %2 methods, from %3.")
                      .arg(n)
                      .arg(results_.methods.size())
                      .arg(QString::fromStdString(results_.source)));
}

bool TaskRadarChart::exportImage(const QString& path, QString* error) {
    return exportWidget(view_, path, error);
}

CsvTable TaskRadarChart::table() const {
    CsvTable t;
    t.header = {QStringLiteral("task"), QStringLiteral("method"), QStringLiteral("accuracy")};
    for (std::size_t m = 0; m < results_.methods.size(); ++m) {
        for (std::size_t i = 0; i < results_.tasks.size(); ++i) {
            const double v = results_.accuracy[m][i];
            t.rows << QStringList{QString::fromStdString(results_.tasks[i]),
                                  QString::fromStdString(results_.methods[m]),
                                  std::isfinite(v) ? QString::number(v, 'g', 8) : QString()};
        }
    }
    return t;
}

}  // namespace once::studio
