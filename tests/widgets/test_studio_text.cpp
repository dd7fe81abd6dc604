// Text that was clipped, overlapping, stale or wrong (issue 16), on the real widgets: residual
// percentile labels never overlap and legends sit under the axes (and hide when empty); chart
// exports are off without data; the statistics table leaves Dense's compress time out, totals
// only this question's stages, prints small FLOPs readably, shows every row with a tooltip and
// copies/exports (the paused player's first frame and duration: widgets_player_test_video_player).
#include <qcustomplot.h>

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QHeaderView>
#include <QTableWidget>
#include <QToolButton>
#include <QVideoFrame>
#include <QVideoSink>
#include <QVideoWidget>
#include <QtTest>

#include "charts/chart_data.h"
#include "charts/residual_chart.h"
#include "charts/usage_decile_chart.h"
#include "overlay/group_overlay.h"
#include "pipeline/answer_session.h"
#include "question/answer_statistics.h"
#include "question/question_panel.h"
#include "session/pipeline_settings.h"
#include "session/studio_session.h"
#include "support/test_support.h"
#include "util/csv.h"
#include "util/dtype_choice.h"

using namespace once::studio;

namespace {
once::AskReport report(bool dense, bool cachedDecode) {
    once::AskReport r;
    r.dense = dense;
    r.budget = dense ? 0 : 16;
    r.stages = {{"decode", 0.200, -1, cachedDecode, -1, -1},
                {"encode", 0.300, -1, cachedDecode, -1, -1},
                {"compress", dense ? 0.001 : 0.004, -1, false, -1, -1},
                {"prefill", 0.050, -1, false, -1, -1},
                {"generate", 0.100, -1, false, -1, -1}};
    r.contentTokens = dense ? 1 : 16;
    r.layoutTokens = 0;
    r.sourceTokens = 729;
    r.promptTokens = dense ? 760 : 48;
    r.prefillFlops = dense ? 8.4e8 : 5.3e7;
    r.tokenIds = {1};
    r.answer = dense ? "A door opens." : "A door.";
    return r;
}

const StatisticRow* row(const QList<StatisticRow>& rows, const QString& name) {
    for (const StatisticRow& r : rows) {
        if (r.name == name) {
            return &r;
        }
    }
    return nullptr;
}
}  // namespace

class TestStudioText : public QObject {
    Q_OBJECT
  private slots:
    void residualLabelsNeverOverlap() {
        ResidualChart chart;
        chart.resize(420, 320);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        // Before data: no legend box, no export.
        QVERIFY(!chart.plot()->legend->visible());
        QVERIFY(!chart.exportImageButton()->isEnabled());
        QVERIFY(!chart.exportDataButton()->isEnabled());

        std::vector<float> residuals;
        for (int i = 0; i < 2000; ++i) {
            residuals.push_back(0.1f + 0.0001f * static_cast<float>(i % 300));
        }
        chart.setNearestResiduals(residuals);
        // Corpus percentiles close to the video's and to each other: "R90 corpusR95 corpus".
        chart.setCorpusPercentiles({{QStringLiteral("R50"), 0.112},
                                    {QStringLiteral("R90"), 0.125},
                                    {QStringLiteral("R95"), 0.126},
                                    {QStringLiteral("R99"), 0.128}});
        QVERIFY(chart.exportImageButton()->isEnabled());
        const QList<QRectF> labels = chart.percentileLabelRects();
        QVERIFY(labels.size() >= 2 && labels.size() <= 8);  // near markers share a label
        for (int i = 0; i < labels.size(); ++i) {
            QVERIFY(!labels[i].isEmpty());
            for (int j = i + 1; j < labels.size(); ++j) {
                QVERIFY2(!labels[i].intersects(labels[j]),
                         qPrintable(QStringLiteral("labels %1 and %2 overlap").arg(i).arg(j)));
            }
        }
        // The legend is under the axes, not over the curves.
        QCustomPlot* plot = chart.plot();
        QVERIFY(plot->legend->visible());
        QVERIFY(plot->legend->outerRect().top() >= plot->axisRect()->outerRect().bottom() - 1);
        // Labels sit above the histogram's highest bin.
        double highest = 0;
        for (const double d : histogram(residuals, 60, 0.0, plot->xAxis->range().upper).density) {
            highest = std::max(highest, d);
        }
        const double binTop = plot->yAxis->coordToPixel(highest);
        for (const QRectF& r : labels) {
            QVERIFY2(r.bottom() <= binTop + 1,
                     qPrintable(QStringLiteral("%1 > %2 (axis rect %3..%4, range %5, highest %6)")
                                    .arg(r.bottom())
                                    .arg(binTop)
                                    .arg(plot->axisRect()->top())
                                    .arg(plot->axisRect()->bottom())
                                    .arg(plot->yAxis->range().upper)
                                    .arg(highest)));
        }
    }

