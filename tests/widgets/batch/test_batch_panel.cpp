// The batch panel (issue 30, view 17) driven through the real session and widgets: it says what
// it lacks before it can run, then measures a folder with a real clip on a LLaVA-OneVision
// folder of the published geometry (tests/reference/llava_ov_model_folder.py) with the session's
// model, settings and codebook file — the same rows (methods, budgets, visual tokens) as `once
// bench` on the same inputs, since it is the same core — and exports one report folder that
// Charts ▸ Open reads back.
#include <QImage>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "../studio_test_data.h"
#include "batch/batch_panel.h"
#include "eval/efficiency_bench_file.h"
#include "session/studio_session.h"
#include "support/models_fixture.h"
#include "support/test_support.h"
#include "tasks/background_task.h"

using namespace once::studio;

class TestBatchPanel : public QObject {
    Q_OBJECT
    std::string dir_, model_, codebook_, videos_;

    void check(QListWidget* list, const QStringList& methods) {
        for (int i = 0; i < list->count(); ++i) {
            QListWidgetItem* item = list->item(i);
            item->setCheckState(methods.contains(item->data(Qt::UserRole).toString())
                                    ? Qt::Checked
                                    : Qt::Unchecked);
        }
    }

  private slots:
    void initTestCase() {
        dir_ = once::test::tempDir();
        model_ = dir_ + "/model";
        const auto made =
            once::test::runPython("llava_ov_model_folder.py", {QString::fromStdString(model_)});
        QVERIFY2(made.exitCode == 0, qPrintable(made.err));
        codebook_ = dir_ + "/codebook.safetensors";
        once::test::writeRandomCodebook(codebook_, 40, 112, "llava-onevision",
                                        "projected patch grid");
        videos_ = dir_ + "/videos";
        std::filesystem::create_directories(videos_);
        std::filesystem::copy_file(once::test::kRealClip, videos_ + "/clip.mp4");
        std::filesystem::copy_file(codebook_, videos_ + "/not_a_video.safetensors");
    }

    void saysWhatItLacks() {
        StudioSession session;
        BatchPanel panel(&session);
        QVERIFY(panel.blocker().contains(QLatin1String("model folder")));
        QVERIFY(!panel.runButton()->isEnabled());
        QVERIFY(!panel.run());
        panel.folderField()->setText(QString::fromStdString(videos_));
        QCOMPARE(panel.videos().size(), 1);  // the codebook file in it is not a video
    }

    void measuresAFolderAsOnceBenchDoesAndExportsTheReport() {
        StudioSession session;
        test::useTinyLlavaSettings(session, 2);
        QSignalSpy errors(&session, &StudioSession::errorOccurred);
        session.openModelFolder(QString::fromStdString(model_));
        QVERIFY(test::waitIdle(session, 300000, false));
        QVERIFY(session.model().has_value());
        BatchPanel panel(&session);
        panel.folderField()->setText(QString::fromStdString(videos_));
        check(panel.methodList(), {QStringLiteral("dense"), QStringLiteral("once")});
        panel.budgetsField()->setText(QStringLiteral("16, 24"));
        panel.newTokensBox()->setValue(2);
        // ONCE needs a codebook file: said before it runs.
        QVERIFY(panel.blocker().contains(QLatin1String("codebook")));
        session.openCodebook(QString::fromStdString(codebook_));
        QVERIFY(test::waitIdle(session, 300000, false));
        QVERIFY2(errors.isEmpty(),
                 errors.isEmpty() ? "" : qPrintable(errors.first().at(1).toString()));
        QVERIFY2(panel.blocker().isEmpty(), qPrintable(panel.blocker()));
        QVERIFY(panel.runButton()->isEnabled());

        QSignalSpy finished(&panel, &BatchPanel::benchFinished);
        QVERIFY(panel.run());
        QVERIFY(panel.task()->wait(600000));
        QCOMPARE(finished.count(), 1);
        QVERIFY(panel.bench().has_value());
        const once::EfficiencyBench& ours = *panel.bench();
        QCOMPARE(ours.rows.size(), std::size_t{3});  // Dense, ONCE at 16 and 24
        QCOMPARE(panel.table()->rowCount(), 3);

        // The same inputs through the command line.
        const std::string out = dir_ + "/cli.json";
        const auto r = once::test::runCli({"bench",
                                           QString::fromStdString(videos_ + "/clip.mp4"),
                                           "--model",
                                           QString::fromStdString(model_),
                                           "--sampling",
                                           "uniform:2",
                                           "--pool-stride",
                                           "2",
                                           "--dtype",
                                           "float32",
                                           "--codebook",
                                           QString::fromStdString(codebook_),
                                           "--methods",
                                           "dense,once",
                                           "--budgets",
                                           "16,24",
                                           "--new-tokens",
                                           "2",
                                           "--reps",
                                           "1",
                                           "--warmup",
                                           "0",
                                           "-o",
                                           QString::fromStdString(out)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const once::EfficiencyBench cli = once::loadEfficiencyBench(out);
        QCOMPARE(cli.rows.size(), ours.rows.size());
        for (std::size_t i = 0; i < cli.rows.size(); ++i) {
            QCOMPARE(QString::fromStdString(ours.rows[i].method),
                     QString::fromStdString(cli.rows[i].method));
            QCOMPARE(ours.rows[i].budget, cli.rows[i].budget);
            QCOMPARE(ours.rows[i].visualTokens, cli.rows[i].visualTokens);
            QCOMPARE(ours.rows[i].newTokens, cli.rows[i].newTokens);
        }
        QVERIFY(ours.rows[1].visualTokens < ours.rows[0].visualTokens);

        const QString report = QString::fromStdString(dir_ + "/report");
        QVERIFY(QDir().mkpath(report));
        QString error;
        QVERIFY2(panel.exportReport(report, &error), qPrintable(error));
        const once::EfficiencyBench back =
            once::loadEfficiencyBench((report + QStringLiteral("/bench.json")).toStdString());
        QCOMPARE(back.rows.size(), ours.rows.size());
        QVERIFY(QFile::exists(report + QStringLiteral("/bench_rows.csv")));
        QVERIFY(QFile::exists(report + QStringLiteral("/bench_videos.csv")));
        QVERIFY(!QImage(report + QStringLiteral("/bench_speedup.png")).isNull());
    }
};

QTEST_MAIN(TestBatchPanel)
#include "test_batch_panel.moc"
