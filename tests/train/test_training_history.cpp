// The Stage-B history a codebook records (train/training_history.h), read back: a real fit's
// metadata gives one epoch per evaluated epoch with the fit's own criteria, kinds and selected
// epoch; damaged histories are refused entry by entry, never with an exception.
#include <ATen/ATen.h>

#include <QtTest>

#include "train/stage_b.h"
#include "train/training_history.h"

using namespace once;

class TestTrainingHistory : public QObject {
    Q_OBJECT
  private slots:
    void aFitsMetadataReadsBack() {
        at::manual_seed(3);
        const at::Tensor reps = at::randn({300, 8}).to(at::kBFloat16);
        const at::Tensor weights = at::randint(1, 20, {300}, at::kInt);
        const at::Tensor category = at::randint(-1, 2, {300}, at::kInt);
        FitConfig cfg;
        cfg.codewords = 6;
        cfg.candidates = 100;
        cfg.batch = 64;
        cfg.epochs = 3;
        cfg.patience = 3;
        const FitResult fit = fitCodebook(reps, weights, category, cfg);
        const TrainingHistory h = TrainingHistory::fromMetadata(fit.metadata);
        QCOMPARE(h.epochs.size(), fit.criterion.size());
        QCOMPARE(h.selectedEpoch, fit.selectedEpoch);
        for (std::size_t e = 0; e < h.epochs.size(); ++e) {
            QCOMPARE(h.epochs[e].epoch, int(e));
            QCOMPARE(h.epochs[e].criterion, fit.criterion[e]);  // JSON keeps doubles exactly
            QCOMPARE(h.epochs[e].kind, std::string(e == 0 ? "initialiser" : "sinkhorn"));
            // The initialiser has no loss; every Sinkhorn epoch has its mean loss.
            QCOMPARE(h.epochs[e].meanLoss >= 0, e > 0);
        }
        QVERIFY(h.hasLoss());
        // The same history as the fit returns it (the trainer draws it after a run).
        const TrainingHistory direct =
            TrainingHistory::fromJson(fit.historyJson, fit.selectedEpoch);
        QCOMPARE(direct.epochs.size(), h.epochs.size());
    }

    void damageIsSkippedEntryByEntry() {
        const auto h = TrainingHistory::fromJson(
            R"([{"epoch":0,"criterion":0.5,"kind":"initialiser"},
                {"epoch":1,"criterion":0.4,"mean_loss":1.5,"kind":"sinkhorn"},
                {"epoch":2,"criterion":"x","mean_loss":1.2},
                {"epoch":-3,"criterion":0.3},
                {"epoch":3,"criterion":0.35,"mean_loss":-1},
                7, null])",
            1);
        QCOMPARE(h.epochs.size(), std::size_t{3});
        QCOMPARE(h.epochs[1].meanLoss, 1.5);
        QCOMPARE(h.epochs[2].meanLoss, -1.0);  // a negative loss is not a loss
        QVERIFY(h.hasLoss());
        QCOMPARE(h.selectedEpoch, 1);
        QVERIFY(TrainingHistory::fromJson("{not json").empty());
        QVERIFY(TrainingHistory::fromJson(R"({"epoch":1})").empty());
        QVERIFY(TrainingHistory::fromJson(std::string(100000, '[')).empty());  // too deep
        const auto m = TrainingHistory::fromMetadata(
            {{"training_history", R"([{"epoch":0,"criterion":1e400}])"}, {"selected_epoch", "x"}});
        QVERIFY(m.empty());
        QCOMPARE(m.selectedEpoch, -1);
        QCOMPARE(TrainingHistory::fromMetadata({{"selected_epoch", "2"}}).selectedEpoch, 2);
    }
};

QTEST_MAIN(TestTrainingHistory)
#include "test_training_history.moc"
