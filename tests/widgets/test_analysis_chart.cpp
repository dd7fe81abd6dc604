// The analyses chart reads back exactly what the commands write: the CSVs come from the core's
// own writers (once eval report, once analyze stress / support-origin / break-even), and each
// kind becomes the series, intervals and levels its header promises; the chart exports; other
// tables and malformed files are refused with the file and the place named.
#include <qcustomplot.h>

#include <QtTest>
#include <cmath>
#include <limits>

#include "analysis/break_even.h"
#include "analysis/stress_diagnostic.h"
#include "analysis/support_origin.h"
#include "chart_test_support.h"
#include "charts/analysis_chart.h"
#include "charts/analysis_results.h"
#include "charts/charts_panel.h"
#include "eval/report.h"
#include "session/studio_session.h"
#include "util/error.h"

using namespace once::studio;
using namespace once::studio::test;

namespace {

AnalysisResults loadWritten(const QString& name, const std::string& text) {
    const QString path = temp(name);
    writeText(path, QByteArray::fromStdString(text));
    return AnalysisResults::load(path);
}

const AnalysisSeries* seriesNamed(const AnalysisResults& r, const QString& name) {
    for (const AnalysisSeries& s : r.series) {
        if (s.name == name) {
            return &s;
        }
    }
    return nullptr;
}

once::EvalSummary evalSummary() {
    once::EvalSummary s;
    s.benchmarks = {"mvbench", "egoschema"};
    for (const char* bench : {"mvbench", "egoschema"}) {
        for (const auto& [method, budget] : std::vector<std::pair<std::string, std::int64_t>>{
                 {"dense", 0}, {"once", 256}, {"once", 64}, {"tome{r=2,x=1}", 64}}) {
            once::AccuracyCell c;
            c.benchmark = bench;
            c.method = method;
            c.budget = budget;
            c.questions = 100;
            const double pct = 40.0 + double(budget) / 16.0 + (method == "dense" ? 30 : 0);
            c.accuracyPct = {pct, pct - 4, pct + 3};
            s.accuracy.push_back(c);
            c.task = "Action Count";  // a per-task row: not on this chart
            s.accuracy.push_back(c);

            once::EfficiencyRow e;
            e.benchmark = bench;
            e.method = method;
            e.budget = budget;
            e.questions = 100;
            e.visualTokens = budget == 0 ? 6272 : double(budget) + 1;
            e.e2eSeconds = 0.5 + e.visualTokens / 1000.0;
            s.efficiency.push_back(e);
        }
    }
    return s;
}

}  // namespace

class TestAnalysisChart : public QObject {
    Q_OBJECT
  private slots:
    void accuracyIsPlottedAgainstTheBudget() {
        const AnalysisResults r =
            loadWritten(QStringLiteral("run_accuracy.csv"), once::accuracyCsv(evalSummary()));
        QCOMPARE(r.kind, AnalysisResults::Kind::Accuracy);
        QVERIFY(r.logX);
        // One line per method and benchmark (two benchmarks), Dense as a level per benchmark.
        QCOMPARE(r.series.size(), 4);
        QCOMPARE(r.levels.size(), 2);
        QCOMPARE(r.levels[0].name, QStringLiteral("dense (mvbench)"));
        QCOMPARE(r.levels[0].y, 70.0);
        const AnalysisSeries* once = seriesNamed(r, QStringLiteral("once (mvbench)"));
        QVERIFY(once);
        QCOMPARE(once->points.size(), 2);
        QCOMPARE(once->points[0].x, 64.0);  // sorted by budget
        QCOMPARE(once->points[1].x, 256.0);
        QCOMPARE(once->points[1].y, 56.0);
        QCOMPARE(once->points[1].lo, 52.0);
        QCOMPARE(once->points[1].hi, 59.0);
        QVERIFY(seriesNamed(r, QStringLiteral("tome{r=2,x=1} (egoschema)")));  // quoted label
        QVERIFY(r.note.contains(QLatin1String("8 per-task rows")));
        QCOMPARE(r.table.rows.size(), 16);
    }

