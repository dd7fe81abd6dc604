// The real main window: load the demo with one action, move the budget slider and watch the
// overlay and counts follow, export a chart and the overlaid clip, see the question panel say that
// the demo cannot answer, close during work, and get the layout back. Saves the README screenshot.
#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>
#include <QtTest>

#include "../widgets/studio_test_data.h"
#include "budget/budget_panel.h"
#include "budget/log_scale.h"
#include "charts/charts_panel.h"
#include "charts/usage_decile_chart.h"
#include "codebook/codebook.h"
#include "main_window.h"
#include "overlay/frame_overlay_view.h"
#include "overlay/group_overlay.h"
#include "player/clip_exporter.h"
#include "question/question_panel.h"
#include "session/demo_assets.h"
#include "session/studio_session.h"
#include "studio_app_test.h"
#include "studio_application.h"
#include "studio_fixture.h"
#include "support/test_support.h"
#include "tasks/background_task.h"
#include "tasks/task_status.h"
#include "video/video_reader.h"

using namespace once::studio;

using test::findAction;

class TestMainWindow : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { test::initDemoSuite(); }

    void demoLoadsWithOneActionAndTheSliderDrivesTheOverlay() {
        const auto shown = test::shownWindow();
        QVERIFY(shown);
        MainWindow& window = *shown;
        QAction* demo = findAction(&window, QStringLiteral("Load Demo"));
        QVERIFY(demo);
        QCOMPARE(demo->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_D));
        demo->trigger();
        QVERIFY(test::waitIdle(*window.session(), 300000));

        StudioSession* session = window.session();
        QCOMPARE(QString::fromStdString(session->video().backbone), QStringLiteral("demo"));
        QCOMPARE(session->video().numFrames(), std::int64_t{32});
        QCOMPARE(session->video().gridH, 27);
        QVERIFY(session->codebook());
        GroupOverlay* overlay = window.overlay();
        QVERIFY(overlay->hasResult());
        QCOMPARE(overlay->frameCount(), 32);
        QVERIFY(!overlay->frameImage(0).isNull());

        // The slider re-compresses; M, the LLM token count and the overlay follow.
        BudgetPanel* budget = window.budgetPanel();
        const auto assignment = session->assignment();
        const std::int64_t k = session->codebook()->size();
        for (std::int64_t b : {std::int64_t{8}, std::int64_t{32}, k}) {
            budget->slider()->setValue(LogScale{k}.positionOf(b));
            QTRY_VERIFY_WITH_TIMEOUT(session->result() && session->result()->budget == b, 60000);
            QVERIFY(test::waitIdle(*session));
            const auto r = session->result();
            QVERIFY(r->numOutputs <= b);
            QCOMPARE(overlay->groupCount(), static_cast<int>(r->numOutputs));
            QCOMPARE(budget->readout(QStringLiteral("llm")),
                     QString::number(r->numOutputs + session->video().layoutTokenCount()));
            QCOMPARE(session->assignment(), assignment);  // no new assignment
        }
        budget->slider()->setValue(LogScale{k}.positionOf(16));
        QTRY_VERIFY_WITH_TIMEOUT(session->result() && session->result()->budget == 16, 60000);
        QVERIFY(test::waitIdle(*session));

        // Clicking a patch highlights its group in every frame.
        FrameOverlayView* view = window.frameView();
        QTest::mouseClick(view, Qt::LeftButton, {}, view->patchCentre(27 * 13 + 13));
        QVERIFY(overlay->selectedGroup() >= 0);

        // The demo has no language model: the question panel says so and cannot ask.
        QuestionPanel* question = window.questionPanel();
        QVERIFY(!question->canAnswer());
        QVERIFY(question->unavailableReason().contains(QLatin1String("model folder")));
        QVERIFY(!question->askButton()->isEnabled());

        // A chart of this video exports.
        UsageDecileChart* usage = window.chartsPanel()->usageChart();
        QCOMPARE(usage->videoDeciles().size(), std::size_t{10});
        const QString png =
            QString::fromStdString(once::test::tempDir()) + QStringLiteral("/usage.png");
        QVERIFY(usage->exportImage(png));
        QVERIFY(!QImage(png).isNull());

        // The screenshot for the README (docs/screenshots/), kept in the build tree; set
        // ONCE_SCREENSHOT_DIR to write it elsewhere (the source tree when refreshing it).
        const QImage image = test::saveScreenshot(window, QStringLiteral("main_window.png"));
        QVERIFY(image.width() >= 1200 && image.height() >= 800);
    }

    void closingDuringWorkCancelsCleanly() {
        auto* window = new MainWindow;
        window->show();
        window->session()->loadDemo();
        QVERIFY(window->session()->isBusy());
        QTest::qWait(50);
        QVERIFY(window->close());  // cancels and joins the workers
        QVERIFY(!window->session()->isBusy());
        delete window;
    }

    void layoutIsSavedAndRestored() {
        {
            MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            auto* trainer = window.findChild<QDockWidget*>(QStringLiteral("trainerDock"));
            QVERIFY(trainer);
            QVERIFY(trainer->toggleViewAction()->isChecked());
            trainer->close();
            QVERIFY(!trainer->toggleViewAction()->isChecked());
            window.close();  // saves geometry and dock state
        }
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        auto* trainer = again.findChild<QDockWidget*>(QStringLiteral("trainerDock"));
        QVERIFY(!trainer->toggleViewAction()->isChecked());  // restored closed
        again.resetLayout();
        QVERIFY(trainer->toggleViewAction()->isChecked());
    }

    void overlaidClipExportRunsInTheStatusBar() {
        // Issue 30, item 13: File > Export Overlay > Export Overlaid Clip on the demo, on a
        // worker shown (and cancelled) in the status bar, then a whole clip read back.
        const auto window = test::shownWindow();
        QVERIFY(window);
        QAction* action = findAction(window.get(), QStringLiteral("Export Overlaid Clip…"));
        QVERIFY(action);
        QVERIFY(window->overlayExportMenu()->actions().contains(action));
        QVERIFY(!action->isEnabled());  // nothing plays yet
        QVERIFY(test::loadDemo(*window));
        QVERIFY(action->isEnabled());
        auto* exporter = window->findChild<ClipExporter*>();
        QVERIFY(exporter);
        const QString dir = QString::fromStdString(once::test::tempDir());

        QSignalSpy cancelled(exporter->task(), &BackgroundTask::cancelled);
        QVERIFY(exporter->start(dir + QStringLiteral("/cancelled.mp4")));
        QTRY_COMPARE(window->taskStatus()->currentTask(), exporter->task());
        QTest::mouseClick(window->taskStatus()->cancelButton(), Qt::LeftButton);
        QVERIFY(cancelled.wait(60000));
        QVERIFY(QDir(dir).entryList(QDir::Files).isEmpty());

        QSignalSpy exported(exporter, &ClipExporter::exported);
        const QString out = dir + QStringLiteral("/demo_overlay.mp4");
        QVERIFY(exporter->start(out));
        QVERIFY(exported.wait(300000));
        const auto demo = once::probeVideo(exporter->video().toStdString());
        const auto clip = once::probeVideo(out.toStdString());
        QCOMPARE(clip.frameCount, demo.frameCount);
        QCOMPARE(clip.fps, demo.fps);
        QVERIFY(window->statusBar()->currentMessage().contains(QStringLiteral("Overlaid clip")));
    }

    void menusFollowPlatformConventions() {
        MainWindow window;
        QStringList menus;
        for (QAction* a : window.menuBar()->actions()) {
            menus << a->text().remove(QLatin1Char('&'));
        }
        QCOMPARE(menus.first(), QStringLiteral("File"));
        QCOMPARE(menus.last(), QStringLiteral("Help"));
        QCOMPARE(findAction(&window, QStringLiteral("Open Video…"))->shortcut(),
                 QKeySequence(QKeySequence::Open));
        QCOMPARE(findAction(&window, QStringLiteral("Quit"))->shortcut(),
                 QKeySequence(QKeySequence::Quit));
        QCOMPARE(findAction(&window, QStringLiteral("Quit"))->menuRole(), QAction::QuitRole);
        QCOMPARE(findAction(&window, QStringLiteral("Preferences…"))->menuRole(),
                 QAction::PreferencesRole);
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
