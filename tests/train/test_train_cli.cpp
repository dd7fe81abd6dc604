// `once train sketch`, `once train fit` and `once diagnose` end to end: the codebook file is the
// same bytes whatever the working directory or the cache's location; it carries the corpus
// diagnostics (the object `once diagnose --json` prints); `diagnose --json` has the issue's
// top-level keys; Ctrl-C stops a fit cleanly and a rerun resumes it to the same bytes.
// Needs the `once` executable of this build (a full build makes it).
#include <ATen/ATen.h>
#include <signal.h>

#include <QProcess>
#include <QThread>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "codebook/codebook.h"
#include "codebook/codebook_writer.h"
#include "features/feature_file.h"
#include "support/test_support.h"
#include "train/codebook_metadata.h"
#include "train/exemplar_selection.h"
#include "train/sketch_cache.h"
#include "train/stage_b.h"
#include "util/atomic_file.h"
#include "util/sha256.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

struct Run {
    int exitCode = -1;
    std::string out, err;
};

Run runIn(const std::string& cwd, const QStringList& args) {
    QProcess p;
    p.setWorkingDirectory(QString::fromStdString(cwd));
    p.start(QString(ONCE_CLI_PATH), args);
    Run r;
    if (!p.waitForStarted(30000) || !p.waitForFinished(600000)) {
        p.kill();
        p.waitForFinished();
        r.err = "cannot run " ONCE_CLI_PATH;
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput().toStdString();
    r.err = p.readAllStandardError().toStdString();
    return r;
}

std::string writeVideo(const std::string& dir, int i, std::int64_t frames, std::int64_t d) {
    at::manual_seed(200 + std::uint64_t(i));
    at::Tensor centres = at::randn({8, d});
    at::Tensor pick = at::randint(8, {frames * 30}, at::kLong);
    const at::Tensor features = (centres.index_select(0, pick) + 0.5 * at::randn({frames * 30, d}))
                                    .reshape({frames, 30, d});
    const std::string name = "v" + std::to_string(i) + ".safetensors";
    test::writeFeatureFile(features, dir + "/" + name);
    return name;
}

}  // namespace

class TestTrainCli : public QObject {
    Q_OBJECT
    std::string dir_, cache_;

