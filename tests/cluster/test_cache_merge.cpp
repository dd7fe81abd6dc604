// Sharded Stage A (`once train sketch --shard I/N`) merged by `once train merge`
// (core/train/cache_merge.h) equals the single-process cache byte for byte — shard files
// (representatives, weights, categories, video indices, bins, cut at the same rows) and
// manifest.json — with a binding global cap, a failed video and shards given in any order; a
// stopped shard resumes; inconsistent or incomplete sets of shards are refused naming the shard
// and the field. Stage B streamed from the mapped cache (train/cache_reader.h) returns the bits
// of the fit on the loaded cache.
#include <ATen/ATen.h>

#include <QtTest>
#include <filesystem>

#include "features/feature_file.h"
#include "support/test_support.h"
#include "support/train_fixture.h"
#include "train/cache_merge.h"
#include "train/cache_reader.h"
#include "train/sketch_cache.h"
#include "train/spherical_kmeans.h"
#include "train/stage_b.h"
#include "util/atomic_file.h"
#include "util/error.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

std::string writeFeatureVideo(const std::string& dir, int index, std::int64_t frames,
                              std::int64_t patches, std::int64_t d) {
    at::manual_seed(200 + std::uint64_t(index));
    at::Tensor centres = at::randn({5, d});
    at::Tensor pick = at::randint(5, {frames * patches}, at::kLong);
    const at::Tensor features =
        normalizeRows(centres.index_select(0, pick) + 0.4 * at::randn({frames * patches, d}))
            .reshape({frames, patches, d});
    return test::writeFeatureFile(features, dir + "/v" + std::to_string(index) + ".safetensors",
                                  0.5, "synthetic" + std::to_string(index));
}

// 11 videos of different lengths and categories; video 6 is not a feature file (fails).
std::vector<CorpusEntry> corpus(const std::string& dir) {
    std::vector<CorpusEntry> c;
    for (int i = 0; i < 11; ++i) {
        std::string path;
        if (i == 6) {
            path = dir + "/broken.safetensors";
            writeFileAtomically(path, "not a safetensors file");
        } else {
            path = writeFeatureVideo(dir, i, 6 + i % 4, 30, 12);
        }
        c.push_back({path, i % 3 == 2 ? "" : (i % 3 == 0 ? "cats" : "dogs")});
    }
    return c;
}

SketchCacheOptions options() {
    SketchCacheOptions o;
    o.sketch.tokensPerRep = 8;
    o.sketch.mMin = 4;
    o.sketch.mMax = 64;
    o.cap = 150;  // binds: m_max resolves far below 64
    o.shardRows = 37;
    o.skipErrors = true;
    return o;
}

void replaceInFile(const std::string& path, const std::string& from, const std::string& to) {
    std::string s = readWholeFile(path);
    const auto at = s.find(from);
    QVERIFY2(at != std::string::npos, from.c_str());
    s.replace(at, from.size(), to);
    writeFileAtomically(path, s);
}

}  // namespace

class TestCacheMerge : public QObject {
    Q_OBJECT
    std::string dir_;
    std::vector<CorpusEntry> corpus_;

  private slots:
    void initTestCase() {
        dir_ = test::tempDir();
        corpus_ = corpus(dir_);
        auto s = buildSketchCache(corpus_, dir_ + "/single", options(), {}, nullptr);
        QCOMPARE(s.failed, std::int64_t(1));
        QVERIFY(s.mMax < 64);                                      // the cap binds
        QVERIFY(test::folderBytes(dir_ + "/single").size() >= 4);  // several shard files
    }

    void mergeEqualsSingleProcessCache() {
        for (std::int64_t n : {2, 3, 11, 13}) {
            std::vector<std::string> dirs;
            for (std::int64_t i = n - 1; i >= 0; --i) {  // any order
                SketchCacheOptions o = options();
                o.shard = {i, n, "test"};
                const std::string d = dir_ + "/n" + std::to_string(n) + "-" + std::to_string(i);
                auto s = buildSketchCache(corpus_, d, o, {}, nullptr);
                QCOMPARE(s.videos, o.shard.ownedCount(11));
                dirs.push_back(d);
            }
            const std::string out = dir_ + "/merged" + std::to_string(n);
            CacheMergeSummary m = mergeSketchCaches(dirs, out);
            QCOMPARE(m.videos, std::int64_t(11));
            QCOMPARE(m.failed, std::int64_t(1));
            QVERIFY2(test::folderBytes(out) == test::folderBytes(dir_ + "/single"),
                     qPrintable(QString("N=%1").arg(n)));
        }
    }

