// The Kubernetes Indexed-Job path (and the Slurm array path) end to end through the `once` CLI:
// each task runs with only the environment the engine gives it (JOB_COMPLETION_INDEX plus
// ONCE_SHARD_COUNT from the shipped manifest's ConfigMap; SLURM_ARRAY_TASK_ID/COUNT/MIN/MAX),
// no --shard option, then `once train merge` / `once eval merge`; the results equal one
// process's bytes. `once encode --out-dir` shards into one shared folder with the same files as an
// unsharded run.
#include <QProcess>
#include <QtTest>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/test_support.h"
#include "support/train_fixture.h"
#include "util/atomic_file.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

test::ProcessResult runWithEnv(const QStringList& args, const std::map<QString, QString>& vars) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* v : {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN",
                          "SLURM_ARRAY_TASK_MAX", "JOB_COMPLETION_INDEX", "ONCE_SHARD_COUNT"}) {
        env.remove(v);
    }
    env.insert("OMP_NUM_THREADS", "1");
    for (const auto& [k, v] : vars) {
        env.insert(k, v);
    }
    p.setProcessEnvironment(env);
    p.start(QString(ONCE_CLI_PATH), args);
    p.waitForFinished(600000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

}  // namespace

class TestIndexedJob : public QObject {
    Q_OBJECT
    std::string dir_, manifest_;

  private slots:
    void initTestCase() {
        dir_ = test::tempDir();
        // Five videos: the demo clip under five names (decoded and encoded by the demo encoder).
        std::string lines;
        for (int i = 0; i < 5; ++i) {
            const std::string link = dir_ + "/clip" + std::to_string(i) + ".mp4";
            fs::create_symlink(test::sourcePath("resources/demo/demo.mp4"), link);
            lines +=
                "{\"video\": \"" + link + "\", \"category\": \"c" + std::to_string(i % 2) + "\"}\n";
        }
        manifest_ = dir_ + "/corpus.jsonl";
        writeFileAtomically(manifest_, lines);
    }

