// Hostile training inputs through the `once` CLI (issue 14): a Stage-A cache whose manifest names
// files outside its folder, shards whose index tensors point past their arrays or disagree in
// length, a Stage-B resume state with impossible counters, meaningless options, and an output
// folder holding a user's files. Each must end with exit code 1 (2 for usage errors), an error
// naming the file and the field, no crash, no file of the user's touched, and no partial output.
// Needs the `once` executable of this build.
#include <ATen/ATen.h>
#include <sys/stat.h>

#include <QtTest>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <tuple>

#include "features/feature_file.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/test_support.h"
#include "train/sketch_cache.h"
#include "train/stage_b.h"
#include "util/atomic_file.h"
#include "util/error.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

std::string writeVideo(const std::string& dir, int i, std::int64_t frames, std::int64_t d) {
    at::manual_seed(300 + std::uint64_t(i));
    at::Tensor centres = at::randn({6, d});
    at::Tensor pick = at::randint(6, {frames * 30}, at::kLong);
    const at::Tensor features = (centres.index_select(0, pick) + 0.5 * at::randn({frames * 30, d}))
                                    .reshape({frames, 30, d});
    return test::writeFeatureFile(features, dir + "/v" + std::to_string(i) + ".safetensors");
}

// A feature file written byte by byte (EncodedVideo::save refuses what this test needs).
std::string writeRawFeatures(const std::string& path, const at::Tensor& features,
                             const at::Tensor& times) {
    SafetensorsWriter w;
    addTensor(w, "features", features.contiguous());
    addTensor(w, "frame_times", times.contiguous());
    w.setMetadata("format", kFeatureFileFormat);
    w.setMetadata("backbone", "demo");
    w.write(path);
    return path;
}

std::string corpusOf(const std::string& dir, const std::vector<std::string>& videos) {
    std::string lines;
    for (const auto& v : videos) {
        lines += "{\"video\": \"" + v + "\", \"category\": \"a\"}\n";
    }
    writeFileAtomically(dir + "/corpus.jsonl", lines);
    return dir + "/corpus.jsonl";
}

// Rewrites a safetensors file with `edit` applied to its tensors (metadata kept).
void rewrite(const std::string& path,
             const std::function<void(std::map<std::string, at::Tensor>&)>& edit) {
    std::map<std::string, at::Tensor> tensors;
    std::map<std::string, std::string> meta;
    {
        auto f = SafetensorsFile::open(path);
        for (const auto& e : f.tensors()) {
            tensors[e.name] = loadTensor(f, e.name).clone();
        }
        meta = f.metadata();
    }
    edit(tensors);
    SafetensorsWriter w;
    for (const auto& [name, t] : tensors) {
        addTensor(w, name, t.contiguous());
    }
    for (const auto& [k, v] : meta) {
        w.setMetadata(k, v);
    }
    w.write(path);
}

