// Checkpoints as users hold them: the Hugging Face hub cache that huggingface_hub's own
// snapshot_download writes (tests/reference/hub_cache.py: snapshots/COMMIT/FILE are relative
// symlinks to ../../blobs/ETAG, refs/main names the commit), for both backbones, whole and
// sharded. `once encode`, `once ask` and `once eval` must take the snapshot folder, the
// repository folder and `--model ORG/NAME` (found through HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME
// or HOME, as transformers finds it offline) and give exactly what they give on the folder
// save_pretrained wrote; the sharded checkpoint what the whole one gives. Names inside files stay
// checked (a `..` in the index is refused), a refs/main or a blob that is a FIFO is refused
// without waiting, and nothing in the cache is changed.
#include <ATen/ATen.h>

#include <QtTest>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "features/feature_file.h"
#include "support/bounded_cli.h"
#include "support/models_fixture.h"
#include "support/test_support.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

const char* kQuestion = "What is in the video?";

struct RepoCase {
    std::string id, source, snapshot, backbone;
    bool sharded = false;
};

}  // namespace

class TestHubCache : public QObject {
    Q_OBJECT
    std::string dir_, cache_;
    std::vector<RepoCase> repos_;
    std::map<std::string, std::string> before_;

    QString q(const std::string& s) const { return QString::fromStdString(s); }
    QStringList cacheEnv() const { return {"HF_HUB_CACHE=" + q(cache_)}; }

    test::BoundedRun ok(const QStringList& args, const QStringList& env = {}) {
        test::BoundedRun r = test::runCliBounded(args, 300, env);
        if (r.exitCode != 0) {
            qWarning().noquote() << args.join(' ') << "\n" << r.text().left(3000);
        }
        return r;
    }

    // Features of the clip encoded with --model `model` (the backbone's default sampling).
    at::Tensor encode(const std::string& model, const QStringList& env = {},
                      QString* err = nullptr) {
        const std::string out = test::tempDir() + "/f.safetensors";
        const test::BoundedRun r =
            ok({"encode", test::kRealClip, "--model", q(model), "--dtype", "float32", "-o", q(out)},
               env);
        [&] { QCOMPARE(r.exitCode, 0); }();
        if (err) {
            *err = r.text();
        }
        return r.exitCode == 0 ? loadFeatureFile(out).features : at::Tensor();
    }

    nlohmann::json ask(const std::string& model, const QStringList& env = {}) {
        const test::BoundedRun r =
            ok({"ask", test::kRealClip, "--dense", "--model", q(model), "--question", kQuestion,
                "--max-new-tokens", "6", "--json", "--dtype", "float32"},
               env);
        [&] { QCOMPARE(r.exitCode, 0); }();
        return r.exitCode == 0 ? nlohmann::json::parse(r.out.toStdString()) : nlohmann::json();
    }

    // models--ORG--NAME in the cache.
    std::string repoFolder(std::string id) const {
        id.replace(id.find('/'), 1, "--");
        return cache_ + "/models--" + id;
    }

    const RepoCase& repo(const std::string& name) const {
        for (const RepoCase& r : repos_) {
            if (r.id == "once-test/" + name) {
                return r;
            }
        }
        qFatal("no repository %s", name.c_str());
    }

  private slots:
    void initTestCase() {
        if (!QFileInfo::exists(test::kRealClip)) {
            QFAIL("the real clip of python3-imageio is missing: run scripts/setup.sh");
        }
        dir_ = test::tempDir();
        const auto py = test::runPython("hub_cache.py", {q(dir_)});
        QVERIFY2(py.exitCode == 0, qPrintable(py.err));
        const nlohmann::json j = nlohmann::json::parse(test::readText(dir_ + "/hub.json"));
        cache_ = j["cache"].get<std::string>();
        for (const auto& [id, r] : j["repos"].items()) {
            repos_.push_back({id, r["source"].get<std::string>(), r["snapshot"].get<std::string>(),
                              r["backbone"].get<std::string>(), r["sharded"].get<bool>()});
        }
        QCOMPARE(repos_.size(), std::size_t(4));
        // The layout is the hub's: the shards are relative symlinks into blobs/.
        const RepoCase& sharded = repo("llava-ov-tiny-sharded");
        const fs::path index = fs::path(sharded.snapshot) / "model.safetensors.index.json";
        QVERIFY(fs::is_symlink(index));
        QVERIFY(fs::read_symlink(index).string().rfind("../../blobs/", 0) == 0);
        before_ = test::treeFingerprint(cache_);
    }

