// Issue 16: a session saved and reopened in the real window (every field back: video, codebook,
// method, budget, variant, sampling, dtype, frame; paths below the file stored relative), a
// damaged session opening what it can and naming each skipped field in one dialog, and the
// offer to re-encode the video after a model folder with another encoder opens (accepted:
// features from the folder's backbone; declined: kept, and the budget panel says so).
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "budget/budget_panel.h"
#include "overlay/group_overlay.h"
#include "session/session_document.h"
#include "session_file_controller.h"
#include "studio_fixture.h"

using namespace once::studio;

namespace {

/// The demo video and codebook copied into a new folder (so a session there stores them
/// relative); "" when the demo codebook is not installed.
QString demoCopy() {
    const DemoAssets assets = DemoAssets::locate();
    if (!assets.hasCodebook()) {
        return {};
    }
    const QString dir = QString::fromStdString(once::test::tempDir());
    QFile::copy(assets.video, dir + QStringLiteral("/demo.mp4"));
    QFile::copy(assets.codebook, dir + QStringLiteral("/codebook.safetensors"));
    return dir;
}

void writeText(const QString& path, const QByteArray& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

/// Opens `path` in `window` and waits until its restoration ended; the problems reported.
QStringList restore(MainWindow& window, const QString& path, bool* ok) {
    QSignalSpy restored(window.sessionFiles(), &SessionFileController::sessionRestored);
    window.sessionFiles()->openSessionFile(path);
    *ok = restored.count() == 1 || restored.wait(300000);
    *ok = *ok && test::waitIdle(*window.session(), 300000, false);
    return *ok ? restored.first().first().toStringList() : QStringList();
}

}  // namespace

class TestSessionRestore : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { test::initDemoSuite(); }

    void saveAndReopenRestoresEveryField() {
        const QString dir = demoCopy();
        if (dir.isEmpty()) {
            QFAIL(
                "the demo codebook is not installed (committed, or installed by scripts/setup.sh: "
                "a broken checkout or set-up fails, it does not skip)");
        }
        QString path;
        {
            auto window = test::shownWindow();
            QVERIFY(window);
            StudioSession* s = window->session();
            s->openVideo(dir + QStringLiteral("/demo.mp4"));
            s->openCodebook(dir + QStringLiteral("/codebook.safetensors"));
            QVERIFY(test::waitIdle(*s, 300000));
            s->setVariant(once::Variant::NoReassign);
            s->setBudget(24);
            QVERIFY(test::waitForResult(*s, QStringLiteral("once"), 24));
            window->overlay()->setCurrentFrame(5);
            path = dir + QStringLiteral("/work.oncesession");
            QVERIFY(window->sessionFiles()->saveSessionFile(path));
        }
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY2(text.contains("\"video\": \"demo.mp4\""), text.constData());
        QVERIFY2(text.contains("\"codebook\": \"codebook.safetensors\""), text.constData());

        auto window = test::shownWindow();
        QVERIFY(window);
        bool ok = false;
        const QStringList problems = restore(*window, path, &ok);
        QVERIFY(ok);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        StudioSession* s = window->session();
        QVERIFY(test::waitForResult(*s, QStringLiteral("once"), 24));
        QCOMPARE(QFileInfo(s->video().path).canonicalFilePath(),
                 QFileInfo(dir + QStringLiteral("/demo.mp4")).canonicalFilePath());
        QCOMPARE(QFileInfo(s->codebookFile()).canonicalFilePath(),
                 QFileInfo(dir + QStringLiteral("/codebook.safetensors")).canonicalFilePath());
        QCOMPARE(s->method(), QStringLiteral("once"));
        QCOMPARE(s->budget(), std::int64_t{24});
        QCOMPARE(s->variant(), once::Variant::NoReassign);
        QCOMPARE(window->budgetPanel()->budget(), std::int64_t{24});
        QCOMPARE(s->pipelineSettings().sampling, QStringLiteral("uniform:32"));
        QCOMPARE(s->pipelineSettings().dtype, QStringLiteral("float32"));
        QCOMPARE(s->pipelineSettings().backbone, QStringLiteral("demo"));
        QCOMPARE(window->overlay()->currentFrame(), 5);
        QVERIFY(!window->errorDialog());

        // A peer method and its budget come back too, through the same requests.
        s->setMethod(QStringLiteral("tome"));
        s->setBudget(300);
        QVERIFY(test::waitForResult(*s, QStringLiteral("tome"), 300));
        QVERIFY(window->sessionFiles()->saveSessionFile(path));
        auto again = test::shownWindow();
        QVERIFY(again);
        restore(*again, path, &ok);
        QVERIFY(ok);
        QVERIFY(test::waitForResult(*again->session(), QStringLiteral("tome"), 300));
    }