  private slots:
    void initTestCase() {
        QVERIFY2(fs::exists(ONCE_CLI_PATH), "build the `once` target first");
        dir_ = test::tempDir();
        fs::create_directories(dir_ + "/corpus");
        std::string lines;
        for (int i = 0; i < 6; ++i) {  // relative paths: resolved against the manifest's folder
            lines += "{\"video\": \"" + writeVideo(dir_ + "/corpus", i, 10 + i, 16) +
                     "\", \"category\": \"" + (i % 3 ? "b" : "a") + "\"}\n";
        }
        writeFileAtomically(dir_ + "/corpus/corpus.jsonl", lines);
        cache_ = dir_ + "/cache";
        Run r = runIn(dir_, {"train", "sketch", "--manifest", "corpus/corpus.jsonl", "-o", "cache",
                             "--R", "8", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.c_str());
        QCOMPARE(nlohmann::json::parse(r.out)["done"].get<int>(), 6);
    }

    void paperConstantsAreNamedOptions() {
        // The paper's configuration table (LLaVA column), every constant an option of its own.
        const std::vector<std::pair<std::string, std::string>> fit = {
            {"-K, --K", "8192"},       {"--method", "sinkhorn"}, {"--weights", "source-count"},
            {"--alpha", "0.5"},        {"--init", "refined"},    {"--candidates", "65536"},
            {"--init-iters", "3"},     {"--batch", "65536"},     {"--epsilon", "0.05"},
            {"--sinkhorn-iters", "5"}, {"--lr", "0.001"},        {"--weight-decay", "0.01"},
            {"--grad-clip", "1"},      {"--commitment", "0.25"}, {"--usage", "0.01"},
            {"--tau-start", "1"},      {"--tau-min", "0.01"},    {"--tau-decay", "0.999"},
            {"--epochs", "5"},         {"--patience", "2"},      {"--seed", "42"}};
        Run h = runIn(dir_, {"train", "fit", "--help"});
        QCOMPARE(h.exitCode, 0);
        for (const auto& [name, value] : fit) {
            const auto at = h.out.find("  " + name + " ");
            QVERIFY2(at != std::string::npos, name.c_str());
            const auto end = h.out.find("\n  -", at + 3);
            QVERIFY2(
                h.out.substr(at, end - at).find("(default: " + value + ")") != std::string::npos,
                (name + " = " + value).c_str());
        }
        const std::vector<std::pair<std::string, std::string>> sketch = {
            {"--bins", "4"},    {"--R", "256"},       {"--m-min", "16"},
            {"--m-max", "128"}, {"--cap", "5000000"}, {"--seed", "42"}};
        Run s = runIn(dir_, {"train", "sketch", "--help"});
        QCOMPARE(s.exitCode, 0);
        for (const auto& [name, value] : sketch) {
            const auto at = s.out.find("  " + name + " ");
            QVERIFY2(at != std::string::npos, name.c_str());
            const auto end = s.out.find("\n  -", at + 3);
            QVERIFY2(
                s.out.substr(at, end - at).find("(default: " + value + ")") != std::string::npos,
                (name + " = " + value).c_str());
        }
    }

    void fitBytesIndependentOfPaths() {
        const QStringList fit = {"--K",      "24",      "--candidates",
                                 "200",      "--batch", "128",
                                 "--epochs", "2",       "--diagnostics-bootstrap",
                                 "50",       "--json"};
        // From the cache's parent with relative paths ...
        Run a = runIn(dir_,
                      QStringList{"train", "fit", "--cache", "cache", "-o", "a.safetensors"} + fit);
        QVERIFY2(a.exitCode == 0, a.err.c_str());
        // ... and from elsewhere on a copy of the cache under another absolute path.
        const std::string other = test::tempDir();
        fs::copy(cache_, other + "/copied-cache", fs::copy_options::recursive);
        fs::create_directories(other + "/elsewhere");
        Run b =
            runIn(other + "/elsewhere", QStringList{"train", "fit", "--cache",
                                                    QString::fromStdString(other + "/copied-cache"),
                                                    "-o", "../b.safetensors"} +
                                            fit);
        QVERIFY2(b.exitCode == 0, b.err.c_str());
        const std::string shaA = Sha256::hexOfFile(dir_ + "/a.safetensors");
        QCOMPARE(Sha256::hexOfFile(other + "/b.safetensors"), shaA);
        QVERIFY(!fs::exists(dir_ + "/a.safetensors.fit-state"));  // removed once saved

        // No path of this machine in the metadata.
        Codebook cb = Codebook::load(dir_ + "/a.safetensors");
        for (const auto& [key, value] : cb.metadata()) {
            QVERIFY2(value.find(dir_) == std::string::npos, key.c_str());
        }
        auto stageA = nlohmann::json::parse(cb.metadata().at("stage_a"));
        QCOMPARE(stageA["videos"].get<int>(), 6);
        QCOMPARE(stageA["training_data_sha256"].get<std::string>(),
                 cb.metadata().at("training_data_sha256"));

        // The stored diagnostics are the object `once diagnose --json` prints.
        Run d = runIn(dir_, {"diagnose", "--codebook", "a.safetensors", "--cache", "cache",
                             "--bootstrap", "50", "--random-codebooks", "0", "--json"});
        QVERIFY2(d.exitCode == 0, d.err.c_str());
        QCOMPARE(nlohmann::json::parse(cb.metadata().at("diagnostics")),
                 nlohmann::json::parse(d.out));
    }

    // No step of `once train fit` holds the whole cache: the fit, the stored diagnostics and the
    // corpus exemplars all read the mapped shard files. The file it writes must be the bytes of
    // the same steps on the loaded cache (fitBytesIndependentOfPaths wrote a.safetensors).
    void fitFileEqualsTheLoadedCachesSteps() {
        QVERIFY(fs::exists(dir_ + "/a.safetensors"));
        const SketchCache cache = SketchCache::load(cache_);
        FitConfig c;
        c.codewords = 24;
        c.candidates = 200;
        c.batch = 128;
        c.epochs = 2;
        const FitResult r = fitCodebook(cache, c);
        CodebookMetadataOptions mo;
        mo.bootstrap = 50;
        auto meta = trainedCodebookMetadata(cache, r, mo);
        const CodebookExemplarTables exemplars = selectCodebookExemplars(cache, r.codebook);
        QVERIFY(exemplars.perCodeword > 0);  // the cache has provenance: exemplars are compared
        std::vector<std::pair<std::string, at::Tensor>> tensors;
        exemplars.addTo(meta, tensors);
        const std::string path = dir_ + "/loaded.safetensors";
        saveCodebookFile(Codebook::fromTensor(r.codebook, cache.backbone, cache.featureSource),
                         path, "F32", meta, tensors);
        QCOMPARE(Sha256::hexOfFile(path), Sha256::hexOfFile(dir_ + "/a.safetensors"));
    }

    void diagnoseJsonTopLevel() {
        Run d = runIn(dir_, {"diagnose", "--codebook", "a.safetensors", "--cache", "cache",
                             "--bootstrap", "20", "--random-codebooks", "2", "--json"});
        QVERIFY2(d.exitCode == 0, d.err.c_str());
        auto j = nlohmann::json::parse(d.out);
        for (const char* key : {"active_codes_pct", "entropy_capacity_pct", "mean_cosine_error"}) {
            QVERIFY2(j.contains(key) && j[key].is_number(), key);
        }
        QVERIFY(j["decile_shares"].is_array() && j["decile_shares"].size() == 10);
        for (const char* key : {"R50", "R90", "R95", "R99"}) {
            QVERIFY2(j["residual_percentiles"][key].is_number(), key);
            // The issue asks for the percentiles at the top level too, with the same values.
            QVERIFY2(j.contains(key) && j[key] == j["residual_percentiles"][key], key);
        }
        QVERIFY(j["ci95"]["mean_cosine_error"].size() == 2);
        QVERIFY(j.contains("random_exemplar"));
    }

    void sketchSurvivesSigkill() {
        // `once train sketch` on videos (decoded and encoded with the demo encoder), killed with
        // SIGKILL once the cache records a finished video: the rerun resumes (some videos counted
        // as resumed) and ends with the cache of an uninterrupted run.
        const std::string dir = test::tempDir();
        const std::string video = test::sourcePath("resources/demo/demo.mp4");
        std::string lines;
        for (int i = 0; i < 8; ++i) {
            lines +=
                "{\"video\": \"" + video + "\", \"category\": \"" + (i % 2 ? "a" : "b") + "\"}\n";
        }
        writeFileAtomically(dir + "/corpus.jsonl", lines);
        const QStringList sketch{"train",        "sketch",     "--manifest", "corpus.jsonl",
                                 "--sample",     "uniform:32", "--R",        "64",
                                 "--shard-rows", "64",         "--json"};
        Run whole = runIn(dir, sketch + QStringList{"-o", "whole"});
        QVERIFY2(whole.exitCode == 0, whole.err.c_str());

        QProcess p;
        p.setWorkingDirectory(QString::fromStdString(dir));
        p.start(QString(ONCE_CLI_PATH), sketch + QStringList{"-o", "cut"});
        QVERIFY(p.waitForStarted(30000));
        const auto finished = [&] {
            try {
                std::ifstream in(dir + "/cut/manifest.json");
                const auto m = nlohmann::json::parse(in);
                int n = 0;
                for (const auto& v : m.at("videos")) {
                    n += v.at("status") == "done";
                }
                return n;
            } catch (const std::exception&) {
                return 0;  // not written yet
            }
        };
        for (int i = 0; i < 24000 && finished() < 1 && p.state() == QProcess::Running; ++i) {
            QThread::msleep(5);
        }
        ::kill(pid_t(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(60000));
        const int done = finished();
        QVERIFY2(done >= 1 && done < 8, std::to_string(done).c_str());

        Run again = runIn(dir, sketch + QStringList{"-o", "cut"});
        QVERIFY2(again.exitCode == 0, again.err.c_str());
        const auto j = nlohmann::json::parse(again.out);
        QVERIFY(j["resumed"].get<int>() >= done);
        QCOMPARE(j["done"].get<int>(), 8);
        const SketchCache a = SketchCache::load(dir + "/whole"),
                          b = SketchCache::load(dir + "/cut");
        QVERIFY(a.reps.equal(b.reps));
        QVERIFY(a.weights.equal(b.weights));
        QVERIFY(a.video.equal(b.video));
        QVERIFY(a.bin.equal(b.bin));
    }

    void interruptAndResume() {
        const QStringList fit = {"train",        "fit", "--cache", "cache", "--K",      "24",
                                 "--candidates", "200", "--batch", "16",    "--epochs", "4",
                                 "--patience",   "4",   "--json"};
        Run whole = runIn(dir_, fit + QStringList{"-o", "whole.safetensors"});
        QVERIFY2(whole.exitCode == 0, whole.err.c_str());

        // SIGINT once the first epoch's state is on disk, as Ctrl-C in a terminal would.
        QProcess p;
        p.setWorkingDirectory(QString::fromStdString(dir_));
        p.start(QString(ONCE_CLI_PATH), fit + QStringList{"-o", "cut.safetensors"});
        QVERIFY(p.waitForStarted(30000));
        const std::string state = dir_ + "/cut.safetensors.fit-state";
        for (int i = 0; i < 2000 && !fs::exists(state) && p.state() == QProcess::Running; ++i) {
            QThread::msleep(5);
        }
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(120000));
        if (p.exitCode() == 130) {  // stopped cleanly: no codebook, a state to resume from
            QVERIFY(!fs::exists(dir_ + "/cut.safetensors"));
            QVERIFY(fs::exists(state));
            Run again = runIn(dir_, fit + QStringList{"-o", "cut.safetensors"});
            QVERIFY2(again.exitCode == 0, again.err.c_str());
            QVERIFY(nlohmann::json::parse(again.out)["resumed"].get<bool>());
        } else {
            QCOMPARE(p.exitCode(), 0);  // it finished before the signal: nothing to resume
        }
        QCOMPARE(Sha256::hexOfFile(dir_ + "/cut.safetensors"),
                 Sha256::hexOfFile(dir_ + "/whole.safetensors"));
    }
};

QTEST_GUILESS_MAIN(TestTrainCli)
#include "test_train_cli.moc"