    void shardCacheIsNotAWholeCache() {
        SketchCacheOptions o = options();
        o.shard = {1, 2, "test"};
        buildSketchCache(corpus_, dir_ + "/lonely", o, {}, nullptr);
        const OnceError e = test::errorOf([&] { SketchCache::load(dir_ + "/lonely"); });
        QCOMPARE(e.where().field, std::string("request.shard"));
        QCOMPARE(e.where().found, std::string("1/2"));
    }

    void stoppedShardResumes() {
        SketchCacheOptions o = options();
        o.shard = {0, 2, "test"};
        CancelToken token;
        int calls = 0;
        Progress stopper(
            [&](const ProgressEvent&) {
                if (++calls == 3)
                    token.cancel();
            },
            token);
        QVERIFY_THROWS_EXCEPTION(Cancelled,
                                 buildSketchCache(corpus_, dir_ + "/r0", o, {}, &stopper));
        auto s = buildSketchCache(corpus_, dir_ + "/r0", o, {}, nullptr);
        QVERIFY(s.resumed > 0);
        QVERIFY(test::folderBytes(dir_ + "/r0") == test::folderBytes(dir_ + "/n2-0"));
        // The same folder under another shard, or without --shard, is refused naming it; so is a
        // whole-corpus cache resumed as a shard.
        o.shard = {1, 2, "test"};
        OnceError e =
            test::errorOf([&] { buildSketchCache(corpus_, dir_ + "/r0", o, {}, nullptr); });
        QCOMPARE(e.where().field, std::string("shard"));
        o.shard = {};
        e = test::errorOf([&] { buildSketchCache(corpus_, dir_ + "/r0", o, {}, nullptr); });
        QCOMPARE(e.where().field, std::string("shard"));
        QVERIFY(test::folderBytes(dir_ + "/r0") == test::folderBytes(dir_ + "/n2-0"));
        o.shard = {0, 2, "test"};
        e = test::errorOf([&] { buildSketchCache(corpus_, dir_ + "/single", o, {}, nullptr); });
        QCOMPARE(e.where().field, std::string("shard"));
    }