    void aDamagedSessionOpensTheRestAndNamesEachProblem() {
        const QString dir = demoCopy();
        if (dir.isEmpty()) {
            QFAIL(
                "the demo codebook is not installed (committed, or installed by scripts/setup.sh: "
                "a broken checkout or set-up fails, it does not skip)");
        }
        // A missing codebook and model folder, an unknown method, a budget above K, a frame
        // past the end and a key this version does not know: the video still opens.
        const QString path = dir + QStringLiteral("/damaged.oncesession");
        writeText(path, R"({"format": "once-session", "version": 1, "video": "demo.mp4",
            "codebook": "gone.safetensors", "model_folder": "/no/such/model",
            "method": "zip", "budget": 1000000, "frame": 999, "colour": "red"})");
        auto window = test::shownWindow();
        QVERIFY(window);
        bool ok = false;
        QStringList problems = restore(*window, path, &ok);
        QVERIFY(ok);
        StudioSession* s = window->session();
        QCOMPARE(QFileInfo(s->video().path).fileName(), QStringLiteral("demo.mp4"));
        QVERIFY(!s->codebook());
        QVERIFY(!s->model());
        const QString all = problems.join('\n');
        for (const char* field : {"codebook", "model_folder", "method", "frame", "colour"}) {
            QVERIFY2(all.contains(QStringLiteral("[field '%1']").arg(QLatin1String(field))),
                     qPrintable(field + QStringLiteral(" missing in: ") + all));
        }
        QVERIFY2(all.contains(QLatin1String("gone.safetensors")) &&
                     all.contains(QLatin1String("missing")),
                 qPrintable(all));
        QVERIFY(window->errorDialog());
        QVERIFY(window->errorDialog()->text().contains(QLatin1String("[field 'method']")));

