// The analyses chart draws what core reads back of the commands' CSVs (the reading itself:
// tests/analysis/test_analysis_table.cpp): the table named for the chart, its lines, error bars
// and levels through the charts panel, the exports, and a bad file refused without touching the
// chart.
#include <qcustomplot.h>

#include <QtTest>
#include <cmath>
#include <limits>

#include "analysis/stress_diagnostic.h"
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
    // The table core reads (tests/analysis/test_analysis_table.cpp) is named for the chart:
    // translated title and labels, the note on the rows left out, the file's series names.
    void tablesAreNamedForTheChart() {
        const QString path = temp(QStringLiteral("run_accuracy.csv"));
        writeText(path, QByteArray::fromStdString(once::accuracyCsv(evalSummary())));
        const AnalysisResults r = AnalysisResults::load(path);
        QCOMPARE(r.title, QStringLiteral("Accuracy vs budget"));
        QCOMPARE(r.source, path);
        QCOMPARE(r.seriesNames.size(), int(r.data.series.size()));
        QVERIFY(r.seriesNames.contains(QStringLiteral("tome{r=2,x=1} (egoschema)")));
        QCOMPARE(r.levelNames.first(), QStringLiteral("dense (mvbench)"));
        QVERIFY(r.note.contains(QLatin1String("8 per-task rows")));
        QCOMPARE(r.table.rows.size(), 16);

        std::vector<once::CodebookComparison> c(1);
        c[0].name = "R95";
        const QString cmp = temp(QStringLiteral("stress_vs_first_1.csv"));
        writeText(cmp, QByteArray::fromStdString(once::comparisonCsv(c)));
        const AnalysisResults d = AnalysisResults::load(cmp);
        QCOMPARE(d.seriesNames, QStringList{QStringLiteral("other − reference")});
        QCOMPARE(d.levelNames, QStringList{QStringLiteral("no difference")});
        QCOMPARE(d.categories, QStringList{QStringLiteral("R95")});
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
