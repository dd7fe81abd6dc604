// The charts' numbers (deciles, percentiles, histograms, CSV) and their exports: every chart
// writes PNG, SVG and PDF files that are what they claim to be, and its data as CSV.
#include <qcustomplot.h>

#include <QFile>
#include <QImage>
#include <QSvgRenderer>
#include <QtTest>
#include <cmath>

#include "chart_test_support.h"
#include "charts/budget_latency_chart.h"
#include "charts/chart_data.h"
#include "charts/chart_export.h"
#include "charts/charts_panel.h"
#include "charts/residual_chart.h"
#include "charts/task_radar_chart.h"
#include "charts/usage_decile_chart.h"
#include "eval/efficiency_bench_file.h"
#include "eval/report.h"
#include "eval/task_accuracy.h"
#include "session/studio_session.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once::studio;

using namespace once::studio::test;

/// A budget sweep over `budgets` with made-up times (and prefill times when `prefill`).
static once::BudgetSweep sweepOf(std::initializer_list<std::int64_t> budgets, bool prefill) {
    once::BudgetSweep sweep;
    sweep.denseTokens = 23328;
    sweep.assignMs = 40;
    sweep.densePrefillMs = prefill ? 900 : -1;
    for (std::int64_t b : budgets) {
        once::SweepPoint p;
        p.budget = b;
        p.outputs = b;
        p.selectMs = 0.1;
        p.reassignMs = 0.2 * double(b);
        p.poolMs = 0.5;
        p.prefillMs = prefill ? 100.0 + double(b) : -1;
        sweep.points.push_back(p);
    }
    return sweep;
}

class TestCharts : public QObject {
    Q_OBJECT
  private slots:
    void decilesAreEqualCountSharesOfAssignments() {
        // 20 codewords: two per decile; the most used first.
        std::vector<std::int64_t> counts(20, 1);
        counts[3] = 81;  // 100 assignments in all
        const auto d = usageDeciles(counts);
        QCOMPARE(d.size(), std::size_t{10});
        QCOMPARE(d[0], 0.82);
        for (int i = 1; i < 10; ++i) {
            QCOMPARE(d[i], 0.02);
        }
        const auto uniform = usageDeciles(std::vector<std::int64_t>(50, 3));
        for (double v : uniform) {
            QCOMPARE(v, 0.1);
        }
        QVERIFY(usageDeciles({0, 0}).empty());
        // K not divisible by 10: groups differ by at most one codeword, shares still sum to 1.
        const auto odd = usageDeciles({5, 4, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1});
        double sum = 0;
        for (double v : odd) {
            sum += v;
        }
        QCOMPARE(sum, 1.0);
    }

    void percentilesInterpolateLikeNumPy() {
        const std::vector<float> v = {4, 1, 3, 2, 5};
        QCOMPARE(percentile(v, 50), 3.0);
        QCOMPARE(percentile(v, 90), 4.6);  // numpy.percentile([1..5], 90)
        QCOMPARE(percentile(v, 0), 1.0);
        QCOMPARE(percentile(v, 100), 5.0);
        QVERIFY(std::isnan(percentile({}, 50)));
        const Histogram h = histogram({0.05f, 0.15f, 0.15f, 0.95f}, 10, 0, 1);
        double area = 0;
        for (double d : h.density) {
            area += d * h.binWidth();
        }
        QVERIFY(std::abs(area - 1.0) < 1e-12);
        QCOMPARE(h.density[1], 5.0);  // half of the mass in a bin of width 0.1
    }

    void csvQuotesWhatNeedsQuoting() {
        CsvTable t;
        t.header = {QStringLiteral("task"), QStringLiteral("value")};
        t.rows << QStringList{QStringLiteral("a, b"), QStringLiteral("say \"hi\"")};
        QCOMPARE(t.toCsv(), QStringLiteral("task,value\r\n\"a, b\",\"say \"\"hi\"\"\"\r\n"));
    }

    void usageChartExports() {
        UsageDecileChart chart;
        std::vector<std::int64_t> counts;
        for (int i = 0; i < 100; ++i) {
            counts.push_back(100 - i);
        }
        chart.setVideoCounts(counts);
        chart.setCorpusDeciles({0.2, 0.15, 0.12, 0.1, 0.09, 0.09, 0.08, 0.07, 0.05, 0.05});
        checkExports(chart, QStringLiteral("usage"), 10);
    }