    void refusesInconsistentShards() {
        const std::string a = dir_ + "/n3-0", b = dir_ + "/n3-1", c = dir_ + "/n3-2";
        // Missing shard: named, with the ones given.
        OnceError e = test::errorOf([&] { mergeSketchCaches({a, c}, dir_ + "/x1"); });
        QVERIFY(e.brief().find("shard 1/3 is missing") != std::string::npos);
        QCOMPARE(e.where().field, std::string("request.shard.index"));
        QVERIFY(!fs::exists(dir_ + "/x1"));
        // Overlap: the same shard twice.
        e = test::errorOf([&] { mergeSketchCaches({a, b, b, c}, dir_ + "/x2"); });
        QCOMPARE(e.where().field, std::string("request.shard.index"));
        QVERIFY(e.where().file.find("n3-1") != std::string::npos);
        // Another shard count.
        e = test::errorOf([&] { mergeSketchCaches({a, b, dir_ + "/n2-1"}, dir_ + "/x3"); });
        QCOMPARE(e.where().field, std::string("request.shard.count"));
        QVERIFY(e.where().file.find("n2-1") != std::string::npos);
        // Other options: named option, both values.
        SketchCacheOptions o = options();
        o.sketch.seed = 7;
        o.shard = {1, 3, "test"};
        buildSketchCache(corpus_, dir_ + "/seed7", o, {}, nullptr);
        e = test::errorOf([&] { mergeSketchCaches({a, dir_ + "/seed7", c}, dir_ + "/x4"); });
        QCOMPARE(e.where().field, std::string("request.seed"));
        QCOMPARE(e.where().expected, std::string("42"));
        QCOMPARE(e.where().found, std::string("7"));
        QVERIFY(e.brief().find("shard 1/3") != std::string::npos);
        // Another corpus: the first differing entry.
        auto other = corpus_;
        other[4].category = "birds";
        o = options();
        o.shard = {1, 3, "test"};
        buildSketchCache(other, dir_ + "/corpus2", o, {}, nullptr);
        e = test::errorOf([&] { mergeSketchCaches({a, dir_ + "/corpus2", c}, dir_ + "/x5"); });
        QCOMPARE(e.where().field, std::string("request.corpus[4]"));
        // Another backbone (a copy of shard 2 whose videos say another encoder).
        fs::copy(c, dir_ + "/bb", fs::copy_options::recursive);
        replaceInFile(dir_ + "/bb/manifest.json", "\"backbone\": \"demo\"",
                      "\"backbone\": \"siglip\"");
        e = test::errorOf([&] { mergeSketchCaches({a, b, dir_ + "/bb"}, dir_ + "/x6"); });
        QCOMPARE(e.where().field, std::string("backbone"));
        QCOMPARE(e.where().found, std::string("siglip"));
        // An unfinished shard: rerun its task.
        fs::copy(b, dir_ + "/unfinished", fs::copy_options::recursive);
        replaceInFile(dir_ + "/unfinished/manifest.json", "\"complete\": true",
                      "\"complete\": false");
        e = test::errorOf([&] { mergeSketchCaches({a, dir_ + "/unfinished", c}, dir_ + "/x7"); });
        QCOMPARE(e.where().field, std::string("complete"));
        QVERIFY(e.where().file.find("unfinished") != std::string::npos);
        // A whole-corpus cache is not a shard.
        e = test::errorOf([&] { mergeSketchCaches({dir_ + "/single"}, dir_ + "/x8"); });
        QCOMPARE(e.where().field, std::string("request.shard"));
        // An output folder with files is refused and left alone.
        fs::create_directories(dir_ + "/busy");
        writeFileAtomically(dir_ + "/busy/keep.txt", "mine");
        e = test::errorOf([&] { mergeSketchCaches({a, b, c}, dir_ + "/busy"); });
        QCOMPARE(e.where().field, std::string("output"));
        QCOMPARE(readWholeFile(dir_ + "/busy/keep.txt"), std::string("mine"));
        for (int i = 1; i <= 8; ++i) {
            QVERIFY(!fs::exists(dir_ + "/x" + std::to_string(i)));
        }
    }

    void streamedFitEqualsLoadedFit() {
        const SketchCache loaded = SketchCache::load(dir_ + "/single");
        const CacheReader mapped = CacheReader::open(dir_ + "/merged3");
        QCOMPARE(trainingDataSha256(mapped),
                 trainingDataSha256(loaded.reps, loaded.weights, loaded.category));
        // Rows by index and in tiles are the loaded cache's rows.
        std::vector<std::int64_t> idx = {5, 0, loaded.reps.size(0) - 1, 36, 37, 5};
        QVERIFY(mapped.gather(idx).equal(loaded.reps.index_select(0, at::tensor(idx))));
        QVERIFY(mapped.slice(30, 80).equal(loaded.reps.slice(0, 30, 80)));
        for (const char* method : {"sinkhorn", "hard-lloyd"}) {
            FitConfig c;
            c.method = method;
            c.codewords = 8;
            c.candidates = 40;
            c.batch = 23;  // several mini-batches crossing shard files
            c.epochs = 3;
            c.lloydIterations = 3;
            const std::string s1 = test::tempDir() + "/a.state", s2 = test::tempDir() + "/b.state";
            FitResult x = fitCodebook(loaded, c, nullptr, s1);
            FitResult y = fitCodebook(mapped, c, nullptr, s2);
            QVERIFY2(x.codebook.equal(y.codebook), method);
            QVERIFY(x.metadata == y.metadata);
            QCOMPARE(readWholeFile(s1), readWholeFile(s2));  // resume states too
        }
        FitConfig big;
        big.codewords = loaded.reps.size(0) + 1;
        const OnceError e = test::errorOf([&] { fitCodebook(mapped, big); });
        QCOMPARE(e.where().field, std::string("K"));
    }
};

QTEST_GUILESS_MAIN(TestCacheMerge)
#include "test_cache_merge.moc"
