// Playback with the overlay and the Batch dock (issue 30, views 13 and 17) in the real main window
// at 1366 × 768, driven as a person would: the Playback tab plays the demo with the codeword
// groups drawn on the playing picture (and off with its Groups box), and the Batch tab measures a
// folder of videos with a model folder of the published geometry and draws the speed-up panel in
// Budget vs latency. Saves the screenshots of docs/gui.md (build/…/screenshots, or
// ONCE_SCREENSHOT_DIR).
#include <QCheckBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>
#include <filesystem>

#include "batch/batch_panel.h"
#include "charts/budget_latency_chart.h"
#include "charts/charts_panel.h"
#include "main_window.h"
#include "overlay/group_overlay.h"
#include "player/playback_view.h"
#include "player/video_player_panel.h"
#include "session/studio_session.h"
#include "studio_fixture.h"
#include "support/models_fixture.h"
#include "support/test_support.h"
#include "tasks/background_task.h"

using namespace once::studio;

namespace {
constexpr QSize kLaptop{1366, 768 - 40};  // the screen less a title bar

QDockWidget* dock(MainWindow& window, const char* name) {
    return window.findChild<QDockWidget*>(QString::fromLatin1(name));
}
}  // namespace

class TestPlaybackAndBatchViews : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() { test::initDemoSuite(); }

    void theDemoPlaysWithItsGroupsDrawn() {
        const auto shown = test::shownWindow(kLaptop);
        QVERIFY(shown);
        MainWindow& window = *shown;
        QVERIFY(test::loadDemo(window));
        auto* player = window.findChild<VideoPlayerPanel*>();
        QVERIFY(player);
        QDockWidget* playerDock = dock(window, "playerDock");
        QVERIFY(playerDock);
        playerDock->raise();
        window.resizeDocks({playerDock}, {560}, Qt::Horizontal);
        window.resizeDocks({playerDock}, {420}, Qt::Vertical);
        QCOMPARE(player->source(), window.session()->video().path);
        // Play into the clip, then pause where a person would look.
        player->play();
        QTRY_VERIFY_WITH_TIMEOUT(player->position() > 1.0, 60000);
        player->pause();
        QVERIFY(!player->isPlaying());
        // The picture on screen is the decoded frame at the playhead with the groups of the
        // sampled frame at or before it, so the overlay followed the player.
        QTRY_VERIFY(player->shownFrameTime() >= 0);
        QVERIFY(!player->view()->image().isNull());
        const int sampled = window.overlay()->frameAtTime(player->shownFrameTime());
        QVERIFY(sampled > 0);
        QCOMPARE(window.overlay()->currentFrame(), sampled);
        // The groups are drawn over the playing picture, and the Groups box takes them off.
        PlaybackView* view = player->view();
        QCOMPARE(view->groupsFrame(), sampled);
        const QImage withGroups = view->grab().toImage();
        player->groupsBox()->click();
        QCOMPARE(view->groupsFrame(), -1);
        const QImage plain = view->grab().toImage();
        QVERIFY(withGroups != plain);
        player->groupsBox()->click();
        QCOMPARE(view->groupsFrame(), sampled);
        const QImage shot =
            test::saveScreenshot(window, QStringLiteral("studio_playback_1366x768.png"));
        QCOMPARE(shot.size() / shot.devicePixelRatio(), kLaptop);
    }

    void aFolderIsMeasuredFromTheBatchTab() {
        const std::string dir = once::test::tempDir();
        const std::string model = dir + "/model";
        const auto made =
            once::test::runPython("llava_ov_model_folder.py", {QString::fromStdString(model)});
        QVERIFY2(made.exitCode == 0, qPrintable(made.err));
        const std::string codebook = dir + "/codebook.safetensors";
        once::test::writeRandomCodebook(codebook, 40, 112, "llava-onevision",
                                        "projected patch grid");
        const std::string videos = dir + "/videos";
        std::filesystem::create_directories(videos);
        std::filesystem::copy_file(once::test::kRealClip, videos + "/realshort.mp4");

        const auto shown = test::shownWindow(kLaptop);
        QVERIFY(shown);
        MainWindow& window = *shown;
        StudioSession& session = *window.session();
        test::useTinyLlavaSettings(session, 2);
        session.openModelFolder(QString::fromStdString(model));
        QVERIFY(test::waitIdle(session, 300000, false));
        session.openCodebook(QString::fromStdString(codebook));
        QVERIFY(test::waitIdle(session, 300000, false));

        BatchPanel* batch = window.batchPanel();
        QDockWidget* batchDock = dock(window, "batchDock");
        QVERIFY(batchDock);
        batchDock->raise();
        window.resizeDocks({batchDock}, {300}, Qt::Vertical);
        batch->folderField()->setText(QString::fromStdString(videos));
        QListWidget* methods = batch->methodList();
        for (int i = 0; i < methods->count(); ++i) {
            const QString name = methods->item(i)->data(Qt::UserRole).toString();
            methods->item(i)->setCheckState(
                name == QLatin1String("dense") || name == QLatin1String("once") ? Qt::Checked
                                                                                : Qt::Unchecked);
        }
        batch->budgetsField()->setText(QStringLiteral("8, 16, 24"));
        batch->newTokensBox()->setValue(2);
        QVERIFY2(batch->blocker().isEmpty(), qPrintable(batch->blocker()));
        QTest::mouseClick(batch->runButton(), Qt::LeftButton);
        QVERIFY(batch->task()->isRunning() || batch->bench().has_value());
        QVERIFY(batch->task()->wait(600000));
        QVERIFY(batch->bench().has_value());
        QCOMPARE(batch->table()->rowCount(), 4);  // Dense, ONCE at 8, 16, 24
        // The window hands the result to Budget vs latency, which the screenshot shows.
        ChartsPanel* charts = window.chartsPanel();
        QVERIFY(charts->latencyChart()->showsEfficiencyBench());
        dock(window, "chartsDock")->raise();
        charts->tabs()->setCurrentWidget(charts->latencyChart());
        const QImage shot =
            test::saveScreenshot(window, QStringLiteral("studio_batch_1366x768.png"));
        QCOMPARE(shot.size() / shot.devicePixelRatio(), kLaptop);
    }
};

QTEST_MAIN(TestPlaybackAndBatchViews)
#include "test_playback_and_batch_views.moc"
