// Slow work in the real window gives feedback like loading does (issue 16, defect 8): a peer's
// preparation, a budget sweep and a slow re-compression show their progress and a Cancel in the
// status bar; Measure Sweep is off while a sweep runs; cancelling a sweep says so in the status
// bar and on the chart, which keeps the budgets measured (or the previous sweep when none was)
// instead of going blank. The slow method is "test-slow" (tests/widgets/slow_compressor.h),
// standing in for VQToken on a long video.
#include <QAction>
#include <QComboBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolButton>
#include <QtTest>

#include "../widgets/slow_compressor.h"
#include "../widgets/studio_test_data.h"
#include "budget/budget_panel.h"
#include "charts/budget_latency_chart.h"
#include "charts/charts_panel.h"
#include "main_window.h"
#include "session/studio_session.h"
#include "studio_app_test.h"
#include "studio_fixture.h"
#include "tasks/background_task.h"
#include "tasks/task_status.h"

using namespace once::studio;

namespace {
void pickMethod(BudgetPanel* panel, const QString& method) {
    const int index = panel->methodBox()->findData(method);
    QVERIFY2(index >= 0, qPrintable(method));
    panel->methodBox()->setCurrentIndex(index);
}
}  // namespace

class TestSlowWork : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        test::registerSlowCompressor();
        once::studio::test::initStudioTestApplication();
    }

    void preparationAndSweepShowProgressAndCancel() {
        const auto shown = test::shownWindow({1366, 768});
        QVERIFY(shown);
        MainWindow& window = *shown;
        StudioSession* session = window.session();
        TaskStatus* status = window.taskStatus();
        BudgetLatencyChart* chart = window.chartsPanel()->latencyChart();
        session->setVideo(test::syntheticVideo(4, 6, 6, 16));
        QVERIFY(test::waitIdle(*session, 60000, false));

        // The preparation: its name, a progress bar and Cancel in the status bar.
        test::SlowTimes::prepareSteps() = 15;
        test::SlowTimes::stepMs() = 100;
        test::SlowTimes::compressMs() = 20;
        pickMethod(window.budgetPanel(), QStringLiteral("test-slow"));
        QTRY_VERIFY_WITH_TIMEOUT(status->currentTask() == session->compressTask(), 5000);
        QVERIFY(status->isVisible());
        QVERIFY2(status->text().startsWith(QLatin1String("Preparing Slow test method")),
                 qPrintable(status->text()));
        QVERIFY(status->cancelButton()->isVisible() && status->cancelButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(status->findChild<QProgressBar*>()->maximum() > 0, 5000);
        QVERIFY(!window.measureSweepAction()->isEnabled());  // not prepared yet
        QVERIFY(test::waitForResult(*session, QStringLiteral("test-slow"), session->budget()));
        QTRY_VERIFY(!status->isVisible());
        QTRY_VERIFY(window.measureSweepAction()->isEnabled());
        QVERIFY(chart->measureButton()->isEnabled());

        // A sweep (9 budgets × 3 runs × 100 ms): progress and Cancel, both buttons off.
        test::SlowTimes::compressMs() = 100;
        QTest::mouseClick(chart->measureButton(), Qt::LeftButton);
        QVERIFY(session->isSweeping());
        QTRY_VERIFY_WITH_TIMEOUT(status->currentTask() == session->sweepTask(), 5000);
        QVERIFY2(status->text().startsWith(QLatin1String("Measuring the budget sweep")),
                 qPrintable(status->text()));
        QVERIFY(!chart->measureButton()->isEnabled());
        QVERIFY(!window.measureSweepAction()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(status->findChild<QProgressBar*>()->value() > 0, 10000);
        QTest::mouseClick(status->cancelButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!session->isSweeping(), 10000);
        QCOMPARE(window.statusBar()->currentMessage(), MainWindow::sweepCancelledMessage());
        // Cancelled after at least one budget (the progress bar had moved): those are kept and
        // drawn, and the chart says how far the sweep got (issue 30).
        QVERIFY(session->sweep().has_value());
        QVERIFY(session->sweep()->cancelled);
        QVERIFY(!session->sweep()->points.empty());
        QVERIFY(session->sweep()->points.size() < session->sweep()->plannedBudgets);
        QVERIFY(chart->hasData());
        QVERIFY2(chart->note().contains(QLatin1String("cancelled after")),
                 qPrintable(chart->note()));
        QVERIFY(chart->measureButton()->isEnabled());
        QVERIFY(window.measureSweepAction()->isEnabled());
        QVERIFY(!status->isVisible());

        // A finished sweep, then one cancelled before its first budget: the chart keeps the
        // finished one.
        test::SlowTimes::compressMs() = 5;
        window.measureSweepAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(session->sweep().has_value(), 30000);
        QTRY_VERIFY(!session->isSweeping());
        const auto points = session->sweep()->points.size();
        QVERIFY(chart->hasData());
        test::SlowTimes::compressMs() = 100;
        window.measureSweepAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(status->currentTask() == session->sweepTask(), 5000);
        session->cancel();  // Compression ▸ Cancel Running Work
        QTRY_VERIFY_WITH_TIMEOUT(!session->isSweeping(), 10000);
        QVERIFY(session->sweep().has_value());
        QCOMPARE(session->sweep()->points.size(), points);
        QVERIFY(chart->hasData());
        QVERIFY2(chart->note().contains(QLatin1String("previous")), qPrintable(chart->note()));
        QVERIFY(window.close());
    }

    void aSlowRecompressionShowsInTheStatusBarAndMarksTheNumbers() {
        const auto shown = test::shownWindow({1366, 768});
        QVERIFY(shown);
        MainWindow& window = *shown;
        StudioSession* session = window.session();
        TaskStatus* status = window.taskStatus();
        BudgetPanel* panel = window.budgetPanel();
        session->setVideo(test::syntheticVideo(4, 6, 6, 16));
        test::SlowTimes::prepareSteps() = 1;
        test::SlowTimes::compressMs() = 20;
        pickMethod(panel, QStringLiteral("test-slow"));
        QVERIFY(test::waitForResult(*session, QStringLiteral("test-slow"), session->budget()));

        // A quick re-compression does not flash in the status bar ...
        panel->spinBox()->setValue(50);
        QVERIFY(test::waitForResult(*session, QStringLiteral("test-slow"), 50));
        QVERIFY(!status->isVisible());
        // ... a slow one shows with Cancel, and the panel marks its numbers meanwhile.
        test::SlowTimes::compressMs() = 1500;
        panel->spinBox()->setValue(70);
        QVERIFY(panel->isStale());
        QVERIFY(panel->staleNote().contains(QLatin1String("Updating")));
        QTRY_VERIFY_WITH_TIMEOUT(status->currentTask() == session->compressTask(), 3000);
        QVERIFY2(status->text().contains(QLatin1String("B = 70")), qPrintable(status->text()));
        QVERIFY(status->cancelButton()->isEnabled());
        QVERIFY(test::waitForResult(*session, QStringLiteral("test-slow"), 70));
        QVERIFY(!panel->isStale());
        QTRY_VERIFY(!status->isVisible());
        test::SlowTimes::compressMs() = 50;
        test::SlowTimes::prepareSteps() = 10;
        QVERIFY(window.close());
    }
};

QTEST_MAIN(TestSlowWork)
#include "test_slow_work.moc"