    void residualChartExports() {
        ResidualChart chart;
        std::vector<float> nearest, atBudget;
        for (int i = 0; i < 1000; ++i) {
            nearest.push_back(0.001f * static_cast<float>(i % 100));
            atBudget.push_back(0.002f * static_cast<float>(i % 100));
        }
        chart.setNearestResiduals(nearest);
        chart.setBudgetResiduals(atBudget, 64);
        chart.setCorpusPercentiles({{QStringLiteral("R50"), 0.04}, {QStringLiteral("R95"), 0.09}});
        QCOMPARE(chart.videoPercentiles().at(QStringLiteral("R50")), percentile(nearest, 50));
        // 4 + 4 + 2 percentile rows and two 60-bin histograms.
        checkExports(chart, QStringLiteral("residual"), 10 + 120);
    }

    void latencyChartExports() {
        BudgetLatencyChart chart;
        chart.setSweep(sweepOf({1, 2, 4, 8, 16}, false), 1);
        checkExports(chart, QStringLiteral("latency"), 1 + 5);
    }

    void latencyChartDrawsABenchTable() {
        // A `once bench` table as the file holds it: Dense, ONCE and ForestPrune at two
        // budgets, accuracy for ONCE and Dense only.
        once::EfficiencyBench bench;
        bench.machine.cpuModel = "Test CPU";
        bench.machine.device = "cpu";
        bench.settings = {{"dtype", "bfloat16"}, {"sampling", "uniform:8"}, {"new_tokens", "16"}};
        auto row = [](const std::string& m, std::int64_t b, double e2e, double acc) {
            once::EfficiencyBenchRow r;
            r.method = m;
            r.budget = b;
            r.samples = 3;
            r.newTokens = 16;
            r.visualTokens = b ? double(b) : 5833;
            r.e2eMs = e2e;
            r.prefillMs = e2e / 2;
            r.e2eSpeedup = 1000 / e2e;
            r.prefillSpeedup = 500 / r.prefillMs;
            if (acc > 0) {
                r.accuracyPct["mvbench"] = acc;
            }
            return r;
        };
        bench.rows = {row("dense", 0, 1000, 56), row("once", 64, 200, 50),
                      row("once", 512, 300, 55), row("forestprune", 64, 220, 0),
                      row("forestprune", 512, 320, 0)};
        const QString path = temp(QStringLiteral("bench.json"));
        once::saveEfficiencyBench(bench, path.toStdString());
        BudgetLatencyChart chart;
        chart.setEfficiencyBench(once::loadEfficiencyBench(path.toStdString()));
        QVERIFY(chart.showsEfficiencyBench());
        // Per method: end-to-end and prefill speed-up (+ accuracy for ONCE); Dense at 1 and its
        // accuracy.
        QCOMPARE(chart.plot()->graphCount(), 3 + 2 + 2);
        QVERIFY(chart.plot()->yAxis2->visible());
        QVERIFY2(chart.note().contains("Test CPU"), qPrintable(chart.note()));
        const CsvTable t = chart.table();
        QCOMPARE(t.rows.size(), 5);
        QCOMPARE(t.rows[1][0], QStringLiteral("once"));
        QCOMPARE(t.rows[1][4].toDouble(), 5.0);
        QCOMPARE(t.rows[3][6], QString());  // no accuracy for ForestPrune
        checkExports(chart, QStringLiteral("bench"), 5);
        // A new measured sweep replaces the loaded table.
        once::BudgetSweep sweep;
        sweep.denseTokens = 100;
        once::SweepPoint p;
        p.budget = 4;
        p.outputs = 4;
        sweep.points.push_back(p);
        chart.setSweep(sweep, 1);
        QVERIFY(!chart.showsEfficiencyBench());
        QCOMPARE(chart.table().rows.size(), 1 + 1);  // Dense and the one budget
    }

    void benchResultsLoadThroughThePanel() {
        // File ▸ Open Bench Results… in "Budget vs latency"; a bad file keeps the chart and says
        // why (the GUI never dies on a bad file).
        StudioSession session;
        ChartsPanel panel(&session);
        once::EfficiencyBench bench;
        bench.machine.cpuModel = "Panel CPU";
        once::EfficiencyBenchRow dense;
        dense.method = "dense";
        dense.samples = 1;
        dense.newTokens = 4;
        dense.e2eMs = 100;
        dense.prefillMs = 50;
        dense.e2eSpeedup = dense.prefillSpeedup = 1;
        once::EfficiencyBenchRow compressed = dense;
        compressed.method = "once";
        compressed.budget = 32;
        compressed.e2eMs = 20;
        compressed.e2eSpeedup = 5;
        bench.rows = {dense, compressed};
        const QString path = temp(QStringLiteral("panel_bench.json"));
        once::saveEfficiencyBench(bench, path.toStdString());
        QString error;
        QVERIFY2(panel.loadBenchResults(path, &error), qPrintable(error));
        QVERIFY(panel.latencyChart()->showsEfficiencyBench());
        QCOMPARE(panel.latencyChart()->table().rows.size(), 2);
        const QString bad = temp(QStringLiteral("panel_bad.json"));
        writeText(bad,
                  R"({"format": "once-bench/1", "machine": {}, "rows": [{"method": "once"}]})");
        QVERIFY(!panel.loadBenchResults(bad, &error));
        QVERIFY2(error.contains(QLatin1String("budget")), qPrintable(error));
        QVERIFY(panel.latencyChart()->showsEfficiencyBench());
        QVERIFY(panel.latencyChart()->note().contains(QLatin1String("Panel CPU")));
    }