    void encodeTakesEveryWayOfNamingTheModel() {
        for (const RepoCase& r : repos_) {
            const at::Tensor want = encode(r.source);
            QVERIFY(want.defined());
            for (const std::string& model : {r.snapshot, repoFolder(r.id)}) {
                const at::Tensor got = encode(model);
                QVERIFY2(got.defined() && at::equal(got, want), qPrintable(q(model)));
            }
            QString err;
            const at::Tensor byId = encode(r.id, cacheEnv(), &err);
            QVERIFY2(byId.defined() && at::equal(byId, want), qPrintable(q(r.id) + err));
        }
        // Sharded and whole checkpoints of one model give the same features.
        QVERIFY(at::equal(encode(repo("llava-ov-tiny-sharded").snapshot),
                          encode(repo("llava-ov-tiny").source)));
        QVERIFY(at::equal(encode(repo("qwen3.5-tiny-sharded").snapshot),
                          encode(repo("qwen3.5-tiny").source)));
    }

    void theCacheIsFoundAsHuggingFaceHubFindsIt() {
        // HF_HOME/hub, XDG_CACHE_HOME/huggingface/hub and HOME/.cache/huggingface/hub, the last
        // two through symlinks the user's file system holds.
        const std::string home = test::tempDir();
        fs::create_directories(home + "/xdg/huggingface");
        fs::create_symlink(cache_, home + "/xdg/huggingface/hub");
        fs::create_directories(home + "/.cache/huggingface");
        fs::create_symlink(cache_, home + "/.cache/huggingface/hub");
        const std::string id = repo("qwen3.5-tiny-sharded").id;
        const at::Tensor want = encode(repo("qwen3.5-tiny").source);
        const std::vector<QStringList> envs = {
            {"HF_HOME=" + q(fs::path(cache_).parent_path().string())},
            {"HF_HUB_CACHE=", "HF_HOME=", "XDG_CACHE_HOME=" + q(home + "/xdg")},
            {"HF_HUB_CACHE=", "HF_HOME=", "XDG_CACHE_HOME=", "HOME=" + q(home)}};
        for (const QStringList& env : envs) {
            const at::Tensor got = encode(id, env);
            QVERIFY2(got.defined() && at::equal(got, want), qPrintable(env.join(' ')));
        }
    }

    void askAnswersAsOnTheSavedFolder() {
        for (const RepoCase& r : repos_) {
            const nlohmann::json want = ask(r.source);
            const nlohmann::json got = ask(r.id, cacheEnv());
            QVERIFY2(!want.is_null() && !got.is_null(), r.id.c_str());
            QCOMPARE(got["token_ids"].dump(), want["token_ids"].dump());
            QCOMPARE(got["prompt_ids"].dump(), want["prompt_ids"].dump());
            QCOMPARE(got["backbone"].get<std::string>(), r.backbone);
        }
    }

    void evalAnswersAsOnTheSavedFolder() {
        const std::string d = test::tempDir();
        test::writeOneQuestionEgoschema(d);
        for (const char* name : {"llava-ov-tiny-sharded", "qwen3.5-tiny-sharded"}) {
            std::map<std::string, std::string> predictions[2];
            int k = 0;
            for (const std::string& model : {repo(name).id, repo(name).source}) {
                const std::string out = d + "/r" + std::to_string(k) + ".jsonl";
                const test::BoundedRun r =
                    ok({"eval",        "--benchmark", "egoschema",      "--annotations",
                        q(d + "/ann"), "--videos",    q(d + "/videos"), "--model",
                        q(model),      "--methods",   "frame-drop",     "--budgets",
                        "100000",      "--dtype",     "float32",        "--bootstrap",
                        "0",           "-o",          q(out),           "--json"},
                       cacheEnv());
                QCOMPARE(r.exitCode, 0);
                for (const QString& line :
                     QString::fromStdString(test::readText(out)).split('\n', Qt::SkipEmptyParts)) {
                    const nlohmann::json rec = nlohmann::json::parse(line.toStdString());
                    predictions[k][rec["method"].get<std::string>()] = rec["prediction"].dump();
                }
                fs::remove(out);
                ++k;
            }
            QCOMPARE(predictions[0].size(), std::size_t(2));  // dense and frame-drop
            QVERIFY(predictions[0] == predictions[1]);
        }
    }