    // Issue 30, defect 9: the budget axis had base-10 ticks (none at 16, 64, 256) and the
    // exported picture had no title.
    void theBudgetAxisTicksPowersOfTwoAndTheExportHasItsTitle() {
        const AnalysisResults r =
            loadWritten(QStringLiteral("ticks_accuracy.csv"), once::accuracyCsv(evalSummary()));
        AnalysisChart chart;
        chart.resize(640, 420);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setResults(r);
        QCustomPlot* plot = chart.plot();
        plot->replot();
        QCPAxis* x = plot->xAxis;
        QCOMPARE(x->scaleType(), QCPAxis::stLogarithmic);
        const QVector<double> ticks = x->tickVector();
        for (double budget : {64.0, 128.0, 256.0}) {
            QVERIFY2(ticks.contains(budget),
                     qPrintable(QStringLiteral("no tick at %1").arg(budget)));
        }
        for (const QString& label : x->tickVectorLabels()) {
            QVERIFY2(!label.contains(QLatin1Char('e')) && !label.contains(QLatin1Char('^')),
                     qPrintable(label));  // plain numbers
        }
        const QString with = QString::fromStdString(once::test::tempDir()) + QStringLiteral("/a.png");
        QString error;
        const int rows = plot->plotLayout()->rowCount();
        QVERIFY2(chart.exportImage(with, &error), qPrintable(error));
        QCOMPARE(plot->plotLayout()->rowCount(), rows);  // the heading is gone again
        // The title row: dark text pixels above where the axes start in the plain render.
        const QImage plain = plot->toPixmap(640, 400, 2.0).toImage();
        const QImage titled(with);
        QVERIFY(!titled.isNull());
        auto darkInTopBand = [](const QImage& img) {
            int dark = 0;
            for (int y = 0; y < img.height() / 12; ++y) {
                for (int xx = 0; xx < img.width(); ++xx) {
                    dark += qGray(img.pixel(xx, y)) < 100 ? 1 : 0;
                }
            }
            return dark;
        };
        QVERIFY2(darkInTopBand(titled) > darkInTopBand(plain) + 50,
                 qPrintable(QStringLiteral("%1 vs %2").arg(darkInTopBand(titled)).arg(darkInTopBand(plain))));
    }

    void efficiencyIsTimeAgainstVisualTokens() {
        const AnalysisResults r =
            loadWritten(QStringLiteral("run_efficiency.csv"), once::efficiencyCsv(evalSummary()));
        QCOMPARE(r.kind, AnalysisResults::Kind::Efficiency);
        const AnalysisSeries* dense = seriesNamed(r, QStringLiteral("dense (egoschema)"));
        QVERIFY(dense);
        QCOMPARE(dense->points.size(), 1);
        QCOMPARE(dense->points[0].x, 6272.0);
        QVERIFY(std::abs(dense->points[0].y - 6.772) < 1e-9);
        QVERIFY(!dense->points[0].hasInterval());
    }

    void breakEvenLeavesInfiniteCountsOut() {
        std::vector<once::BreakEvenRow> rows(3);
        for (int i = 0; i < 3; ++i) {
            rows[i].benchmark = "mvbench";
            rows[i].method = "once";
            rows[i].budget = std::int64_t(64) << i;
            rows[i].questions = 10;
            rows[i].denseSeconds = 2.0;
            rows[i].methodSeconds = 1.0 + 0.4 * i;
            rows[i].offlineSeconds = 3600;
            rows[i].nStar =
                once::breakEvenCount(3600, rows[i].denseSeconds - rows[i].methodSeconds);
        }
        rows[2].methodSeconds = 2.5;  // slower than dense: never repaid
        rows[2].nStar = std::numeric_limits<double>::infinity();
        const AnalysisResults r =
            loadWritten(QStringLiteral("break_even.csv"), once::breakEvenCsv(rows));
        QCOMPARE(r.kind, AnalysisResults::Kind::BreakEven);
        QVERIFY(r.logX && r.logY);
        QCOMPARE(r.series.size(), 1);
        QCOMPARE(r.series[0].points.size(), 2);
        QCOMPARE(r.series[0].points[0].y, rows[0].nStar);
        QVERIFY(r.note.contains(QLatin1String("1 row(s)")));
    }

    void supportOriginHasItsBandAndZero() {
        once::SupportOriginResult s;
        s.videos = 4;
        s.pairs = {{0, 1}, {2, 3}};
        // The same residuals at every budget: only the budget differs between rows.
        once::SupportOriginBudget row;
        row.currentR95 = 0.30;
        row.donorR95 = 0.34;
        row.deltaR95 = {0.04, 0.01, 0.07};
        for (std::int64_t b : {32, 64, 128}) {
            row.budget = b;
            s.budgets.push_back(row);
        }
        const AnalysisResults r =
            loadWritten(QStringLiteral("support.csv"), once::supportOriginCsv(s));
        QCOMPARE(r.kind, AnalysisResults::Kind::SupportOrigin);
        QCOMPARE(r.series.size(), 1);
        QCOMPARE(r.series[0].points.size(), 3);
        QCOMPARE(r.series[0].points[2].x, 128.0);
        QCOMPARE(r.series[0].points[2].lo, 0.01);
        QCOMPARE(r.series[0].points[2].hi, 0.07);
        QCOMPARE(r.levels.size(), 1);
        QCOMPARE(r.levels[0].y, 0.0);
    }