    // Issue 30, defect 9: in a narrow dock the empty chart was ~50 px between two y axes, and
    // three legend columns cut every entry ("Prefill FLC").
    void latencyChartFitsANarrowDock() {
        BudgetLatencyChart chart;
        chart.resize(360, 420);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot* plot = chart.plot();
        plot->replot();
        QVERIFY(!plot->yAxis2->visible());  // nothing on it before a sweep
        QVERIFY2(plot->axisRect()->width() > plot->width() / 2,
                 qPrintable(QStringLiteral("axes %1 px of %2 (outer %3)")
                                .arg(plot->axisRect()->width())
                                .arg(plot->width())
                                .arg(plot->axisRect()->outerRect().width())));
        chart.setSweep(sweepOf({1, 4, 16, 64, 256}, true), 1);
        plot->replot();
        QVERIFY(plot->yAxis2->visible());
        QVERIFY(plot->legend->itemCount() >= 4);
        for (int i = 0; i < plot->legend->itemCount(); ++i) {
            QCPAbstractLegendItem* item = plot->legend->item(i);
            if (item == nullptr) {
                continue;  // an empty cell of the wrapped grid
            }
            QVERIFY2(item->outerRect().width() >= item->minimumOuterSizeHint().width() &&
                         item->outerRect().right() <= plot->width(),
                     qPrintable(QStringLiteral("entry %1 cut: %2 < %3")
                                    .arg(i)
                                    .arg(item->outerRect().width())
                                    .arg(item->minimumOuterSizeHint().width())));
        }
        const QVector<double> ticks = plot->xAxis->tickVector();
        QVERIFY(ticks.contains(16.0) && ticks.contains(64.0));
    }

    void radarExportsEachMethodInItsColour() {
        const QString longCsv = temp(QStringLiteral("eval_long.csv"));
        writeText(longCsv,
                  "task,method,accuracy\nAction Count,Dense,40\nAction Count,ONCE,45\n"
                  "State Change,Dense,50\nState Change,ONCE,55\nObject Shuffle,Dense,30\n"
                  "Object Shuffle,ONCE,38\n");
        const once::TaskAccuracy r = once::TaskAccuracy::load(longCsv.toStdString());
        TaskRadarChart chart;
        chart.setResults(r);
        checkExports(chart, QStringLiteral("radar"), 6);

        // Issue 16: every polygon was black. Each method has its own colour, and the exported
        // PNG and SVG carry it.
        QVERIFY(TaskRadarChart::seriesColor(0) != TaskRadarChart::seriesColor(1));
        const QImage image(temp(QStringLiteral("radar.png")));
        const QByteArray svg = readAll(temp(QStringLiteral("radar.svg"))).toLower();
        for (int m = 0; m < int(r.methods.size()); ++m) {
            const QColor c = TaskRadarChart::seriesColor(m);
            QVERIFY(c.lightness() > 40);  // not black
            int matching = 0;
            for (int y = 0; y < image.height(); ++y) {
                for (int x = 0; x < image.width(); ++x) {
                    const QColor p = image.pixelColor(x, y);
                    matching += std::abs(p.red() - c.red()) + std::abs(p.green() - c.green()) +
                                    std::abs(p.blue() - c.blue()) <
                                24;
                }
            }
            QVERIFY2(matching > 100,
                     qPrintable(QStringLiteral("%1: %2 pixels of %3")
                                    .arg(QString::fromStdString(r.methods[std::size_t(m)]))
                                    .arg(matching)
                                    .arg(c.name())));
            QVERIFY2(svg.contains(c.name().toLatin1()), qPrintable(c.name()));
        }
    }

    void unsupportedFormatsAreRefused() {
        UsageDecileChart chart;
        QString error;
        QVERIFY(!chart.exportImage(temp(QStringLiteral("chart.bmp")), &error));
        QVERIFY(error.contains(QLatin1String("unsupported")));
    }
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"
