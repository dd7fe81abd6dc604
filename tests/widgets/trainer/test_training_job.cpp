// The trainer's run (what the panel starts on its worker): a cancel during Stage B leaves the
// optimiser state beside the output, and the next run resumes from it and writes the same
// codebook bits as an uninterrupted run; the state file is gone once the codebook is saved.
#include <ATen/ATen.h>

#include <QFile>
#include <QtTest>

#include "codebook/codebook.h"
#include "support/test_support.h"
#include "trainer/training_job.h"
#include "util/error.h"

using namespace once::studio;

namespace {

TrainingRequest request(const QString& dir, const QString& video) {
    const QString manifest = dir + QStringLiteral("/corpus.jsonl");
    QFile f(manifest);
    if (!f.open(QIODevice::WriteOnly)) {
        qFatal("cannot write %s", qPrintable(manifest));
    }
    for (int i = 0; i < 4; ++i) {
        f.write(QStringLiteral("{\"video\": \"%1\", \"category\": \"%2\"}\n")
                    .arg(video, i % 2 ? QStringLiteral("a") : QStringLiteral("b"))
                    .toUtf8());
    }
    TrainingRequest r;
    r.corpus = manifest;
    r.cacheDir = dir + QStringLiteral("/cache");
    r.output = dir + QStringLiteral("/trained.safetensors");
    r.pipeline.sampling = QStringLiteral("uniform:8");
    r.sketch.sketch.mMin = 4;
    r.sketch.sketch.mMax = 16;
    r.sketch.sketch.tokensPerRep = 32;
    r.sketch.shardRows = 16;
    r.fit.codewords = 8;
    r.fit.candidates = 64;
    r.fit.batch = 16;
    r.fit.epochs = 3;
    r.fit.patience = 3;
    return r;
}

}  // namespace

class TestTrainingJob : public QObject {
    Q_OBJECT
  private slots:
    void stageBCancelResumesToTheSameBits() {
        const QString video =
            QString::fromStdString(once::test::sourcePath("resources/demo/demo.mp4"));
        QVERIFY(QFile::exists(video));

        // Uninterrupted reference run.
        const TrainingRequest whole = request(QString::fromStdString(once::test::tempDir()), video);
        once::Progress a, b;
        const TrainingOutcome reference = runTraining(whole, a, b);
        QVERIFY(!reference.resumedStageB);
        QVERIFY(!QFile::exists(fitStatePath(whole.output)));

        // Cancelled once Stage B has finished a step of its first epoch.
        const TrainingRequest cut = request(QString::fromStdString(once::test::tempDir()), video);
        once::CancelToken token;
        int stageBSteps = 0;
        once::Progress stageA;
        once::Progress stageB(
            [&](const once::ProgressEvent& e) {
                if (e.stage.rfind("Stage B Sinkhorn", 0) == 0 && e.done >= 1 &&
                    ++stageBSteps == 1) {
                    token.cancel();
                }
            },
            token);
        QVERIFY_THROWS_EXCEPTION(once::Cancelled, runTraining(cut, stageA, stageB));
        QVERIFY2(stageBSteps >= 1, "Stage B never reported a Sinkhorn step");
        QVERIFY(QFile::exists(fitStatePath(cut.output)));
        QVERIFY(!QFile::exists(cut.output));

        // The rerun resumes Stage B and ends with the reference's bits.
        once::Progress c, d;
        const TrainingOutcome resumed = runTraining(cut, c, d);
        QVERIFY(resumed.resumedStageB);
        QVERIFY(!QFile::exists(fitStatePath(cut.output)));
        const at::Tensor want = once::Codebook::load(whole.output.toStdString()).vectors();
        const at::Tensor got = once::Codebook::load(cut.output.toStdString()).vectors();
        QVERIFY(got.equal(want));
        QCOMPARE(resumed.selectedEpoch, reference.selectedEpoch);
    }
};

QTEST_GUILESS_MAIN(TestTrainingJob)
#include "test_training_job.moc"
