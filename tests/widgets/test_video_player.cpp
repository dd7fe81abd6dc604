// The playback panel: what it says for no video, a frame folder and a playable file, and the
// Space shortcut its tooltip promises (a text field keeps its own spaces).
#include <QLineEdit>
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
};

QTEST_MAIN(TestVideoPlayer)
#include "test_video_player.moc"