std::vector<std::string> listing(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) {
        names.push_back(e.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

#define EXPECT_REFUSED(r, code, ...)                                                           \
    do {                                                                                       \
        const auto& res_ = (r);                                                                \
        QVERIFY2(res_.exitCode == (code),                                                      \
                 qPrintable(QString("exit %1, stderr: %2").arg(res_.exitCode).arg(res_.err))); \
        for (const std::string& needle_ : std::initializer_list<std::string>{__VA_ARGS__}) {   \
            QVERIFY2(res_.err.contains(q(needle_)),                                            \
                     qPrintable("'" + q(needle_) + "' not in: " + res_.err));                  \
        }                                                                                      \
    } while (0)

const QStringList kFit = {"--K", "8", "--candidates", "200", "--batch", "64", "--epochs", "2"};

FitConfig fitConfigOfKFit() {
    FitConfig c;  // the CLI's defaults plus kFit
    c.codewords = 8;
    c.candidates = 200;
    c.batch = 64;
    c.epochs = 2;
    return c;
}

}  // namespace

class TestHostileTraining : public QObject {
    Q_OBJECT
    std::string dir_, corpus_, cache_;

    std::string copyCache() {
        const std::string to = test::tempDir() + "/cache";
        fs::copy(cache_, to, fs::copy_options::recursive);
        return to;
    }
    void editManifest(const std::string& cache, const std::function<void(nlohmann::json&)>& edit) {
        auto m = nlohmann::json::parse(readWholeFile(cache + "/manifest.json"));
        edit(m);
        writeFileAtomically(cache + "/manifest.json", m.dump(1));
    }
    test::ProcessResult fit(const std::string& cache, const std::string& out,
                            const QStringList& extra = {}) {
        return test::runCli(QStringList{"train", "fit", "--cache", q(cache), "-o", q(out)} + kFit +
                            extra);
    }

  private slots:
    void initTestCase() {
        QVERIFY2(fs::exists(ONCE_CLI_PATH), "build the `once` target first");
        dir_ = test::tempDir();
        std::vector<std::string> videos;
        for (int i = 0; i < 4; ++i) {
            videos.push_back(writeVideo(dir_, i, 8 + i, 16));
        }
        corpus_ = corpusOf(dir_, videos);
        cache_ = dir_ + "/cache";
        auto r = test::runCli({"train", "sketch", "--manifest", q(corpus_), "-o", q(cache_), "--R",
                               "8", "--shard-rows", "64", "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(fs::exists(cache_ + "/shard-00001.safetensors"));  // more than one shard
        // The untouched cache fits: the refusals below are the edits' doing.
        const std::string out = test::tempDir() + "/ok.safetensors";
        auto f = fit(cache_, out);
        QVERIFY2(f.exitCode == 0, qPrintable(f.err));
    }

    void manifestNamingParentShardIsRefused() {
        for (const std::string& name :
             {std::string("../shard-00000.safetensors"), std::string("/etc/passwd")}) {
            const std::string cache = copyCache();
            // A real shard where the name points, so only the check can stop the read.
            fs::copy_file(cache + "/shard-00000.safetensors",
                          fs::path(cache).parent_path() / "shard-00000.safetensors");
            editManifest(cache, [&](nlohmann::json& m) { m["shards"][0]["file"] = name; });
            const std::string out = test::tempDir() + "/cb.safetensors";
            EXPECT_REFUSED(fit(cache, out), 1, cache + "/manifest.json", "shards[0].file", name);
            QVERIFY(!fs::exists(out));
            QVERIFY(!fs::exists(out + ".fit-state"));
        }
    }

    void shardSymlinkedElsewhereIsReadWhenARegularFile() {
        // The manifest's name stays inside the cache; where the user's file system points it is
        // the user's (docs/security.md, "Symlinks and special files"): a shard moved to another
        // disk and linked back is read, a FIFO there is refused without waiting on it.
        const std::string cache = copyCache();
        const std::string outside = test::tempDir() + "/elsewhere.safetensors";
        fs::rename(cache + "/shard-00000.safetensors", outside);
        fs::create_symlink(outside, cache + "/shard-00000.safetensors");
        const auto f = fit(cache, test::tempDir() + "/cb.safetensors");
        QVERIFY2(f.exitCode == 0, qPrintable(f.err));
        fs::remove(outside);
        QCOMPARE(::mkfifo(outside.c_str(), 0600), 0);
        EXPECT_REFUSED(fit(cache, test::tempDir() + "/cb2.safetensors"), 1,
                       "shard-00000.safetensors", "FIFO");
    }

    void shardVideoIndexOutOfRangeIsRefused() {
        const std::string cache = copyCache();
        rewrite(cache + "/shard-00000.safetensors", [](auto& t) { t["video"][3] = 999; });
        EXPECT_REFUSED(fit(cache, test::tempDir() + "/cb.safetensors"), 1,
                       "shard-00000.safetensors", "field 'video'", "999");
        // A valid index that is not the row's video (the manifest's ranges say whose it is).
        const std::string other = copyCache();
        rewrite(other + "/shard-00000.safetensors", [](auto& t) { t["video"][0] = 3; });
        EXPECT_REFUSED(fit(other, test::tempDir() + "/cb.safetensors"), 1,
                       "shard-00000.safetensors", "field 'video'");
    }

    void shardCategoryAndBinOutOfRangeAreRefused() {
        const std::string cache = copyCache();
        rewrite(cache + "/shard-00001.safetensors", [](auto& t) {
            t["bin"][0] = std::numeric_limits<int>::min();  // what a NaN time once became
        });
        EXPECT_REFUSED(fit(cache, test::tempDir() + "/cb.safetensors"), 1,
                       "shard-00001.safetensors", "field 'bin'");
        const std::string other = copyCache();
        rewrite(other + "/shard-00000.safetensors", [](auto& t) { t["category"][1] = 7; });
        EXPECT_REFUSED(fit(other, test::tempDir() + "/cb.safetensors"), 1,
                       "shard-00000.safetensors", "field 'category'");
    }

    void perRepresentativeArraysOfDifferentLengthsAreRefused() {
        const std::string cache = copyCache();
        rewrite(cache + "/shard-00000.safetensors",
                [](auto& t) { t["bin"] = t["bin"].slice(0, 0, t["bin"].size(0) - 1); });
        EXPECT_REFUSED(fit(cache, test::tempDir() + "/cb.safetensors"), 1,
                       "shard-00000.safetensors", "field 'bin'");
        // A shard with fewer rows than the manifest counts for it.
        const std::string shorter = copyCache();
        rewrite(shorter + "/shard-00000.safetensors", [](auto& t) {
            for (auto& [name, tensor] : t) {
                tensor = tensor.slice(0, 0, tensor.size(0) - 1);
            }
        });
        EXPECT_REFUSED(fit(shorter, test::tempDir() + "/cb.safetensors"), 1,
                       "shard-00000.safetensors", "field 'reps'");
        // A manifest whose shard count no longer matches its videos' rows.
        const std::string other = copyCache();
        editManifest(other, [](nlohmann::json& m) {
            m["shards"][0]["rows"] = m["shards"][0]["rows"].get<int>() + 1;
        });
        EXPECT_REFUSED(fit(other, test::tempDir() + "/cb.safetensors"), 1, other + "/manifest.json",
                       "field 'videos[");
    }

    void countsThatDisagreeWithTheManifestAreRefused() {
        const std::string cache = copyCache();
        editManifest(cache, [](nlohmann::json& m) {
            m["videos"][0]["tokens"] = m["videos"][0]["tokens"].get<int>() + 5;
        });
        EXPECT_REFUSED(fit(cache, test::tempDir() + "/cb.safetensors"), 1,
                       "shard-00000.safetensors", "field 'weights'", "videos[0].tokens");
        const std::string other = copyCache();
        editManifest(other, [](nlohmann::json& m) { m["videos"][1]["row_end"] = 100000; });
        EXPECT_REFUSED(fit(other, test::tempDir() + "/cb.safetensors"), 1, other + "/manifest.json",
                       "videos[1].row_end");
    }

    void brokenManifestJsonIsRefusedWithoutRawExceptionText() {
        const std::string cache = copyCache();
        writeFileAtomically(cache + "/manifest.json", "{\"format\": \"once-sketch-cache/1\", ");
        auto r = fit(cache, test::tempDir() + "/cb.safetensors");
        EXPECT_REFUSED(r, 1, cache + "/manifest.json", "line 1");
        QVERIFY2(!r.err.contains("json.exception"), qPrintable(r.err));
        // Resuming `train sketch` on it reads the same manifest: the same refusal.
        auto s = test::runCli({"train", "sketch", "--manifest", q(corpus_), "-o", q(cache), "--R",
                               "8", "--shard-rows", "64"});
        EXPECT_REFUSED(s, 1, cache + "/manifest.json");
        QVERIFY(!s.err.contains("json.exception"));
    }

    void fitStateWithImpossibleBestEpochIsRefused() {
        // A real state (stopped after the initialiser) with its best epoch made 99.
        const std::string out = test::tempDir() + "/cb.safetensors";
        const std::string state = out + ".fit-state";
        {
            const SketchCache cache = SketchCache::load(cache_);
            CancelToken token;
            Progress stopper(
                [&](const ProgressEvent& e) {
                    if (e.stage.rfind("Stage B Sinkhorn", 0) == 0) {
                        token.cancel();
                    }
                },
                token);
            QVERIFY_THROWS_EXCEPTION(Cancelled,
                                     fitCodebook(cache, fitConfigOfKFit(), &stopper, state));
        }
        QVERIFY(fs::exists(state));
        std::map<std::string, at::Tensor> tensors;
        std::map<std::string, std::string> meta;
        {
            auto f = SafetensorsFile::open(state);
            for (const auto& e : f.tensors()) {
                tensors[e.name] = loadTensor(f, e.name).clone();
            }
            meta = f.metadata();
        }
        auto st = nlohmann::json::parse(meta.at("state"));
        st["best_epoch"] = 99;
        SafetensorsWriter w;
        for (const auto& [name, t] : tensors) {
            addTensor(w, name, t);
        }
        for (const auto& [k, v] : meta) {
            w.setMetadata(k, k == "state" ? st.dump() : v);
        }
        w.write(state);
        const std::string before = readWholeFile(state);
        EXPECT_REFUSED(fit(cache_, out), 1, state, "state.best_epoch", "99");
        QVERIFY(!fs::exists(out));
        QCOMPARE(readWholeFile(state), before);  // the user's state: kept as it was

        // A state of other options names the option.
        EXPECT_REFUSED(fit(cache_, out, {"--lr", "0.002"}), 1, state, "training_config.lr");
    }

    void meaninglessFitOptionsAreRefused() {
        const std::string out = test::tempDir() + "/cb.safetensors";
        // Values FitConfig::validate refuses (shared with the studio's trainer): exit 1.
        const std::vector<std::pair<QStringList, std::string>> invalid = {
            {{"--lr", "0"}, "lr"},     {{"--tau-min", "-1"}, "tau-min"}, {{"--beta2", "1"}, "beta2"},
            {{"--K", "0"}, "K"},       {{"--K", "-3"}, "K"}};
        for (const auto& [args, field] : invalid) {
            EXPECT_REFUSED(fit(cache_, out, args), 1, "field '" + field + "'");
            QVERIFY(!fs::exists(out));
            QVERIFY(!fs::exists(out + ".fit-state"));
        }
        // Not a finite number, not representable, a negative seed or count the parser owns: a
        // usage error naming the option (exit 2), as for any option (cli/arg_parser.h).
        const std::vector<std::pair<QStringList, std::string>> usage = {
            {{"--lr", "fast"}, "--lr"},
            {{"--lr", "nan"}, "--lr"},
            {{"--lr", "inf"}, "--lr"},
            {{"--tau-start", "nan"}, "--tau-start"},
            {{"--tau-decay", "inf"}, "--tau-decay"},
            {{"--epsilon", "nan"}, "--epsilon"},
            {{"--alpha", "nan"}, "--alpha"},
            {{"--epochs", "4294967298"}, "--epochs"},
            {{"--seed", "-1"}, "--seed"},
            {{"--diagnostics-bootstrap", "-1"}, "--diagnostics-bootstrap"},
            {{"--exemplars", "100000"}, "--exemplars"}};
        for (const auto& [args, option] : usage) {
            EXPECT_REFUSED(fit(cache_, out, args), 2, option);
            QVERIFY(!fs::exists(out));
            QVERIFY(!fs::exists(out + ".fit-state"));
        }
    }

    void meaninglessSketchOptionsAreRefused() {
        // Exit 1: SketchCacheOptions::validate (shared with the studio), naming the field;
        // exit 2: the parser, naming the option (not finite, not representable, negative seed).
        const std::vector<std::tuple<QStringList, int, std::string>> cases = {
            {{"--R", "0"}, 1, "field 'R'"},
            {{"--R", "nan"}, 2, "--R"},
            {{"--R", "-inf"}, 2, "--R"},
            {{"--bins", "0"}, 1, "field 'bins'"},
            {{"--bins", "4294967297"}, 2, "--bins"},  // would wrap to 1
            {{"--bins", "100000000"}, 1, "field 'bins'"},
            {{"--m-min", "10", "--m-max", "5"}, 1, "field 'm-max'"},
            {{"--m-min", "0"}, 1, "field 'm-min'"},
            // Below the bins: a cache fit would refuse (issue 26, item 13; docs/training.md).
            {{"--m-min", "2"}, 1, "field 'm-min'"},
            {{"--bins", "8", "--m-min", "4", "--m-max", "8"}, 1, "field 'm-min'"},
            {{"--cap", "-1"}, 1, "field 'cap'"},
            {{"--seed", "-1"}, 2, "--seed"},
            {{"--shard-rows", "-3"}, 1, "field 'shard-rows'"},
            {{"--shard-rows", "0"}, 1, "field 'shard-rows'"}};
        for (const auto& [args, code, needle] : cases) {
            const std::string out = test::tempDir() + "/new-cache";
            auto r = test::runCli(
                QStringList{"train", "sketch", "--manifest", q(corpus_), "-o", q(out)} + args);
            EXPECT_REFUSED(r, code, needle);
            QVERIFY2(!fs::exists(out), qPrintable(args.join(' ')));  // nothing created
        }
        // m_min = L is enough for every video: the cache is one fit accepts.
        const std::string ok = test::tempDir() + "/cache-mmin-eq-bins";
        auto r = test::runCli({"train", "sketch", "--manifest", q(corpus_), "-o", q(ok),
                               "--m-min", "4", "--m-max", "4", "--R", "100000"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const std::string cb = test::tempDir() + "/cb-mmin.safetensors";
        r = fit(ok, cb, {"--candidates", "16"});  // 4 videos x 4 representatives
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    void nonFiniteCorpusFeaturesAreRefused() {
        const std::string dir = test::tempDir();
        at::Tensor x = at::randn({4, 30, 16});
        x[2][5][3] = std::numeric_limits<float>::quiet_NaN();
        const std::string nanFeatures =
            writeRawFeatures(dir + "/nan.safetensors", x, at::arange(4, at::kDouble));
        at::Tensor t = at::arange(4, at::kDouble);
        t[1] = std::numeric_limits<double>::quiet_NaN();
        const std::string nanTimes =
            writeRawFeatures(dir + "/times.safetensors", at::randn({4, 30, 16}), t);
        at::Tensor big = at::arange(4, at::kDouble);
        big[0] = -1e308;
        big[3] = 1e308;  // finite, but the span is not
        const std::string hugeSpan =
            writeRawFeatures(dir + "/span.safetensors", at::randn({4, 30, 16}), big);
        for (const auto& [file, field] : {std::pair{nanFeatures, std::string("features")},
                                          std::pair{nanTimes, std::string("frame_times")},
                                          std::pair{hugeSpan, std::string("frame_times")}}) {
            const std::string corpus = corpusOf(test::tempDir(), {file});
            const std::string out = test::tempDir() + "/c";
            auto r = test::runCli(
                {"train", "sketch", "--manifest", q(corpus), "-o", q(out), "--R", "8"});
            EXPECT_REFUSED(r, 1, file, "field '" + field);
            QVERIFY(!fs::exists(out));  // a new cache that got no video leaves nothing
        }
    }

    void sketchIntoAUsersFolderTouchesNothing() {
        const std::string folder = test::tempDir() + "/mine";
        fs::create_directories(folder);
        const std::string notes = "my notes, not a cache\n";
        writeFileAtomically(folder + "/notes.txt", notes);
        const QStringList sketch = {"train",   "sketch", "--manifest", q(corpus_),     "-o",
                                    q(folder), "--R",    "8",          "--shard-rows", "64"};
        auto r = test::runCli(sketch);
        EXPECT_REFUSED(r, 1, folder, "--force");
        QCOMPARE(listing(folder), std::vector<std::string>{"notes.txt"});
        QCOMPARE(readWholeFile(folder + "/notes.txt"), notes);

        // --force writes the cache beside the file, which survives byte for byte.
        auto forced = test::runCli(sketch + QStringList{"--force"});
        QVERIFY2(forced.exitCode == 0, qPrintable(forced.err));
        QCOMPARE(readWholeFile(folder + "/notes.txt"), notes);
        QVERIFY(SketchCache::load(folder).reps.size(0) > 0);

        // A rerun on the finished cache (a resume) leaves a user's file with a cache-like name
        // alone; the old code deleted "stray" shards past the committed ones.
        const std::string stray = folder + "/shard-00009.safetensors";
        writeFileAtomically(stray, "user data");
        auto again = test::runCli(sketch);
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        QCOMPARE(readWholeFile(stray), std::string("user data"));
        QCOMPARE(readWholeFile(folder + "/notes.txt"), notes);

        // A cache file name taken by a user's file in a folder without a cache: refused even
        // with --force, and the file is kept.
        const std::string other = test::tempDir() + "/other";
        fs::create_directories(other);
        writeFileAtomically(other + "/shard-00000.safetensors", "not a shard");
        auto refused = test::runCli(QStringList{"train", "sketch", "--manifest", q(corpus_), "-o",
                                                q(other), "--R", "8", "--force"});
        EXPECT_REFUSED(refused, 1, other + "/shard-00000.safetensors");
        QCOMPARE(readWholeFile(other + "/shard-00000.safetensors"), std::string("not a shard"));
        QCOMPARE(listing(other), std::vector<std::string>{"shard-00000.safetensors"});

        // `-o` naming an existing file, not a folder.
        auto file = test::runCli(QStringList{"train", "sketch", "--manifest", q(corpus_), "-o",
                                             q(folder + "/notes.txt")});
        EXPECT_REFUSED(file, 1, folder + "/notes.txt");
        QCOMPARE(readWholeFile(folder + "/notes.txt"), notes);
    }

    void hostilePendingSketchIsRefused() {
        // A stopped run keeps finished videos in pending files; a tampered one is refused on
        // resume, naming it and the tensor, and left in place.
        const std::string cache = test::tempDir() + "/stopped";
        SketchCacheOptions o;
        o.sketch.tokensPerRep = 8;
        CancelToken token;
        Progress stopper(
            [&](const ProgressEvent& e) {
                if (e.done >= 2) {
                    token.cancel();
                }
            },
            token);
        QVERIFY_THROWS_EXCEPTION(
            Cancelled, buildSketchCache(readCorpusManifest(corpus_), cache, o, {}, &stopper));
        const std::string pending = cache + "/pending-00000001.safetensors";
        QVERIFY(fs::exists(pending));
        rewrite(pending, [](auto& t) { t["bin"][0] = 4; });  // bins are 0..3
        const std::string before = readWholeFile(pending);
        auto r =
            test::runCli({"train", "sketch", "--manifest", q(corpus_), "-o", q(cache), "--R", "8"});
        EXPECT_REFUSED(r, 1, pending, "field 'bin'");
        QCOMPARE(readWholeFile(pending), before);

        // A user's manifest.json (not a cache's) in the output folder: refused, kept.
        const std::string folder = test::tempDir() + "/withjson";
        fs::create_directories(folder);
        writeFileAtomically(folder + "/manifest.json", "{\"name\": \"my project\"}");
        auto m =
            test::runCli({"train", "sketch", "--manifest", q(corpus_), "-o", q(folder), "--force"});
        EXPECT_REFUSED(m, 1, folder + "/manifest.json", "format");
        QCOMPARE(readWholeFile(folder + "/manifest.json"),
                 std::string("{\"name\": \"my project\"}"));
        QCOMPARE(listing(folder), std::vector<std::string>{"manifest.json"});
    }

    void failingFitLeavesNoPartialOutput() {
        // A learning rate so large the fit diverges after its state was first written.
        const std::string outDir = test::tempDir();
        const std::string out = outDir + "/cb.safetensors";
        auto r = fit(cache_, out, {"--lr", "1e30"});
        EXPECT_REFUSED(r, 1, "diverged", "field 'lr'");
        QCOMPARE(listing(outDir), std::vector<std::string>{});

        // An output that is a folder is refused before any fitting.
        fs::create_directories(outDir + "/folder.safetensors");
        auto f = fit(cache_, outDir + "/folder.safetensors");
        EXPECT_REFUSED(f, 1, outDir + "/folder.safetensors");
        QCOMPARE(listing(outDir), std::vector<std::string>{"folder.safetensors"});
        QVERIFY(fs::is_empty(outDir + "/folder.safetensors"));
    }
};

QTEST_GUILESS_MAIN(TestHostileTraining)
#include "test_hostile_training.moc"