    void encodeShardsIntoOneFolder() {
        const QStringList common = {"encode",     q(manifest_), "--backbone", "demo",
                                    "--sampling", "uniform:4",  "--json"};
        auto r = runWithEnv(common + QStringList{"--out-dir", q(dir_ + "/enc-single")}, {});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        for (int i = 0; i < 2; ++i) {
            r = runWithEnv(
                common + QStringList{"--out-dir", q(dir_ + "/enc-sharded")},
                {{"JOB_COMPLETION_INDEX", QString::number(i)}, {"ONCE_SHARD_COUNT", "2"}});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QVERIFY(
                r.err.contains(QString("encoding shard %1/2 (from JOB_COMPLETION_INDEX)").arg(i)));
        }
        auto single = test::folderBytes(dir_ + "/enc-single");
        auto sharded = test::folderBytes(dir_ + "/enc-sharded");
        int features = 0;
        for (const auto& [name, bytes] : single) {
            if (name.ends_with(".safetensors")) {
                ++features;
                QVERIFY2(sharded.count(name) && sharded[name] == bytes, name.c_str());
            }
        }
        QCOMPARE(features, 5);
        QVERIFY(sharded.count("encoded-shard-00000-of-00002.jsonl"));
        QVERIFY(sharded.count("encoded-shard-00001-of-00002.jsonl"));
        // An unsharded rerun over the shared folder finds every video finished.
        r = runWithEnv(common + QStringList{"--out-dir", q(dir_ + "/enc-sharded")}, {});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("\"skipped\":5"), qPrintable(r.out));
    }

    void sketchShardsFromEngineIndexMergeToSingleCache() {
        const QStringList common = {
            "train",      "sketch",    "--manifest",   q(manifest_), "--backbone", "demo",
            "--sampling", "uniform:4", "--R",          "32",         "--m-min",    "4",
            "--m-max",    "16",        "--shard-rows", "20",         "--json"};
        auto r = runWithEnv(common + QStringList{"-o", q(dir_ + "/single")}, {});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // Kubernetes: JOB_COMPLETION_INDEX 0..2 and the ConfigMap's ONCE_SHARD_COUNT.
        QStringList k8s;
        for (int i = 0; i < 3; ++i) {
            const std::string out = dir_ + "/k8s/shard-" + std::to_string(i);
            r = runWithEnv(
                common + QStringList{"-o", q(out)},
                {{"JOB_COMPLETION_INDEX", QString::number(i)}, {"ONCE_SHARD_COUNT", "3"}});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QVERIFY2(r.out.contains(QString("\"shard\": \"%1/3\"").arg(i)), qPrintable(r.out));
            k8s << q(out);
        }
        // Slurm: --array=1-3 (ids shifted by SLURM_ARRAY_TASK_MIN).
        QStringList slurm;
        for (int id = 1; id <= 3; ++id) {
            const std::string out = dir_ + "/slurm/shard-" + std::to_string(id);
            r = runWithEnv(common + QStringList{"-o", q(out)},
                           {{"SLURM_ARRAY_TASK_ID", QString::number(id)},
                            {"SLURM_ARRAY_TASK_COUNT", "3"},
                            {"SLURM_ARRAY_TASK_MIN", "1"},
                            {"SLURM_ARRAY_TASK_MAX", "3"}});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            slurm << q(out);
        }
        const auto single = test::folderBytes(dir_ + "/single");
        for (const auto& [tag, shards] : {std::pair{"k8s", k8s}, std::pair{"slurm", slurm}}) {
            const std::string merged = dir_ + "/merged-" + tag;
            r = runWithEnv(
                QStringList{"train", "merge"} + shards + QStringList{"-o", q(merged), "--json"},
                {});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QVERIFY2(test::folderBytes(merged) == single, tag);
        }
        // A missing index is refused, naming the shard (exit 1, message on stderr).
        r = runWithEnv({"train", "merge", k8s[0], k8s[2], "-o", q(dir_ + "/nope")}, {});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("shard 1/3 is missing"), qPrintable(r.err));
        // A Kubernetes task without the count is refused before any work.
        r = runWithEnv(common + QStringList{"-o", q(dir_ + "/nocount")},
                       {{"JOB_COMPLETION_INDEX", "0"}});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("ONCE_SHARD_COUNT"), qPrintable(r.err));
        QVERIFY(!fs::exists(dir_ + "/nocount"));
        // The fit refuses a shard cache and fits the merged one like the single one.
        r = runWithEnv({"train", "fit", "--cache", k8s[1], "-K", "4", "-o", q(dir_ + "/x.st")}, {});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("once train merge"), qPrintable(r.err));
        for (const auto& [cache, out] :
             {std::pair{dir_ + "/single", dir_ + "/a.safetensors"},
              std::pair{dir_ + "/merged-k8s", dir_ + "/b.safetensors"}}) {
            r = runWithEnv(
                {"train", "fit", "--cache", q(cache), "-K", "8", "--epochs", "2", "--batch", "16",
                 "--candidates", "32", "--diagnostics-bootstrap", "10", "-o", q(out), "--json"},
                {});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        }
        QCOMPARE(readWholeFile(dir_ + "/a.safetensors"), readWholeFile(dir_ + "/b.safetensors"));
    }

    void evalShardsMergeToSingleRun() {
        // A tiny random LLaVA-OneVision (transformers) and Video-MME-format annotations whose
        // first two questions share a video (tests/reference/).
        const QString model = q(test::tempDir());
        auto py = test::runPython("llm_reference.py", {"llava", model});
        QVERIFY2(py.exitCode == 0, qPrintable(py.err));
        const QString root = q(test::tempDir());
        py = test::runPython("eval_benchmarks.py",
                             {"make", root, q(test::sourcePath("resources/demo/demo.mp4"))});
        QVERIFY2(py.exitCode == 0, qPrintable(py.err));
        const QStringList common = {"eval",
                                    "--benchmark",
                                    "videomme",
                                    "--annotations",
                                    root + "/videomme.jsonl",
                                    "--videos",
                                    root + "/videos/videomme",
                                    "--model",
                                    model,
                                    "--methods",
                                    "tome",
                                    "--budgets",
                                    "2,4",
                                    "--sampling",
                                    "uniform:4",
                                    "--bootstrap",
                                    "10",
                                    "--json"};
        auto r = runWithEnv(common + QStringList{"-o", q(dir_ + "/eval-single.jsonl")}, {});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QStringList shards;
        for (int i = 1; i >= 0; --i) {  // the engine may run them in any order
            const QString out = q(dir_ + "/eval-" + std::to_string(i) + ".jsonl");
            r = runWithEnv(
                common + QStringList{"-o", out},
                {{"JOB_COMPLETION_INDEX", QString::number(i)}, {"ONCE_SHARD_COUNT", "2"}});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            shards << out;
        }
        const QString merged = q(dir_ + "/eval-merged.jsonl");
        r = runWithEnv(QStringList{"eval", "merge"} + shards + QStringList{"-o", merged}, {});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // The same records in the same order; only the measured seconds differ.
        auto records = [](const QString& path) {
            QStringList out;
            for (const auto& line : QString::fromStdString(readWholeFile(path.toStdString()))
                                        .split('\n', Qt::SkipEmptyParts)) {
                nlohmann::json j = nlohmann::json::parse(line.toStdString());
                j.erase("seconds");
                out << QString::fromStdString(j.dump());
            }
            return out;
        };
        const QStringList single = records(q(dir_ + "/eval-single.jsonl"));
        QCOMPARE(single.size(), 9);  // 3 questions x (dense + 2 budgets)
        QCOMPARE(records(merged), single);
        // Shard 0 owns the shared video (two questions), shard 1 the other one.
        QCOMPARE(records(shards[1]).size(), 6);
        QCOMPARE(records(shards[0]).size(), 3);
    }
};

QTEST_GUILESS_MAIN(TestIndexedJob)
#include "test_indexed_job.moc"
