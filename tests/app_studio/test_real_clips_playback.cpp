// Issue 30, crash 1: the 1906 Theora film of real-data.md opened in the real window and played
// to its end. It killed the studio within seconds (SIGFPE in Qt Multimedia's FFmpeg render
// thread, no user action needed) although the core decodes it; the studio now plays with the
// core's own decoder. While it plays, the overlay follows the playhead; choosing a frame in the
// strip moves the playhead to that frame's time.
#include <QDockWidget>
#include <QFileInfo>
#include <QSignalSpy>
#include <QToolButton>
#include <QtTest>

#include "main_window.h"
#include "overlay/group_overlay.h"
#include "player/playback_buffer.h"
#include "player/video_player_panel.h"
#include "session/studio_session.h"
#include "studio_fixture.h"
#include "support/real_clips.h"

using namespace once::studio;

class TestRealClipsPlayback : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { once::studio::test::initStudioTestApplication(); }

    void theoraFilmPlaysToItsEndInTheWindow() {
        const QString film = QString::fromLatin1(once::test::kTheoraFilm);
        if (!QFileInfo::exists(film)) {
            QFAIL(
                "python-nbsphinx-doc is not installed (scripts/setup.sh installs it): a broken "
                "set-up fails, it does not skip");
        }
        auto window = once::studio::test::shownWindow({1366, 728});
        QVERIFY(window);
        window->session()->openVideo(film);
        QVERIFY(once::studio::test::waitIdle(*window->session(), 300000, false));
        QVERIFY2(!window->session()->video().isEmpty(), "the core refused the clip");
        auto* dock = window->findChild<QDockWidget*>(QStringLiteral("playerDock"));
        QVERIFY(dock);
        dock->raise();
        auto* panel = window->findChild<VideoPlayerPanel*>();
        QVERIFY(panel);
        QCOMPARE(panel->source(), film);
        QTRY_VERIFY_WITH_TIMEOUT(!panel->view()->image().isNull(), 30000);

        // The strip's frame 10 moves the playhead to its time.
        GroupOverlay* overlay = window->overlay();
        overlay->setCurrentFrame(10);
        QTRY_VERIFY_WITH_TIMEOUT(std::abs(panel->shownFrameTime() - overlay->frameTime(10)) < 1e-3,
                                 20000);
        panel->seek(0);
        QTRY_COMPARE_WITH_TIMEOUT(panel->shownFrameTime(), 0.0, 20000);

        // Played with the mouse, to the end (19 s); the overlay's frame follows.
        QSignalSpy finished(panel, &VideoPlayerPanel::finished);
        QList<int> frames;
        connect(overlay, &GroupOverlay::currentFrameChanged, this,
                [&frames](int f) { frames << f; });
        QTest::mouseClick(panel->playButton(), Qt::LeftButton);
        QVERIFY(panel->isPlaying());
        QVERIFY(finished.wait(120000));
        QVERIFY(window->isVisible());
        QCOMPARE(overlay->currentFrame(), overlay->frameCount() - 1);
        QVERIFY2(frames.size() >= overlay->frameCount() - 2,
                 qPrintable(QString::number(frames.size())));
        for (int i = 1; i < frames.size(); ++i) {
            QVERIFY(frames[i] >= frames[i - 1]);  // forward only, no jumps back
        }
        QCOMPARE(panel->shownFrameTime(), panel->buffer()->lastFrameTime());
    }
};

QTEST_MAIN(TestRealClipsPlayback)
#include "test_real_clips_playback.moc"
