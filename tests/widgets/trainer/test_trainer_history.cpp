// The trainer's chart and state lines after a run (issue 16): the Stage-B chart shows the
// per-epoch history the finished codebook records even when no live point arrived; a codebook's
// history can be shown later; damaged histories are refused; a cancel leaves no ETA and bars
// that say where they stopped; a new corpus clears the bars, the "Finished…" line and the chart.
#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "../trainer_fixture.h"
#include "codebook/codebook.h"
#include "support/test_support.h"
#include "tasks/background_task.h"
#include "train/training_history.h"
#include "trainer/trainer_options_form.h"
#include "trainer/trainer_panel.h"
#include "trainer/training_job.h"

using namespace once::studio;

namespace {
// A short run on the demo clip: 4 copies, 8 frames each, 8 codewords, 3 epochs.
QString writeCorpus(const QString& dir, int videos) {
    const QString video = QString::fromStdString(once::test::sourcePath("resources/demo/demo.mp4"));
    const QString manifest = dir + QStringLiteral("/corpus.jsonl");
    QFile f(manifest);
    if (!f.open(QIODevice::WriteOnly)) {
        return {};
    }
    for (int i = 0; i < videos; ++i) {
        f.write(QStringLiteral("{\"video\": \"%1\", \"category\": \"c%2\"}\n")
                    .arg(video)
                    .arg(i % 2)
                    .toUtf8());
    }
    return manifest;
}

void configure(TrainerPanel& panel, const QString& dir, const QString& manifest) {
    PipelineSettings pipeline;
    pipeline.sampling = QStringLiteral("uniform:8");
    panel.setPipelineSettings(pipeline, QString());
    panel.corpusEdit()->setText(manifest);
    panel.cacheEdit()->setText(dir + QStringLiteral("/cache"));
    panel.outputEdit()->setText(dir + QStringLiteral("/trained.safetensors"));
    test::useTinyTraining(panel, 3, 5);
}
}  // namespace

