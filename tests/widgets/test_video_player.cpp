// The playback panel: what it says for no video, a frame folder and a playable file, and the
// Space shortcut its tooltip promises (a text field keeps its own spaces).
#include <QAudioDevice>
#include <QLineEdit>
#include <QMediaDevices>
#include <QMediaPlayer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtTest>

#include "overlay/group_overlay.h"
#include "player/video_player_panel.h"
#include "support/test_support.h"

using namespace once::studio;

class TestVideoPlayer : public QObject {
    Q_OBJECT
  private slots:
    void sourcesAndNotes() {
        GroupOverlay overlay;
        VideoPlayerPanel panel(&overlay);
        QVERIFY(!panel.playButton()->isEnabled());
        QVERIFY(panel.note().contains(QLatin1String("No video")));

        const QString folder = QString::fromStdString(once::test::tempDir());
        panel.setSource(folder);
        QVERIFY(!panel.playButton()->isEnabled());
        QVERIFY2(panel.note().contains(QLatin1String("cannot be played")),
                 qPrintable(panel.note()));

        const QString video =
            QString::fromStdString(once::test::sourcePath("resources/demo/demo.mp4"));
        panel.setSource(video);
        QVERIFY(panel.playButton()->isEnabled());
        QVERIFY(panel.note().isEmpty());
        QCOMPARE(panel.player()->source(), QUrl::fromLocalFile(video));
    }

    void spaceTogglesPlaybackOutsideTextFields() {
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        auto* edit = new QLineEdit(&window);
        GroupOverlay overlay;
        auto* panel = new VideoPlayerPanel(&overlay, &window);
        layout->addWidget(edit);
        layout->addWidget(panel);
        panel->setSource(QString::fromStdString(once::test::sourcePath("resources/demo/demo.mp4")));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));  // shortcuts act in the active window
        QCOMPARE(panel->playButton()->shortcut(), QKeySequence(Qt::Key_Space));

        int toggles = 0;
        connect(panel->playButton(), &QToolButton::clicked, this, [&] { ++toggles; });
        // In the text field a space is text.
        edit->setFocus();
        QTest::keyClick(edit, Qt::Key_Space);
        QCOMPARE(edit->text(), QStringLiteral(" "));
        QTest::qWait(300);
        QCOMPARE(toggles, 0);
        // Elsewhere it presses Play.
        edit->clearFocus();
        QTest::keyClick(&window, Qt::Key_Space);
        QTRY_COMPARE(toggles, 1);  // a button's shortcut clicks it after a short animation
    }

    // Issue 16: Play on a clip with sound crashed in Qt's audio thread on a machine without an
    // audio device (the offscreen platform here has none). The panel plays the picture only
    // and says why the mute button is off.
    void playsAClipWithSoundWithoutAnAudioDevice() {
        const QString clip =
            QString::fromStdString(once::test::tempDir()) + QStringLiteral("/with_audio.mp4");
        const auto r = once::test::runPython(QStringLiteral("video_with_audio.py"),
                                             {clip, QStringLiteral("3")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));

        GroupOverlay overlay;
        VideoPlayerPanel panel(&overlay);
        panel.setSource(clip);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.playButton()->isEnabled());
        QTest::mouseClick(panel.playButton(), Qt::LeftButton);
        // Still alive after a second and a half of playback, and the clip is actually playing.
        QTest::qWait(1500);
        QVERIFY2(panel.player()->playbackState() == QMediaPlayer::PlayingState ||
                     panel.player()->position() > 0,
                 qPrintable(panel.note()));
        QVERIFY(panel.player()->hasAudio());  // the clip does have sound
        QVERIFY(panel.player()->error() == QMediaPlayer::NoError);
        panel.player()->stop();
        const bool hasAudioDevice = !QMediaDevices::audioOutputs().isEmpty();
        QCOMPARE(panel.muteButton()->isEnabled(), hasAudioDevice);
        if (!hasAudioDevice) {
            QVERIFY2(panel.muteButton()->toolTip().contains(QLatin1String("no audio device")),
                     qPrintable(panel.muteButton()->toolTip()));
            QVERIFY(panel.player()->audioOutput() == nullptr);
        }
    }
};

QTEST_MAIN(TestVideoPlayer)
#include "test_video_player.moc"