    void stressAndComparisonAreDifferencesPerMetric() {
        once::StressResult s;
        s.videos = 3;
        // The same numbers for every metric: only the name differs between rows.
        once::StressMetric m;
        m.learned = 0.2;
        m.random = 0.25;
        m.difference = {0.05, 0.03, 0.06};
        for (const char* name : {"mean", "R50", "R90", "R95", "R99"}) {
            m.name = name;
            s.metrics.push_back(m);
        }
        const AnalysisResults r = loadWritten(QStringLiteral("stress.csv"), once::stressCsv(s));
        QCOMPARE(r.kind, AnalysisResults::Kind::Stress);
        QCOMPARE(r.categories,
                 (QStringList{QStringLiteral("mean"), QStringLiteral("R50"), QStringLiteral("R90"),
                              QStringLiteral("R95"), QStringLiteral("R99")}));
        QCOMPARE(r.series[0].points.size(), 5);
        QCOMPARE(r.series[0].points[3].x, 4.0);
        QCOMPARE(r.series[0].points[3].y, 0.05);

        std::vector<once::CodebookComparison> c(2);
        c[0].name = "mean";
        c[1].name = "R95";
        c[1].difference = {0.01, -0.002, 0.02};
        const AnalysisResults cmp =
            loadWritten(QStringLiteral("stress_vs_first_1.csv"), once::comparisonCsv(c));
        QCOMPARE(cmp.kind, AnalysisResults::Kind::Comparison);
        QCOMPARE(cmp.series[0].points[1].lo, -0.002);

        // The per-video table is not a chart of its own: refused, naming the file and header.
        try {
            loadWritten(QStringLiteral("stress_videos.csv"), once::stressPerVideoCsv(s));
            QFAIL("no error");
        } catch (const once::OnceError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String("stress_videos.csv")),
                     e.what());
            QCOMPARE(e.where().field, std::string("header"));
        }
    }

    void malformedFilesAreRefusedClearly() {
        const QString path = temp(QStringLiteral("bad.csv"));
        writeText(path,
                  "budget,current_r95,donor_r95,delta_r95,band_lo,band_hi\n32,0.3,0.3,x,0,1\n");
        try {
            AnalysisResults::load(path);
            QFAIL("no error");
        } catch (const once::OnceError& e) {
            QCOMPARE(e.where().field, std::string("line 2, delta_r95"));
        }
        writeText(path, "budget,current_r95,donor_r95,delta_r95,band_lo,band_hi\n32,0.3\n");
        QVERIFY_THROWS_EXCEPTION(once::OnceError, AnalysisResults::load(path));
        writeText(path, "");
        QVERIFY_THROWS_EXCEPTION(once::OnceError, AnalysisResults::load(path));
        QVERIFY_THROWS_EXCEPTION(once::OnceError, AnalysisResults::load(temp("missing.csv")));
    }

    void chartDrawsAndExportsThroughThePanel() {
        StudioSession session;
        ChartsPanel panel(&session);
        AnalysisChart* chart = panel.analysisChart();
        QVERIFY(!chart->hasData());
        const QString path = temp(QStringLiteral("panel_accuracy.csv"));
        writeText(path, QByteArray::fromStdString(once::accuracyCsv(evalSummary())));
        QString error;
        QVERIFY2(panel.loadAnalysisResults(path, &error), qPrintable(error));
        QCOMPARE(panel.currentChart(), static_cast<ChartWidget*>(chart));
        // Four method lines, their error bars and two Dense levels.
        QCOMPARE(chart->plot()->graphCount(), 6);
        QCOMPARE(chart->plot()->plottableCount(), 10);
        checkExports(*chart, QStringLiteral("analysis_accuracy"), 16);

        // A bad file leaves the chart as it was and says why.
        QVERIFY(!panel.loadAnalysisResults(temp(QStringLiteral("missing.csv")), &error));
        QVERIFY(error.contains(QLatin1String("missing.csv")));
        QCOMPARE(chart->results().source, path);
    }
};

QTEST_MAIN(TestAnalysisChart)
#include "test_analysis_chart.moc"
