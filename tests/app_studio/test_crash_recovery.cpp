// Issue 30, crash 3 and defect 4, through the real executable: `once-studio --session FILE`
// (Qt took --session for its session manager and opened an empty window) restores the session
// — video, method, budget, the last question and its answers — the running studio autosaves it,
// the process is killed as a crash would end it, and the next start offers the work back:
// Restore brings every part back, Discard removes the autosave.
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "command_line.h"
#include "overlay/group_overlay.h"
#include "question/question_panel.h"
#include "session/session_autosave.h"
#include "session/session_document.h"
#include "session_file_controller.h"
#include "studio_fixture.h"

using namespace once::studio;

namespace {

struct Child {
    QString root;    ///< XDG folders of the child studio
    QString folder;  ///< its autosave folder
};

Child childFolders() {
    Child c;
    c.root = QString::fromStdString(once::test::tempDir());
    c.folder = c.root + QStringLiteral("/data/ONCE/ONCE Studio/autosave");
    return c;
}

QProcessEnvironment childEnvironment(const Child& c) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), c.root + QStringLiteral("/data"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), c.root + QStringLiteral("/config"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    return env;
}

/// The session the child opens: the demo video with a peer at a chosen budget and a question
/// with its two answers.
QString writeSession(const QString& dir) {
    once::SessionFile s;
    s.video = QFile::encodeName(DemoAssets::locate().video).toStdString();
    s.method = "tome";
    s.budget = 100;
    s.frame = 7;
    s.question = "What is the bird doing?";
    s.denseAnswer = "It turns its head and climbs the perch.";
    s.compressedAnswer = "It climbs.";
    const QString path = dir + QStringLiteral("/work.oncesession");
    writeSessionFile(path, s);
    return path;
}

/// The child's autosave once it names the session's video, method and question ("" on timeout).
QString waitForAutosave(const Child& c, QProcess& studio, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs && studio.state() == QProcess::Running) {
        for (const QString& name :
             QDir(c.folder).entryList({QStringLiteral("autosave-*.oncesession")})) {
            QFile f(c.folder + QLatin1Char('/') + name);
            if (f.open(QIODevice::ReadOnly)) {
                const QByteArray text = f.readAll();
                if (text.contains("demo.mp4") && text.contains("\"tome\"") &&
                    text.contains("\"budget\": 100") && text.contains("climbs")) {
                    return f.fileName();
                }
            }
        }
        QTest::qWait(200);
    }
    return {};
}

}  // namespace

