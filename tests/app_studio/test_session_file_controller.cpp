// SessionFileController on its own, without a main window around it: what the window's suites
// (test_session_restore, test_crash_recovery) do not reach — the offer of a crashed run's
// autosave as soon as the event loop runs, a save that cannot be written, and the clean end that
// leaves no autosave behind — plus which paths count as session files.
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QWidget>
#include <QtTest>

#include "overlay/group_overlay.h"
#include "question/question_panel.h"
#include "session/session_autosave.h"
#include "session_file_controller.h"
#include "studio_fixture.h"

using namespace once::studio;

namespace {

/// The window-side objects the controller talks to, over a fresh autosave folder.
struct Parts {
    QWidget window;
    StudioSession session;
    GroupOverlay overlay;
    QuestionPanel question{&session, &window};
    QString folder = QString::fromStdString(once::test::tempDir());
};

/// Writes a crashed run's autosave into `folder`: no process holds its lock.
QString writeOrphan(const QString& folder) {
    QFile crashed(folder + QStringLiteral("/autosave-999999-1.oncesession"));
    if (!crashed.open(QIODevice::WriteOnly)) {
        return {};
    }
    crashed.write(R"({"format": "once-session", "version": 1, "method": "tome"})");
    return crashed.fileName();
}

}  // namespace

class TestSessionFileController : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { test::initDemoSuite(); }

    void sessionFilesAreKnownByTheirSuffix() {
        QCOMPARE(SessionFileController::sessionSuffix(), QStringLiteral(".oncesession"));
        QVERIFY(SessionFileController::isSessionFile(QStringLiteral("/tmp/a.oncesession")));
        QVERIFY(SessionFileController::isSessionFile(QStringLiteral("B.ONCESESSION")));
        QVERIFY(!SessionFileController::isSessionFile(QStringLiteral("/tmp/a.mp4")));
        QVERIFY(!SessionFileController::isSessionFile(QStringLiteral("/tmp/oncesession")));
    }

    void aCrashedRunsAutosaveIsOfferedAtTheStart() {
        Parts p;
        const QString orphan = writeOrphan(p.folder);
        QVERIFY(!orphan.isEmpty());
        SessionFileController files(&p.session, &p.overlay, &p.question, p.folder, &p.window);
        QVERIFY(!files.recoveryOffer());  // not before the event loop runs
        QTRY_VERIFY(files.recoveryOffer() != nullptr);
        QVERIFY(files.recoveryOffer()->text().contains(QLatin1String("did not close normally")));
        for (QAbstractButton* b : files.recoveryOffer()->buttons()) {
            if (files.recoveryOffer()->buttonRole(b) == QMessageBox::DestructiveRole) {
                QTest::mouseClick(b, Qt::LeftButton);
            }
        }
        QTRY_VERIFY(!QFile::exists(orphan));
        QVERIFY(p.session.video().isEmpty());
    }

    void aSaveThatCannotBeWrittenReportsAndReturnsFalse() {
        Parts p;
        SessionFileController files(&p.session, &p.overlay, &p.question, p.folder, &p.window);
        QSignalSpy errors(&files, &SessionFileController::errorOccurred);
        QSignalSpy used(&files, &SessionFileController::fileUsed);
        QSignalSpy announced(&files, &SessionFileController::announced);
        const QString path = p.folder + QStringLiteral("/no such folder/s.oncesession");
        QVERIFY(!files.saveSessionFile(path));
        QCOMPARE(errors.count(), 1);
        QCOMPARE(errors.first().at(0).toString(), QStringLiteral("Cannot save the session"));
        QVERIFY(!errors.first().at(1).toString().isEmpty());
        QCOMPARE(used.count(), 0);
        QCOMPARE(announced.count(), 0);

        // Where it can be written: saved, announced, and offered to the recent files.
        const QString good = p.folder + QStringLiteral("/s.oncesession");
        QVERIFY(files.saveSessionFile(good));
        QVERIFY(QFile::exists(good));
        QCOMPARE(used.count(), 1);
        QCOMPARE(used.first().first().toString(), good);
        QCOMPARE(announced.count(), 1);
        QVERIFY(announced.first().first().toString().contains(good));
    }

    void aCleanEndLeavesNoAutosave() {
        Parts p;
        SessionFileController files(&p.session, &p.overlay, &p.question, p.folder, &p.window);
        QVERIFY(files.autosave());
        p.session.openVideo(DemoAssets::locate().video);
        QVERIFY(test::waitIdle(p.session, 300000, false));
        const QString file = files.autosave()->filePath();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(file), 10000);
        files.endAutosave();
        QVERIFY(!files.autosave());
        QVERIFY(!QFile::exists(file));
        QVERIFY(SessionAutosave::orphans(p.folder).isEmpty());
    }
};

QTEST_MAIN(TestSessionFileController)
#include "test_session_file_controller.moc"