class TestTrainerHistory : public QObject {
    Q_OBJECT
  private slots:
    // The history itself is read by core (tests/train/test_training_history.cpp).
    void aHistoryIsDrawnAndAnEmptyOneRefused() {
        const auto h = once::TrainingHistory::fromJson(
            R"([{"epoch":0,"criterion":0.5,"kind":"initialiser"},
                {"epoch":1,"criterion":0.4,"mean_loss":1.5,"kind":"sinkhorn"},
                {"epoch":3,"criterion":0.35,"mean_loss":-1}])",
            1);
        TrainerPanel panel;
        QVERIFY(
            !panel.showCodebookHistory({{"selected_epoch", "2"}}, QStringLiteral("a.safetensors")));
        QCOMPARE(panel.lossPoints(), 0);
        QVERIFY(panel.showHistory(h, QStringLiteral("b.safetensors")));
        QCOMPARE(panel.lossPoints(), 1);                        // one epoch with a loss
        QCOMPARE(panel.lossChart()->graph(1)->dataCount(), 3);  // criterion of each
        QVERIFY(panel.lossChart()->toolTip().contains(QLatin1String("b.safetensors")));
    }

    void finishedRunShowsTheRecordedHistory() {
        if (!QFile::exists(
                QString::fromStdString(once::test::sourcePath("resources/demo/demo.mp4")))) {
            QFAIL(
                "resources/demo/demo.mp4 is not in this checkout (committed, or installed by "
                "scripts/setup.sh: a broken checkout or set-up fails, it does not skip)");
        }
        const QString dir = QString::fromStdString(once::test::tempDir());
        TrainerPanel panel;
        configure(panel, dir, writeCorpus(dir, 4));
        // No live Stage-B point beyond a stage's first and last reaches the panel: the chart
        // after the run must come from the file, not from what streamed in.
        panel.stageProgress(1)->setMinimumIntervalMs(1000000);
        QSignalSpy finished(panel.task(), &BackgroundTask::finished);
        QSignalSpy succeeded(panel.task(), &BackgroundTask::succeeded);
        panel.start();
        QVERIFY(finished.wait(300000));
        QVERIFY2(succeeded.count() == 1, qPrintable(panel.statusText()));

        const once::Codebook codebook =
            once::Codebook::load((dir + QStringLiteral("/trained.safetensors")).toStdString());
        const once::TrainingHistory recorded =
            once::TrainingHistory::fromMetadata(codebook.metadata());
        QVERIFY(!recorded.empty());
        QVERIFY(recorded.hasLoss());
        int withLoss = 0;
        for (const auto& e : recorded.epochs) {
            withLoss += e.meanLoss >= 0 ? 1 : 0;
        }
        QCustomPlot* chart = panel.lossChart();
        QCOMPARE(chart->graphCount(), 2);
        QCOMPARE(chart->graph(0)->dataCount(), withLoss);
        QCOMPARE(chart->graph(1)->dataCount(), static_cast<int>(recorded.epochs.size()));
        QVERIFY(chart->xAxis->label().contains(QLatin1String("epoch")));
        // The plotted values are the file's.
        const auto last = recorded.epochs.back();
        QCOMPARE(chart->graph(1)->data()->at(chart->graph(1)->dataCount() - 1)->value,
                 last.criterion);
        // Finished: full bars, no ETA.
        QCOMPARE(panel.stageBar(0)->value(), 1000);
        QCOMPARE(panel.stageBar(1)->value(), 1000);
        QVERIFY(panel.etaText(0).isEmpty() && panel.etaText(1).isEmpty());

        // A new corpus: nothing of the last run stays on screen.
        QVERIFY(panel.statusText().startsWith(QLatin1String("Finished")));
        panel.corpusEdit()->setText(dir + QStringLiteral("/other.jsonl"));
        QVERIFY(panel.statusText().isEmpty());
        QCOMPARE(panel.stageBar(0)->value(), 0);
        QCOMPARE(panel.stageBar(1)->value(), 0);
        QCOMPARE(panel.lossPoints(), 0);
        QVERIFY(!panel.openButton()->isEnabled());

        // Opening that codebook later shows its history again.
        QVERIFY(
            panel.showCodebookHistory(codebook.metadata(), QStringLiteral("trained.safetensors")));
        QCOMPARE(panel.lossPoints(), withLoss);
    }

    void cancelLeavesNoEtaAndSaysWhereItStopped() {
        if (!QFile::exists(
                QString::fromStdString(once::test::sourcePath("resources/demo/demo.mp4")))) {
            QFAIL(
                "resources/demo/demo.mp4 is not in this checkout (committed, or installed by "
                "scripts/setup.sh: a broken checkout or set-up fails, it does not skip)");
        }
        const QString dir = QString::fromStdString(once::test::tempDir());
        TrainerPanel panel;
        configure(panel, dir, writeCorpus(dir, 6));
        panel.stageProgress(0)->setMinimumIntervalMs(0);
        bool cancelSent = false;
        connect(panel.stageProgress(0), &QtProgress::progressed, &panel,
                [&](const ProgressUpdate& u) {
                    if (!cancelSent && u.done >= 2) {
                        cancelSent = true;
                        panel.cancel();
                    }
                });
        QSignalSpy finished(panel.task(), &BackgroundTask::finished);
        panel.start();
        QVERIFY(finished.wait(300000));
        QVERIFY(cancelSent);
        QVERIFY(panel.statusText().startsWith(QLatin1String("Cancelled")));
        QVERIFY2(panel.etaText(0).isEmpty() && panel.etaText(1).isEmpty(),
                 qPrintable(panel.etaText(0) + QLatin1Char('|') + panel.etaText(1)));
        QVERIFY2(panel.stageBar(0)->text().startsWith(QLatin1String("cancelled at")),
                 qPrintable(panel.stageBar(0)->text()));
        // Late progress of the stopped run changes nothing.
        QTest::qWait(100);
        QVERIFY(panel.etaText(0).isEmpty());
    }
};

QTEST_MAIN(TestTrainerHistory)
#include "test_trainer_history.moc"