class TestCrashRecovery : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { test::initDemoSuite(); }

    void sessionOptionRestoresThenACrashIsOfferedBack() {
        const Child c = childFolders();
        const QString session = writeSession(c.root);
        QProcess studio;
        studio.setProcessEnvironment(childEnvironment(c));
        studio.setProcessChannelMode(QProcess::ForwardedChannels);
        // The spelling that opened an empty window before (issue 30, defect 4).
        studio.start(QStringLiteral(ONCE_STUDIO_PATH), {QStringLiteral("--session"), session});
        QVERIFY(studio.waitForStarted());
        const QString autosave = waitForAutosave(c, studio, 300000);
        QVERIFY2(!autosave.isEmpty(), "the studio never autosaved the restored session");
        studio.kill();  // SIGKILL: no clean exit, as after a crash
        QVERIFY(studio.waitForFinished());
        QVERIFY(QFile::exists(autosave));
        QCOMPARE(SessionAutosave::orphans(c.folder), QStringList{autosave});

        // The next start offers it back.
        auto window = test::shownWindow({1366, 728});
        QVERIFY(window);
        window->sessionFiles()->offerRecovery(c.folder);
        QMessageBox* offer = window->sessionFiles()->recoveryOffer();
        QVERIFY(offer);
        QVERIFY2(offer->text().contains(QLatin1String("demo.mp4")), qPrintable(offer->text()));
        QSignalSpy restored(window->sessionFiles(), &SessionFileController::sessionRestored);
        QPushButton* restore = nullptr;
        for (QAbstractButton* b : offer->buttons()) {
            if (b->text().remove(QLatin1Char('&')) == QLatin1String("Restore")) {
                restore = qobject_cast<QPushButton*>(b);
            }
        }
        QVERIFY(restore);
        QTest::mouseClick(restore, Qt::LeftButton);
        QVERIFY(restored.count() == 1 || restored.wait(300000));
        QVERIFY(test::waitIdle(*window->session(), 300000));
        QVERIFY2(restored.first().first().toStringList().isEmpty(),
                 qPrintable(restored.first().first().toStringList().join(QLatin1Char('\n'))));
        QCOMPARE(QFileInfo(window->session()->video().path).fileName(), QStringLiteral("demo.mp4"));
        QCOMPARE(window->session()->method(), QStringLiteral("tome"));
        QCOMPARE(window->session()->budget(), std::int64_t(100));
        QCOMPARE(window->overlay()->currentFrame(), 7);
        QCOMPARE(window->questionPanel()->askedQuestion(),
                 QStringLiteral("What is the bird doing?"));
        QCOMPARE(window->questionPanel()->denseAnswer(),
                 QStringLiteral("It turns its head and climbs the perch."));
        QCOMPARE(window->questionPanel()->onceAnswer(), QStringLiteral("It climbs."));
        QVERIFY(!QFile::exists(autosave));  // taken over by this run's own autosave
        QVERIFY(SessionAutosave::orphans(c.folder).isEmpty());
    }

    void aCleanExitLeavesNothingAndDiscardRemovesTheAutosave() {
        const QString folder = QString::fromStdString(once::test::tempDir());
        QString file;
        {
            StudioSession session;
            SessionAutosave autosave(&session, {}, folder);
            session.openVideo(DemoAssets::locate().video);
            QVERIFY(test::waitIdle(session, 300000, false));
            QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(autosave.filePath()), 10000);
            file = autosave.filePath();
            // Alive: not an orphan for another window of this or another process.
            QVERIFY(SessionAutosave::orphans(folder).isEmpty());
        }
        QVERIFY(!QFile::exists(file));  // a clean end removes it

        // A crashed run's file (its lock is stale: no process holds it) is offered; Discard
        // removes it and opens nothing.
        QFile crashed(folder + QStringLiteral("/autosave-999999-1.oncesession"));
        QVERIFY(crashed.open(QIODevice::WriteOnly));
        crashed.write(R"({"format": "once-session", "version": 1, "method": "tome"})");
        crashed.close();
        auto window = test::shownWindow();
        QVERIFY(window);
        window->sessionFiles()->offerRecovery(folder);
        QMessageBox* offer = window->sessionFiles()->recoveryOffer();
        QVERIFY(offer);
        for (QAbstractButton* b : offer->buttons()) {
            if (b->text().remove(QLatin1Char('&')) == QLatin1String("Discard")) {
                QTest::mouseClick(b, Qt::LeftButton);
            }
        }
        QTRY_VERIFY(!QFile::exists(crashed.fileName()));
        QVERIFY(window->session()->video().isEmpty());
    }

    void oldSessionSpellingsAreRewritten() {
        const char* argv[] = {"once-studio", "--session", "a.oncesession", "-session=b",
                              "--demo",      "--",        "--session"};
        const std::vector<std::string> out = protectStudioArguments(7, argv);
        const std::vector<std::string> expected = {
            "once-studio", "--open-session", "a.oncesession", "--open-session=b", "--demo",
            "--",          "--session"};  // after "--": a file name
        QVERIFY(out == expected);
    }

    void helpNamesTheSessionOption() {
        QProcess studio;
        studio.start(QStringLiteral(ONCE_STUDIO_PATH), {QStringLiteral("--help")});
        QVERIFY(studio.waitForFinished(60000));
        const QString help = QString::fromUtf8(studio.readAllStandardOutput());
        QVERIFY2(help.contains(QLatin1String("--open-session")) &&
                     help.contains(QLatin1String("--session")),
                 qPrintable(help));
    }
};

QTEST_MAIN(TestCrashRecovery)
#include "test_crash_recovery.moc"
