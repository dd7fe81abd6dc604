// Analysis tables read back exactly what the commands write: the CSVs come from the core's own
// writers (once eval report, once analyze stress / support-origin / break-even), and each kind
// becomes the series, intervals and levels its header promises; other tables and malformed files
// are refused with the file and the place named.
#include <QtTest>
#include <cmath>
#include <fstream>
#include <limits>

#include "analysis/analysis_table.h"
#include "analysis/break_even.h"
#include "analysis/stress_diagnostic.h"
#include "analysis/support_origin.h"
#include "eval/report.h"
#include "support/eval_summary_fixture.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;

namespace {

// Writes `text` as `name` in a fresh folder and reads it back.
AnalysisTable loadWritten(const std::string& name, const std::string& text) {
    const std::string path = test::tempDir() + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return AnalysisTable::load(path);
}

const AnalysisSeries* seriesNamed(const AnalysisTable& r, const std::string& name) {
    for (const AnalysisSeries& s : r.series) {
        if (s.name == name) {
            return &s;
        }
    }
    return nullptr;
}

}  // namespace

class TestAnalysisTable : public QObject {
    Q_OBJECT
  private slots:
    void accuracyIsPlottedAgainstTheBudget() {
        const AnalysisTable r =
            loadWritten(("run_accuracy.csv"), once::accuracyCsv(once::test::sampleEvalSummary()));
        QCOMPARE(r.kind, AnalysisTable::Kind::Accuracy);
        QVERIFY(r.logX);
        // One line per method and benchmark (two benchmarks), Dense as a level per benchmark.
        QCOMPARE(r.series.size(), 4);
        QCOMPARE(r.levels.size(), 2);
        QCOMPARE(r.levels[0].name, std::string("dense (mvbench)"));
        QCOMPARE(r.levels[0].y, 70.0);
        const AnalysisSeries* once = seriesNamed(r, std::string("once (mvbench)"));
        QVERIFY(once);
        QCOMPARE(once->points.size(), 2);
        QCOMPARE(once->points[0].x, 64.0);  // sorted by budget
        QCOMPARE(once->points[1].x, 256.0);
        QCOMPARE(once->points[1].y, 56.0);
        QCOMPARE(once->points[1].lo, 52.0);
        QCOMPARE(once->points[1].hi, 59.0);
        QVERIFY(seriesNamed(r, std::string("tome{r=2,x=1} (egoschema)")));  // quoted label
        QCOMPARE(r.rowsLeftOut, std::int64_t{8});  // the per-task rows: the radar's
        QCOMPARE(r.table.rows.size(), 16);
    }

    void efficiencyIsTimeAgainstVisualTokens() {
        const AnalysisTable r = loadWritten(("run_efficiency.csv"),
                                            once::efficiencyCsv(once::test::sampleEvalSummary()));
        QCOMPARE(r.kind, AnalysisTable::Kind::Efficiency);
        const AnalysisSeries* dense = seriesNamed(r, std::string("dense (egoschema)"));
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
        const AnalysisTable r = loadWritten(("break_even.csv"), once::breakEvenCsv(rows));
        QCOMPARE(r.kind, AnalysisTable::Kind::BreakEven);
        QVERIFY(r.logX && r.logY);
        QCOMPARE(r.series.size(), 1);
        QCOMPARE(r.series[0].points.size(), 2);
        QCOMPARE(r.series[0].points[0].y, rows[0].nStar);
        QCOMPARE(r.rowsLeftOut, std::int64_t{1});
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
        const AnalysisTable r = loadWritten(("support.csv"), once::supportOriginCsv(s));
        QCOMPARE(r.kind, AnalysisTable::Kind::SupportOrigin);
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
        const AnalysisTable r = loadWritten(("stress.csv"), once::stressCsv(s));
        QCOMPARE(r.kind, AnalysisTable::Kind::Stress);
        QCOMPARE(r.categories, (std::vector<std::string>{"mean", "R50", "R90", "R95", "R99"}));
        QCOMPARE(r.series[0].points.size(), 5);
        QCOMPARE(r.series[0].points[3].x, 4.0);
        QCOMPARE(r.series[0].points[3].y, 0.05);

        std::vector<once::CodebookComparison> c(2);
        c[0].name = "mean";
        c[1].name = "R95";
        c[1].difference = {0.01, -0.002, 0.02};
        const AnalysisTable cmp = loadWritten(("stress_vs_first_1.csv"), once::comparisonCsv(c));
        QCOMPARE(cmp.kind, AnalysisTable::Kind::Comparison);
        QCOMPARE(cmp.series[0].points[1].lo, -0.002);

        // The per-video table is not a chart of its own: refused, naming the file and header.
        try {
            loadWritten(("stress_videos.csv"), once::stressPerVideoCsv(s));
            QFAIL("no error");
        } catch (const once::OnceError& e) {
            QVERIFY2(std::string(e.what()).find("stress_videos.csv") != std::string::npos,
                     e.what());
            QCOMPARE(e.where().field, std::string("header"));
        }
    }

    void malformedFilesAreRefusedClearly() {
        const std::string path = test::tempDir() + "/bad.csv";
        auto writeText = [&](const std::string& text) {
            std::ofstream(path, std::ios::binary) << text;
        };
        writeText("budget,current_r95,donor_r95,delta_r95,band_lo,band_hi\n32,0.3,0.3,x,0,1\n");
        try {
            AnalysisTable::load(path);
            QFAIL("no error");
        } catch (const once::OnceError& e) {
            QCOMPARE(e.where().field, std::string("line 2, delta_r95"));
        }
        writeText("budget,current_r95,donor_r95,delta_r95,band_lo,band_hi\n32,0.3\n");
        QVERIFY_THROWS_EXCEPTION(once::OnceError, AnalysisTable::load(path));
        writeText("");
        QVERIFY_THROWS_EXCEPTION(once::OnceError, AnalysisTable::load(path));
        QVERIFY_THROWS_EXCEPTION(once::OnceError,
                                 AnalysisTable::load(test::tempDir() + "/missing.csv"));
    }
};

QTEST_MAIN(TestAnalysisTable)
#include "test_analysis_table.moc"
