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
#include "support/eval_summary_fixture.h"
#include "util/error.h"

using namespace once::studio;
using namespace once::studio::test;

class TestAnalysisChart : public QObject {
    Q_OBJECT
  private slots:
    // The table core reads (tests/analysis/test_analysis_table.cpp) is named for the chart:
    // translated title and labels, the note on the rows left out, the file's series names.
    void tablesAreNamedForTheChart() {
        const QString path = temp(QStringLiteral("run_accuracy.csv"));
        writeText(path,
                  QByteArray::fromStdString(once::accuracyCsv(once::test::sampleEvalSummary())));
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

    // Issue 30, defect 9: the budget axis had base-10 ticks (none at 16, 64, 256) and the
    // exported picture had no title.
    void theBudgetAxisTicksPowersOfTwoAndTheExportHasItsTitle() {
        const QString path = temp(QStringLiteral("ticks_accuracy.csv"));
        writeText(path,
                  QByteArray::fromStdString(once::accuracyCsv(once::test::sampleEvalSummary())));
        const AnalysisResults r = AnalysisResults::load(path);
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
        const QString with = temp(QStringLiteral("a.png"));
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
        QVERIFY2(
            darkInTopBand(titled) > darkInTopBand(plain) + 50,
            qPrintable(
                QStringLiteral("%1 vs %2").arg(darkInTopBand(titled)).arg(darkInTopBand(plain))));
    }

    void chartDrawsAndExportsThroughThePanel() {
        StudioSession session;
        ChartsPanel panel(&session);
        AnalysisChart* chart = panel.analysisChart();
        QVERIFY(!chart->hasData());
        const QString path = temp(QStringLiteral("panel_accuracy.csv"));
        writeText(path,
                  QByteArray::fromStdString(once::accuracyCsv(once::test::sampleEvalSummary())));
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
