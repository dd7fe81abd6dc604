// Closing the main window while long work runs: a training run, a question being answered and a
// budget sweep are each cancelled and joined by the close, nothing is delivered to the widgets
// afterwards, and no half-written file is left behind (the training resumes from what it had
// finished).
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>

#include "../widgets/studio_test_data.h"
#include "codebook/codebook.h"
#include "main_window.h"
#include "question/question_panel.h"
#include "session/studio_session.h"
#include "studio_app_test.h"
#include "support/test_support.h"
#include "tasks/background_task.h"
#include "trainer/trainer_options_form.h"
#include "trainer/trainer_panel.h"

using namespace once::studio;

namespace {

// Files whose names say they are unfinished writes (AtomicFile's "NAME.tmp-PID").
QStringList temporaryFilesUnder(const QString& dir) {
    QStringList found;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (path.contains(QLatin1String(".tmp-"))) {
            found << path;
        }
    }
    return found;
}

}  // namespace

class TestCloseDuringWork : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { test::initStudioTestApplication(); }

    void closingDuringTrainingCancelsAndResumes() {
        const QString video =
            QString::fromStdString(once::test::sourcePath("resources/demo/demo.mp4"));
        QVERIFY2(QFile::exists(video), "resources/demo/demo.mp4 is part of the checkout");
        const QString dir = QString::fromStdString(once::test::tempDir());
        const QString manifest = dir + QStringLiteral("/corpus.jsonl");
        {
            QFile f(manifest);
            QVERIFY(f.open(QIODevice::WriteOnly));
            for (int i = 0; i < 6; ++i) {
                f.write(QStringLiteral("{\"video\": \"%1\"}\n").arg(video).toUtf8());
            }
        }
        const QString cache = dir + QStringLiteral("/cache");
        const QString output = dir + QStringLiteral("/trained.safetensors");
        auto configure = [&](TrainerPanel* panel) {
            PipelineSettings pipeline;
            pipeline.sampling = QStringLiteral("uniform:8");
            panel->setPipelineSettings(pipeline, QString());
            panel->corpusEdit()->setText(manifest);
            panel->cacheEdit()->setText(cache);
            panel->outputEdit()->setText(output);
            auto sketch = panel->options()->sketchOptions();
            sketch.sketch.mMin = 4;
            sketch.sketch.mMax = 16;
            panel->options()->setSketchOptions(sketch);
            auto fit = panel->options()->fitConfig();
            fit.codewords = 8;
            fit.candidates = 64;
            fit.batch = 32;
            fit.epochs = 2;
            panel->options()->setFitConfig(fit);
        };

        auto* window = new MainWindow;
        window->show();
        TrainerPanel* trainer = window->trainerPanel();
        configure(trainer);
        bool sketched = false;  // Stage A has finished a video: the cache holds a shard
        connect(trainer->stageProgress(0), &QtProgress::progressed, this,
                [&](const ProgressUpdate& u) { sketched = sketched || u.done >= 1; });
        trainer->start();
        QVERIFY(trainer->task()->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(sketched, 120000);
        QVERIFY(trainer->task()->isRunning());
        QVERIFY(window->close());  // cancels the run and joins its thread
        QVERIFY(!trainer->task()->isRunning());
        delete window;
        QCoreApplication::processEvents();
        QVERIFY(!QFile::exists(output));
        QCOMPARE(temporaryFilesUnder(dir), QStringList());

        // A new window resumes the run from the cache and finishes it.
        MainWindow again;
        configure(again.trainerPanel());
        QSignalSpy finished(again.trainerPanel()->task(), &BackgroundTask::finished);
        QSignalSpy failed(again.trainerPanel()->task(), &BackgroundTask::failed);
        again.trainerPanel()->start();
        QVERIFY(finished.wait(300000));
        QVERIFY2(failed.isEmpty(),
                 failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QVERIFY(QFile::exists(output));
        QVERIFY(once::Codebook::load(output.toStdString()).size() == 8);
    }

    void closingWhileAnsweringCancels() {
        const QString dir = QString::fromStdString(once::test::tempDir());
        const auto r = once::test::runPython(QStringLiteral("llm_reference.py"),
                                             {QStringLiteral("llava"), dir});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto* window = new MainWindow;
        window->show();
        StudioSession* session = window->session();
        session->openModelFolder(dir);
        session->openFeatureFile(dir + QStringLiteral("/features.safetensors"));
        QVERIFY(test::waitIdle(*session, 120000, false));
        QuestionPanel* question = window->questionPanel();
        QVERIFY(question->canAnswer());
        question->questionEdit()->setText(QStringLiteral("What happens in the video?"));
        QSignalSpy succeeded(question->task(), &BackgroundTask::succeeded);
        question->askQuestion();
        QVERIFY(question->task()->isRunning());
        QVERIFY(window->close());  // cancels the answer at its next cancel point and joins
        QVERIFY(!question->task()->isRunning());
        QCoreApplication::processEvents();
        QCOMPARE(succeeded.count(), 0);  // nothing delivered after the close
        QVERIFY(question->statistic(QStringLiteral("prefill time"), 0).isEmpty());
        delete window;
    }

    void closingDuringTheBudgetSweepCancels() {
        auto* window = new MainWindow;
        window->show();
        StudioSession* session = window->session();
        VideoData video = test::syntheticVideo(32, 24, 24, 64);
        auto codebook = test::codebookFrom(video, 512);
        session->setVideo(std::move(video));
        session->setCodebook(codebook);
        QVERIFY(test::waitIdle(*session));
        QSignalSpy sweepChanged(session, &StudioSession::sweepChanged);
        session->runBudgetSweep();
        QVERIFY(session->isBusy());
        QVERIFY(window->close());
        QVERIFY(!session->isBusy());
        QCoreApplication::processEvents();
        QCOMPARE(sweepChanged.count(), 0);  // the cancelled sweep is not delivered
        QVERIFY(!session->sweep());
        delete window;
    }
};

QTEST_MAIN(TestCloseDuringWork)
#include "test_close_during_work.moc"