    void namesInsideFilesAreStillChecked() {
        const std::string copy = test::tempDir() + "/hub";
        test::copyTree(cache_, copy);
        const RepoCase& r = repo("llava-ov-tiny-sharded");
        const std::string repoDir = copy + "/models--once-test--llava-ov-tiny-sharded";
        const std::string snap = repoDir + "/snapshots/" + fs::path(r.snapshot).filename().string();
        const std::string out = test::tempDir() + "/f.safetensors";
        const QStringList env{"HF_HUB_CACHE=" + q(copy)};
        auto refused = [&](const QString& needle, const QString& field) {
            const test::BoundedRun b = test::runCliBounded(
                {"encode", test::kRealClip, "--model", q(r.id), "-o", q(out)}, 60, env);
            const QString what = b.text().left(2000);
            QVERIFY2(!b.timedOut, qPrintable("hung: " + what));
            QCOMPARE(b.exitCode, 1);
            QVERIFY2(b.err.contains(needle), qPrintable("'" + needle + "' missing: " + what));
            QVERIFY2(b.err.contains(field), qPrintable("'" + field + "' missing: " + what));
            QVERIFY(!fs::exists(out));
        };
        // A name with ".." in the index, though it would land on the very blob.
        const std::string index = snap + "/model.safetensors.index.json";
        const std::string blob =
            fs::read_symlink(snap + "/model-00001-of-00011.safetensors").string();
        std::string text = test::readText(index);
        const std::string first = "\"model-00001-of-00011.safetensors\"";
        for (auto at = text.find(first); at != std::string::npos; at = text.find(first)) {
            text.replace(at, first.size(), "\"" + blob + "\"");  // ../../blobs/SHA
        }
        fs::remove(index);
        test::writeText(index, text);
        refused("model.safetensors.index.json", "weight_map.");
        // A blob that is a FIFO (its snapshot symlink intact).
        fs::remove(index);
        fs::create_symlink(fs::read_symlink(r.snapshot + "/model.safetensors.index.json"), index);
        const std::string shardBlob =
            (fs::path(snap) / fs::read_symlink(snap + "/model-00003-of-00011.safetensors"))
                .lexically_normal()
                .string();
        QVERIFY(test::makeFifo(shardBlob));
        refused("model-00003-of-00011.safetensors", "FIFO");
        // refs/main: a FIFO, not a commit, a commit without its snapshot.
        const std::string ref = repoDir + "/refs/main";
        QVERIFY(test::makeFifo(ref));
        refused("refs/main", "FIFO");
        fs::remove(ref);
        test::writeText(ref, "../../../etc");
        refused("refs/main", "commit hash");
        test::writeText(ref, std::string(40, 'a'));
        refused(std::string(40, 'a').c_str(), "refs/main");
        // A repository the cache does not hold.
        const test::BoundedRun none = test::runCliBounded(
            {"encode", test::kRealClip, "--model", "once-test/absent", "-o", q(out)}, 60, env);
        QCOMPARE(none.exitCode, 1);
        QVERIFY2(none.err.contains("models--once-test--absent"), qPrintable(none.err));
    }

    void cleanupTestCase() {
        // Nothing in the cache was written, renamed or removed by any run.
        QVERIFY(before_ == test::treeFingerprint(cache_));
    }
};

QTEST_GUILESS_MAIN(TestHubCache)
#include "test_hub_cache.moc"
