#include "charts/efficiency_panel.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>

#include "charts/chart_axes.h"
#include "charts/chart_legend.h"
#include "session/methods.h"

namespace once::studio {
namespace {

QColor methodColour(int i) {
    static const QColor palette[] = {QColor(40, 100, 180), QColor(200, 80, 40),
                                     QColor(60, 150, 60),  QColor(140, 60, 160),
                                     QColor(180, 140, 20), QColor(20, 150, 160)};
    return palette[i % int(std::size(palette))];
}

/// The method's title for the legend: the registry's ("ForestPrune"), parameters kept.
QString titleOf(const std::string& label) {
    const QString l = QString::fromStdString(label);
    const int brace = l.indexOf(QLatin1Char('{'));
    const QString name = brace < 0 ? l : l.left(brace);
    return methods::title(name) + (brace < 0 ? QString() : l.mid(brace));
}

double meanAccuracy(const once::EfficiencyBenchRow& r) {
    double s = 0;
    for (const auto& [benchmark, acc] : r.accuracyPct) {
        s += acc;
    }
    return r.accuracyPct.empty() ? std::nan("") : s / double(r.accuracyPct.size());
}

}  // namespace

QString drawEfficiencyPanel(QCustomPlot* plot, const once::EfficiencyBench& bench) {
    plot->clearPlottables();
    plot->clearItems();
    useBudgetAxis(plot->xAxis);  // powers of two, as the sweep's
    plot->xAxis->setLabel(QObject::tr("Token budget B"));
    plot->yAxis->setLabel(QObject::tr("Speed-up over Dense (×)"));
    plot->yAxis2->setLabel(QObject::tr("Accuracy (%)"));
    // Rows by method in table order, each method's budgets ascending.
    std::vector<std::string> order;
    std::map<std::string, std::vector<const once::EfficiencyBenchRow*>> byMethod;
    const once::EfficiencyBenchRow* dense = nullptr;
    for (const auto& r : bench.rows) {
        if (r.method == "dense") {
            dense = &r;
            continue;
        }
        if (!byMethod.count(r.method)) {
            order.push_back(r.method);
        }
        byMethod[r.method].push_back(&r);
    }
    double lo = 1e300, hi = 0, top = 1, accLo = 100, accHi = 0;
    bool anyAccuracy = false;
    for (std::size_t i = 0; i < order.size(); ++i) {
        auto& rows = byMethod[order[i]];
        std::sort(rows.begin(), rows.end(),
                  [](const auto* a, const auto* b) { return a->budget < b->budget; });
        QVector<double> x, e2e, prefill, xa, acc;
        for (const auto* r : rows) {
            x << double(r->budget);
            e2e << (std::isnan(r->e2eSpeedup) ? 0 : r->e2eSpeedup);
            prefill << (std::isnan(r->prefillSpeedup) ? 0 : r->prefillSpeedup);
            top = std::max({top, e2e.back(), prefill.back()});
            lo = std::min(lo, x.back());
            hi = std::max(hi, x.back());
            if (const double a = meanAccuracy(*r); !std::isnan(a)) {
                xa << x.back();
                acc << a;
                accLo = std::min(accLo, a);
                accHi = std::max(accHi, a);
            }
        }
        const QColor colour = methodColour(int(i));
        const QString title = titleOf(order[i]);
        auto* g = new QCPGraph(plot->xAxis, plot->yAxis);
        g->setName(QObject::tr("%1: end-to-end speed-up").arg(title));
        g->setData(x, e2e, true);
        g->setPen(QPen(colour, 2));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
        auto* p = new QCPGraph(plot->xAxis, plot->yAxis);
        p->setName(QObject::tr("%1: prefill speed-up").arg(title));
        p->setData(x, prefill, true);
        p->setPen(QPen(colour, 1, Qt::DotLine));
        if (!acc.isEmpty()) {
            anyAccuracy = true;
            auto* a = new QCPGraph(plot->xAxis, plot->yAxis2);
            a->setName(QObject::tr("%1: accuracy").arg(title));
            a->setData(xa, acc, true);
            a->setPen(QPen(colour, 1.5, Qt::DashDotLine));
            a->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, 6));
        }
    }
    if (hi <= 0) {
        lo = 1;
        hi = 1024;
    }
    const double x0 = lo * 0.8, x1 = hi * 1.25;
    if (dense) {
        auto* d = new QCPGraph(plot->xAxis, plot->yAxis);
        d->setName(QObject::tr("Dense (%1 visual tokens, %2 ms end to end)")
                       .arg(dense->visualTokens, 0, 'f', 0)
                       .arg(dense->e2eMs, 0, 'f', 0));
        d->setData(QVector<double>{x0, x1}, QVector<double>{1, 1});
        d->setPen(QPen(Qt::gray, 1.5, Qt::DashLine));
        if (const double a = meanAccuracy(*dense); !std::isnan(a)) {
            anyAccuracy = true;
            auto* da = new QCPGraph(plot->xAxis, plot->yAxis2);
            da->setName(QObject::tr("Dense: accuracy"));
            da->setData(QVector<double>{x0, x1}, QVector<double>{a, a});
            da->setPen(QPen(Qt::gray, 1, Qt::DashDotLine));
            accLo = std::min(accLo, a);
            accHi = std::max(accHi, a);
        }
    }
    plot->yAxis2->setVisible(anyAccuracy);
    plot->xAxis->setRange(x0, x1);
    plot->yAxis->setRange(0, top * 1.15);
    if (anyAccuracy) {
        plot->yAxis2->setRange(std::max(0.0, accLo - 5), std::min(100.0, accHi + 5));
    }
    updateLegendVisibility(plot);
    plot->replot();
    const once::MachineInfo& m = bench.machine;
    const auto setting = [&](const char* k) {
        auto it = bench.settings.find(k);
        return it == bench.settings.end() ? QString() : QString::fromStdString(it->second);
    };
    QString note = QObject::tr("Measured by once bench on %1 (%2), %3, sampling %4, %5 new tokens.")
                       .arg(QString::fromStdString(m.gpuName.empty() ? m.cpuModel : m.gpuName),
                            QString::fromStdString(m.device), setting("dtype"), setting("sampling"),
                            setting("new_tokens"));
    if (!anyAccuracy) {
        note += QLatin1Char(' ') +
                QObject::tr("No accuracy in this table (once bench --accuracy RESULTS adds it).");
    }
    return note;
}

CsvTable efficiencyPanelTable(const once::EfficiencyBench& bench) {
    CsvTable t;
    t.header = {QStringLiteral("method"),        QStringLiteral("budget"),
                QStringLiteral("visual_tokens"), QStringLiteral("e2e_ms"),
                QStringLiteral("e2e_speedup"),   QStringLiteral("prefill_speedup"),
                QStringLiteral("accuracy_pct")};
    const auto num = [](double v) {
        return std::isnan(v) ? QString() : QString::number(v, 'g', 8);
    };
    for (const auto& r : bench.rows) {
        t.rows << QStringList{QString::fromStdString(r.method),
                              r.method == "dense" ? QString() : QString::number(r.budget),
                              num(r.visualTokens),
                              num(r.e2eMs),
                              num(r.e2eSpeedup),
                              num(r.prefillSpeedup),
                              num(meanAccuracy(r))};
    }
    return t;
}

}  // namespace once::studio