    void usageLegendHiddenUntilThereIsData() {
        UsageDecileChart chart;
        QCustomPlot* plot = chart.findChild<QCustomPlot*>();
        QVERIFY(plot != nullptr);
        QVERIFY(!plot->legend->visible());
        chart.setVideoCounts({9, 5, 3, 2, 1, 1, 1, 0, 0, 0, 4, 2});
        QVERIFY(plot->legend->visible());
        QVERIFY(chart.exportDataButton()->isEnabled());
    }

    void statisticsRowsSayWhatRan() {
        const once::AskReport dense = report(true, false);
        const once::AskReport compressed = report(false, true);  // decode/encode reused
        const QList<StatisticRow> rows = answerStatistics(&dense, &compressed);
        const StatisticRow* compress = row(rows, QStringLiteral("compress time"));
        QVERIFY(compress != nullptr);
        QCOMPARE(compress->dense, QStringLiteral("—"));  // Dense compresses nothing
        QCOMPARE(compress->compressed, QStringLiteral("4.0 ms"));
        QCOMPARE(row(rows, QStringLiteral("decode time"))->compressed,
                 QStringLiteral("200.0 ms (cached)"));
        // Total: Dense ran decode, encode, prefill, generate (650 ms); the compressed column
        // only compress, prefill and generate (154 ms): cached stages were paid before.
        QCOMPARE(row(rows, QStringLiteral("Total time"))->dense, QStringLiteral("650.0 ms"));
        QCOMPARE(row(rows, QStringLiteral("Total time"))->compressed, QStringLiteral("154.0 ms"));
        QCOMPARE(row(rows, QStringLiteral("Prefill FLOPs"))->dense, QStringLiteral("840 MFLOPs"));
        QCOMPARE(row(rows, QStringLiteral("Prefill FLOPs"))->compressed,
                 QStringLiteral("53.0 MFLOPs"));
        for (const StatisticRow& r : rows) {
            QVERIFY2(!r.tooltip.isEmpty(), qPrintable(r.name));
        }
        QCOMPARE(formatFlops(3.42e12), QStringLiteral("3.42 TFLOPs"));
        QCOMPARE(formatFlops(1.27e9), QStringLiteral("1.27 GFLOPs"));
        QCOMPARE(formatFlops(0), QStringLiteral("—"));
        QCOMPARE(formatFlops(std::nan("")), QStringLiteral("—"));

        // The compute dtype row (issue 19): the settings' dtype with "auto" resolved as the
        // CLI resolves it, the reason in the tooltip; absent without settings.
        QVERIFY(row(rows, QStringLiteral("Compute dtype")) == nullptr);
        PipelineSettings ps;
        ps.dtype = QStringLiteral("bf16");
        const QList<StatisticRow> withDtype = answerStatistics(&dense, &compressed, &ps);
        QCOMPARE(withDtype.size(), rows.size() + 1);
        const StatisticRow* dt = row(withDtype, QStringLiteral("Compute dtype"));
        QVERIFY(dt != nullptr);
        QCOMPARE(dt->dense, QStringLiteral("bfloat16"));
        QCOMPARE(dt->compressed, QStringLiteral("bfloat16"));
        QVERIFY2(dt->tooltip.contains(QStringLiteral("requested")), qPrintable(dt->tooltip));
        ps.dtype = QStringLiteral("auto");
        const QList<StatisticRow> autoRows = answerStatistics(&dense, nullptr, &ps);
        dt = row(autoRows, QStringLiteral("Compute dtype"));
        QVERIFY(dt != nullptr);
        const once::DtypeChoice want = once::chooseComputeDtype("auto", "cpu");
        QCOMPARE(dt->dense, QString::fromStdString(want.resolved));
        QVERIFY(dt->compressed.isEmpty());  // no report in that column
        QVERIFY2(dt->tooltip.contains(QString::fromStdString(want.reason)),
                 qPrintable(dt->tooltip));
        ps.dtype = QStringLiteral("fp8");  // a hand-edited settings file: shown, not thrown
        const QList<StatisticRow> badRows = answerStatistics(&dense, nullptr, &ps);
        dt = row(badRows, QStringLiteral("Compute dtype"));
        QVERIFY(dt != nullptr);
        QCOMPARE(dt->dense, QStringLiteral("fp8"));
        QVERIFY2(dt->tooltip.contains(QStringLiteral("fp8")), qPrintable(dt->tooltip));
    }