        // With the codebook there, the budget above K is clamped to K and reported.
        writeText(path, R"({"format": "once-session", "version": 1, "video": "demo.mp4",
            "codebook": "codebook.safetensors", "method": "once", "budget": 1000000})");
        auto second = test::shownWindow();
        QVERIFY(second);
        problems = restore(*second, path, &ok);
        QVERIFY(ok);
        const std::int64_t k = second->session()->codebook()->size();
        QCOMPARE(second->session()->budget(), k);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().contains(QLatin1String("[field 'budget']")) &&
                     problems.first().contains(QStringLiteral("to %1").arg(k)),
                 qPrintable(problems.first()));

        // Wrong types: every field named, nothing loaded, no crash.
        writeText(path, R"({"format": "once-session", "version": 1, "video": 5,
            "method": ["once"], "budget": "many", "variant": 2, "frame": 1.5, "dtype": null})");
        auto third = test::shownWindow();
        QVERIFY(third);
        problems = restore(*third, path, &ok);
        QVERIFY(ok);
        QCOMPARE(problems.size(), 5);
        QVERIFY(third->session()->video().isEmpty());

        // Not a session at all: one error naming the file, nothing restored.
        writeText(path, "{\"format\": \"once-session\", \"version\": 7}");
        QSignalSpy restored(third->sessionFiles(), &SessionFileController::sessionRestored);
        third->sessionFiles()->openSessionFile(path);
        QVERIFY(third->errorDialog());
        QVERIFY(third->errorDialog()->text().contains(QLatin1String("damaged.oncesession")));
        QCOMPARE(restored.count(), 0);
    }

    void aModelFolderWithAnotherEncoderOffersToReencode() {
        QString error;
        const QString model = test::tinyLlavaFolder(&error);
        QVERIFY2(!model.isEmpty(), qPrintable(error));
        auto window = test::shownWindow();
        QVERIFY(window);
        StudioSession* s = window->session();

        // Without a video there is nothing to re-encode.
        s->openModelFolder(model);
        QVERIFY(test::waitIdle(*s, 120000, false));
        QVERIFY(!window->sessionFiles()->reencodeOffer());

        QVERIFY(test::loadDemo(*window));  // the demo encoder's features
        QCOMPARE(QString::fromStdString(s->video().backbone), QStringLiteral("demo"));
        s->openModelFolder(model);
        QVERIFY(test::waitIdle(*s, 120000, false));
        QTRY_VERIFY(window->sessionFiles()->reencodeOffer() &&
                    window->sessionFiles()->reencodeOffer()->isVisible());
        QVERIFY(window->sessionFiles()->reencodeOffer()->text().contains(
            QLatin1String("LLaVA-OneVision")));
        const QString stated = window->budgetPanel()->readout(QStringLiteral("features"));
        QVERIFY2(stated.contains(QLatin1String("demo")) &&
                     stated.contains(QLatin1String("not re-encoded")),
                 qPrintable(stated));

        // Not now: the features stay the demo encoder's.
        QAbstractButton* notNow = nullptr;
        for (QAbstractButton* b : window->sessionFiles()->reencodeOffer()->buttons()) {
            if (window->sessionFiles()->reencodeOffer()->buttonRole(b) == QMessageBox::RejectRole) {
                notNow = b;
            }
        }
        QVERIFY(notNow);
        QTest::mouseClick(notNow, Qt::LeftButton);
        QTRY_VERIFY(!window->sessionFiles()->reencodeOffer());
        QVERIFY(test::waitIdle(*s, 120000, false));
        QCOMPARE(QString::fromStdString(s->video().backbone), QStringLiteral("demo"));
        QVERIFY(window->budgetPanel()
                    ->readout(QStringLiteral("features"))
                    .contains(QLatin1String("not re-encoded")));

        // Opened again and accepted: the video is encoded by the folder's backbone.
        s->openModelFolder(model);
        QVERIFY(test::waitIdle(*s, 120000, false));
        QTRY_VERIFY(window->sessionFiles()->reencodeOffer());
        QVERIFY(window->sessionFiles()->reencodeOffer()->defaultButton());
        QTest::mouseClick(window->sessionFiles()->reencodeOffer()->defaultButton(), Qt::LeftButton);
        QVERIFY(s->isBusy());  // queued on the loader, with progress and cancel
        QTRY_COMPARE_WITH_TIMEOUT(QString::fromStdString(s->video().backbone),
                                  QStringLiteral("llava-onevision"), 300000);
        QVERIFY(test::waitIdle(*s, 300000, false));
        const QString now = window->budgetPanel()->readout(QStringLiteral("features"));
        QVERIFY2(now.contains(QLatin1String("LLaVA-OneVision")) &&
                     !now.contains(QLatin1String("not re-encoded")),
                 qPrintable(now));

        // The same encoder again: no offer.
        s->openModelFolder(model);
        QVERIFY(test::waitIdle(*s, 120000, false));
        QTest::qWait(50);
        QVERIFY(!window->sessionFiles()->reencodeOffer());
    }
};

QTEST_MAIN(TestSessionRestore)
#include "test_session_restore.moc"