    void statisticsTableShowsEveryRowAndExports() {
        StudioSession session;
        QuestionPanel panel(&session);
        panel.resize(520, 360);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTableWidget* table = panel.statisticsTable();
        // Before a question: the rows with their tooltips, nothing to copy.
        QVERIFY(table->rowCount() >= 10);
        QVERIFY(!table->verticalHeaderItem(0)->toolTip().isEmpty());
        QVERIFY(!panel.copyTableButton()->isEnabled());
        QVERIFY(!panel.copyAnswersButton()->isEnabled());

        const once::AskReport dense = report(true, false);
        const once::AskReport compressed = report(false, false);
        panel.showAnswerReports(&dense, &compressed, QStringLiteral("ONCE"));
        QTest::qWait(50);
        // Every row is visible inside the table itself (no inner scrolling).
        for (int i = 0; i < table->rowCount(); ++i) {
            const QRect r = table->visualRect(table->model()->index(i, 0));
            QVERIFY2(table->viewport()->rect().contains(r),
                     qPrintable(table->verticalHeaderItem(i)->text()));
        }
        QCOMPARE(panel.statistic(QStringLiteral("compress time"), 0), QStringLiteral("—"));
        QVERIFY(panel.copyTableButton()->isEnabled());
        QVERIFY(panel.copyAnswersButton()->isEnabled());

        QTest::mouseClick(panel.copyAnswersButton(), Qt::LeftButton);
        const QString answers = QApplication::clipboard()->text();
        QVERIFY2(answers.contains(QLatin1String("A door opens.")) &&
                     answers.contains(QLatin1String("A door.")),
                 qPrintable(answers));
        QTest::mouseClick(panel.copyTableButton(), Qt::LeftButton);
        QVERIFY(QApplication::clipboard()->text().contains(QStringLiteral("Total time\t")));

        const QString dir = QString::fromStdString(once::test::tempDir());
        QString error;
        QVERIFY2(panel.exportStatistics(dir + QStringLiteral("/stats.csv"), &error),
                 qPrintable(error));
        QFile csv(dir + QStringLiteral("/stats.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines =
            QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), table->rowCount() + 1);
        QCOMPARE(once::csvCells(lines.first().toStdString()).size(), std::size_t{3});
        QVERIFY(panel.saveAnswers(dir + QStringLiteral("/answers.txt"), &error));
        QFile text(dir + QStringLiteral("/answers.txt"));
        QVERIFY(text.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(text.readAll()).contains(QLatin1String("Prefill FLOPs")));
    }
};

QTEST_MAIN(TestStudioText)
#include "test_studio_text.moc"
