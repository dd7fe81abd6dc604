// Provenance for the codebook explorer (issue 16): Stage A keeps each representative's most
// typical patch, a sharded run merges it bit for bit, Stage B turns it into per-codeword corpus
// usage and exemplars in the codebook file, and caches and codebooks written before provenance
// still load, resume and train. Damaged exemplar sections are refused naming the field.
#include <ATen/ATen.h>

#include <QtTest>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "codebook/codebook.h"
#include "codebook/codebook_exemplars.h"
#include "codebook/codebook_writer.h"
#include "features/feature_file.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/test_support.h"
#include "support/train_fixture.h"
#include "train/cache_merge.h"
#include "train/cache_reader.h"
#include "train/exemplar_pixels.h"
#include "train/exemplar_selection.h"
#include "train/sketch.h"
#include "train/sketch_cache.h"
#include "train/sketch_provenance.h"
#include "train/spherical_kmeans.h"
#include "train/stage_b.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/json_file.h"
#include "video/frames_at.h"
#include "video/video_reader.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

constexpr int kGridH = 4, kGridW = 10;

// A feature file with a 4 × 10 grid, frame times 1 + 0.5·t s and the decoder's frame numbers
// 3·t, as `once encode` writes them.
std::string writeVideo(const std::string& dir, int index, std::int64_t frames) {
    at::manual_seed(300 + index);
    const at::Tensor centres = at::randn({6, 16});
    const at::Tensor pick = at::randint(6, {frames * kGridH * kGridW}, at::kLong);
    EncodedVideo v;
    v.features = (centres.index_select(0, pick) + 0.4 * at::randn({pick.size(0), 16}))
                     .reshape({frames, kGridH * kGridW, 16});
    std::string idx;
    for (std::int64_t t = 0; t < frames; ++t) {
        v.frameTimes.push_back(1.0 + 0.5 * double(t));
        idx += (t ? "," : "") + std::to_string(3 * t);
    }
    v.extra["frame_indices"] = idx;
    v.gridH = kGridH;
    v.gridW = kGridW;
    v.backbone = "demo";
    v.sampling = "uniform:" + std::to_string(frames);
    fs::create_directories(dir + "/clips");
    const std::string path = dir + "/clips/v" + std::to_string(index) + ".safetensors";
    saveFeatureFile(v, path);
    return path;
}

std::vector<CorpusEntry> writeCorpus(const std::string& dir, int videos) {
    std::string lines;
    for (int i = 0; i < videos; ++i) {
        lines += "{\"video\": \"" + writeVideo(dir, i, 6 + i % 3) + "\", \"category\": \"" +
                 (i % 2 ? "b" : "a") + "\"}\n";
    }
    writeFileAtomically(dir + "/corpus.jsonl", lines);
    return readCorpusManifest(dir + "/corpus.jsonl");
}

SketchCacheOptions smallOptions() {
    SketchCacheOptions o;
    o.sketch.tokensPerRep = 12;
    o.shardRows = 50;
    return o;
}

// Rewrites a cache as a version before provenance wrote it: no `exemplar` tensors, no
// `provenance` key.
void stripProvenance(const std::string& dir) {
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (name.rfind("shard-", 0) != 0) {
            continue;
        }
        const SafetensorsFile f = SafetensorsFile::open(e.path().string());
        SafetensorsWriter w;
        for (const char* t : {"reps", "weights", "category", "video", "bin"}) {
            addTensor(w, t, loadTensor(f, t).clone());
        }
        w.setMetadata("format", f.meta("format"));
        w.write(e.path().string());
    }
    nlohmann::json m = nlohmann::json::parse(readWholeFile(dir + "/manifest.json"));
    QVERIFY(m.contains("provenance"));
    m.erase("provenance");
    writeFileAtomically(dir + "/manifest.json", m.dump(1));
}

FitConfig smallFit(std::int64_t k) {
    FitConfig c;
    c.codewords = k;
    c.candidates = 200;
    c.batch = 128;
    c.epochs = 2;
    return c;
}

std::optional<CodebookExemplars> readExemplars(const std::string& path, std::int64_t k) {
    const SafetensorsFile f = SafetensorsFile::open(path);
    return parseCodebookExemplars(f.header(), f.image(), k, path);
}

// A codebook file with the given metadata and tensors replaced (for the refusal tests).
std::string rewrite(const std::string& from, const std::string& to,
                    const std::function<void(std::map<std::string, std::string>&,
                                             std::map<std::string, at::Tensor>&)>& change) {
    const SafetensorsFile f = SafetensorsFile::open(from);
    std::map<std::string, std::string> meta = f.metadata();
    std::map<std::string, at::Tensor> tensors;
    for (const auto& e : f.tensors()) {
        tensors[e.name] = loadTensor(f, e.name).clone();
    }
    change(meta, tensors);
    SafetensorsWriter w;
    for (const auto& [name, t] : tensors) {
        addTensor(w, name, t);
    }
    for (const auto& [k, v] : meta) {
        w.setMetadata(k, v);
    }
    w.write(to);
    return to;
}

QString refusal(const std::string& path, std::int64_t k) {
    try {
        readExemplars(path, k);
    } catch (const OnceError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestProvenance : public QObject {
    Q_OBJECT
    std::string dir_;
    std::vector<CorpusEntry> corpus_;

  private slots:
    void initTestCase() {
        dir_ = test::tempDir();
        corpus_ = writeCorpus(dir_, 7);
    }

    void sketchKeepsTheMostTypicalMemberOfEachRepresentative() {
        // Four well-separated directions, one bin: each representative's group is one cluster,
        // so its most typical member is the video's token of highest cosine to it.
        at::manual_seed(5);
        const at::Tensor dirs = normalizeRows(at::randn({4, 32})) * 10;
        const at::Tensor pick = at::arange(200, at::kLong).remainder(4);
        const at::Tensor x =
            (dirs.index_select(0, pick) + 0.3 * at::randn({200, 32})).reshape({10, 20, 32});
        SketchOptions o;
        o.bins = 1;
        o.mMin = o.mMax = 4;
        const VideoSketch s = sketchVideo(x, {}, o, 0);
        QCOMPARE(s.medoids.size(0), std::int64_t(4));
        const at::Tensor cos = at::mm(normalizeRows(x.reshape({200, 32})), s.reps.t());  // [N, m]
        for (std::int64_t j = 0; j < 4; ++j) {
            QCOMPARE(s.medoids[j].item<std::int64_t>(),
                     cos.select(1, j).argmax().item<std::int64_t>());
        }
        // The exemplar rows locate it: frame, cell of the grid, time and frame number.
        EncodedVideo v(x);
        v.gridH = 4;
        v.gridW = 5;
        for (int t = 0; t < 10; ++t) {
            v.frameTimes.push_back(2.0 * t);
        }
        const at::Tensor rows = exemplarRows(s.medoids, v);
        for (std::int64_t j = 0; j < 4; ++j) {
            const std::int64_t token = s.medoids[j].item<std::int64_t>();
            QCOMPARE(rows[j][kExemplarFrame].item<int>(), int(token / 20));
            QCOMPARE(rows[j][kExemplarRow].item<int>(), int(token % 20 / 5));
            QCOMPARE(rows[j][kExemplarCol].item<int>(), int(token % 5));
            QCOMPARE(rows[j][kExemplarTimeMs].item<int>(), int(token / 20) * 2000);
            QCOMPARE(rows[j][kExemplarSourceFrame].item<int>(), -1);  // none recorded
        }
    }

    void shardedRunMergesProvenanceBitForBit() {
        const SketchCacheOptions o = smallOptions();
        buildSketchCache(corpus_, dir_ + "/whole", o, {}, nullptr);
        std::vector<std::string> shards;
        for (int i = 0; i < 3; ++i) {
            SketchCacheOptions s = o;
            s.shard.index = i;
            s.shard.count = 3;
            shards.push_back(dir_ + "/task" + std::to_string(i));
            buildSketchCache(corpus_, shards.back(), s, {}, nullptr);
        }
        mergeSketchCaches(shards, dir_ + "/merged");
        const auto whole = test::folderBytes(dir_ + "/whole");
        QVERIFY(whole.size() >= 3);
        QVERIFY(test::folderBytes(dir_ + "/merged") == whole);

        // Every representative's exemplar is its medoid, located in its video.
        const SketchCache c = SketchCache::load(dir_ + "/whole");
        QVERIFY(c.exemplar.defined());
        QCOMPARE(c.exemplar.sizes(), (at::IntArrayRef{c.reps.size(0), kExemplarColumns}));
        SketchOptions so = o.sketch;
        so.mMax = nlohmann::json::parse(c.manifestJson)["m_max"].get<std::int64_t>();
        std::int64_t row = 0;
        for (std::size_t v = 0; v < corpus_.size(); ++v) {
            const EncodedVideo video = loadFeatureFile(corpus_[v].source);
            const VideoSketch s =
                sketchVideo(video.features, video.frameTimesTensor(), so, std::int64_t(v));
            const at::Tensor expected = exemplarRows(s.medoids, video);
            const at::Tensor got = c.exemplar.slice(0, row, row + s.reps.size(0));
            QVERIFY2(at::equal(got, expected), qPrintable(QString::number(v)));
            // frame t lies at 1 + 0.5 t s and is the decoder's frame 3 t.
            const at::Tensor frame = got.select(1, kExemplarFrame);
            QVERIFY(at::equal(got.select(1, kExemplarTimeMs), frame * 500 + 1000));
            QVERIFY(at::equal(got.select(1, kExemplarSourceFrame), frame * 3));
            QVERIFY(got.select(1, kExemplarGridRows).eq(kGridH).all().item<bool>());
            QVERIFY(got.select(1, kExemplarGridCols).eq(kGridW).all().item<bool>());
            row += s.reps.size(0);
        }
        QCOMPARE(row, c.reps.size(0));
    }

    void damagedCacheProvenanceIsRefusedNamingTheRow() {
        // A copy of the whole cache with one shard's exemplar rows changed.
        auto damage = [&](const std::string& name,
                          const std::function<void(std::map<std::string, at::Tensor>&)>& change) {
            const std::string dir = dir_ + "/" + name;
            fs::copy(dir_ + "/whole", dir, fs::copy_options::recursive);
            const std::string shard = dir + "/shard-00000.safetensors";
            const SafetensorsFile f = SafetensorsFile::open(shard);
            std::map<std::string, at::Tensor> t;
            for (const auto& e : f.tensors()) {
                t[e.name] = loadTensor(f, e.name).clone();
            }
            const std::string format = f.meta("format");
            change(t);
            SafetensorsWriter w;
            for (const char* n : {"reps", "weights", "category", "video", "bin", "exemplar"}) {
                if (t.count(n)) {
                    addTensor(w, n, t[n]);
                }
            }
            w.setMetadata("format", format);
            w.write(shard);
            try {
                SketchCache::load(dir);
            } catch (const OnceError& e) {
                return QString::fromStdString(e.where().field);
            }
            return QString();
        };
        QCOMPARE(damage("bad-row", [](auto& t) { t["exemplar"][3][kExemplarRow] = kGridH; }),
                 QStringLiteral("exemplar[3].row"));
        QCOMPARE(damage("bad-grid", [](auto& t) { t["exemplar"][0][kExemplarGridCols] = 5000; }),
                 QStringLiteral("exemplar[0].grid columns"));
        QCOMPARE(damage("bad-frame", [](auto& t) { t["exemplar"][1][kExemplarFrame] = 1000; }),
                 QStringLiteral("exemplar[1].frame"));
        QCOMPARE(damage("missing", [](auto& t) { t.erase("exemplar"); }),
                 QStringLiteral("exemplar"));
    }

    void shardsOfDifferentProvenanceAreNotMerged() {
        const SketchCacheOptions o = smallOptions();
        std::vector<std::string> shards;
        for (int i = 0; i < 2; ++i) {
            SketchCacheOptions s = o;
            s.shard.index = i;
            s.shard.count = 2;
            s.provenance = i == 0;
            shards.push_back(dir_ + "/mixed" + std::to_string(i));
            buildSketchCache(corpus_, shards.back(), s, {}, nullptr);
        }
        try {
            mergeSketchCaches(shards, dir_ + "/mixed-merged");
            QFAIL("merged shards of different provenance");
        } catch (const OnceError& e) {
            QCOMPARE(QString::fromStdString(e.where().field), QStringLiteral("provenance"));
        }
        QVERIFY(!fs::exists(dir_ + "/mixed-merged"));
    }

    void cachesFromBeforeProvenanceLoadResumeAndTrain() {
        // A finished cache as an earlier version wrote it.
        const SketchCacheOptions o = smallOptions();
        buildSketchCache(corpus_, dir_ + "/old", o, {}, nullptr);
        stripProvenance(dir_ + "/old");
        const SketchCache old = SketchCache::load(dir_ + "/old");
        QVERIFY(!old.exemplar.defined());
        const SketchCache current = SketchCache::load(dir_ + "/whole");
        QVERIFY(at::equal(old.reps, current.reps));
        const CodebookExemplarTables t =
            selectCodebookExemplars(old, current.reps.slice(0, 0, 5).to(at::kFloat));
        QCOMPARE(t.perCodeword, 0);
        QVERIFY(!t.exemplars.defined());
        QCOMPARE(t.usage.select(1, 0).sum().item<std::int64_t>(),
                 old.weights.sum().item<std::int64_t>());

        // An unfinished cache without provenance resumes without it: every shard alike.
        SketchCacheOptions before = o;
        before.provenance = false;
        CancelToken token;
        int calls = 0;
        Progress stopper(
            [&](const ProgressEvent&) {
                if (++calls == 4) {
                    token.cancel();
                }
            },
            token);
        QVERIFY_THROWS_EXCEPTION(
            Cancelled, buildSketchCache(corpus_, dir_ + "/resumed-old", before, {}, &stopper));
        const SketchCacheSummary s =
            buildSketchCache(corpus_, dir_ + "/resumed-old", o, {}, nullptr);
        QVERIFY(s.resumed > 0);
        const SketchCache resumed = SketchCache::load(dir_ + "/resumed-old");
        QVERIFY(!resumed.exemplar.defined());
        QVERIFY(at::equal(resumed.reps, current.reps));
        for (const auto& [name, bytes] : test::folderBytes(dir_ + "/resumed-old")) {
            QVERIFY2(bytes.find("exemplar") == std::string::npos, name.c_str());
        }
    }

    void fitRecordsUsageAndExemplars() {
        const SketchCache c = SketchCache::load(dir_ + "/whole");
        const std::int64_t k = 12;
        const FitResult fit = fitCodebook(c, smallFit(k));
        ExemplarOptions eo;
        eo.perCodeword = 3;
        const CodebookExemplarTables t = selectCodebookExemplars(c, fit.codebook, eo);
        const Codebook cb = Codebook::fromTensor(fit.codebook, c.backbone, c.featureSource);
        std::map<std::string, std::string> meta = fit.metadata;
        std::vector<std::pair<std::string, at::Tensor>> tensors;
        t.addTo(meta, tensors);
        const std::string path = dir_ + "/codebook.safetensors";
        saveCodebookFile(cb, path, "F32", meta, tensors);

        const Codebook loaded = Codebook::load(path);  // still picks `codebook`
        QVERIFY(at::equal(loaded.vectors(), cb.vectors()));
        const auto ex = readExemplars(path, k);
        QVERIFY(ex.has_value());
        QCOMPARE(ex->perCodeword, 3);
        QCOMPARE(ex->thumbnailSide, 0);
        // The corpus folder and videos relative to it, inside it.
        QCOMPARE(fs::path(ex->root).lexically_normal(),
                 fs::path(dir_ + "/clips").lexically_normal());
        QVERIFY(!ex->videos.empty());
        for (const auto& v : ex->videos) {
            QVERIFY2(fs::exists(fs::path(ex->root) / v), v.c_str());
        }
        // Usage: every representative counted once, with its source tokens.
        std::int64_t tokens = 0, reps = 0;
        for (const auto& u : ex->usage) {
            tokens += u.tokens;
            reps += u.reps;
            QVERIFY(u.videos <= u.reps && u.reps <= u.tokens);
        }
        QCOMPARE(tokens, c.weights.sum().item<std::int64_t>());
        QCOMPARE(reps, c.reps.size(0));

        // Each exemplar is a representative nearest to its codeword, of highest cosine among
        // the codeword's representatives of its video, and the first ones come from distinct
        // videos.
        const Nearest nn = nearestCentroids(normalizeRows(c.reps), normalizeRows(fit.codebook));
        std::map<std::string, std::int64_t> videoIndex;
        for (std::size_t v = 0; v < c.sources.size(); ++v) {
            videoIndex[fs::path(c.sources[v]).filename().string()] = std::int64_t(v);
        }
        int filled = 0;
        for (std::int64_t code = 0; code < k; ++code) {
            const int n = ex->exemplarCount(code);
            QCOMPARE(n, int(std::min<std::int64_t>(3, ex->usage[std::size_t(code)].reps)));
            std::set<std::int64_t> seen;
            for (int j = 0; j < n; ++j) {
                const CodewordExemplar& e = ex->exemplar(code, j);
                const std::int64_t v =
                    videoIndex.at(fs::path(ex->videos[std::size_t(e.video)]).filename().string());
                at::Tensor match =
                    c.video.eq(v)
                        .logical_and(nn.ids.eq(code))
                        .logical_and(c.exemplar.select(1, kExemplarFrame).eq(e.frame))
                        .logical_and(c.exemplar.select(1, kExemplarRow).eq(e.row))
                        .logical_and(c.exemplar.select(1, kExemplarCol).eq(e.col));
                QVERIFY2(match.any().item<bool>(),
                         qPrintable(QStringLiteral("%1/%2").arg(code).arg(j)));
                QCOMPARE(e.timeMs, 1000 + 500 * e.frame);
                QCOMPARE(e.sourceFrame, 3 * e.frame);
                QCOMPARE(e.gridRows, kGridH);
                if (j < int(ex->usage[std::size_t(code)].videos)) {
                    QVERIFY(seen.insert(v).second);  // distinct videos first
                }
                ++filled;
            }
        }
        QVERIFY(filled > k);
        QVERIFY(!ex->exemplar(0, 0).hasThumbnail);
    }

    // `once train fit` selects the exemplars through the mapped cache (no copy of the whole
    // cache): the tables must be those of the loaded cache bit for bit, for tiles that cross
    // the 50-row shard files or not, and for a cache without provenance.
    void streamedSelectionEqualsLoaded() {
        for (const char* name : {"whole", "old"}) {
            const std::string dir = dir_ + "/" + name;
            const SketchCache loaded = SketchCache::load(dir);
            const CacheReader reader = CacheReader::open(dir);
            for (const std::int64_t k : {1, 12, 40}) {
                at::manual_seed(std::uint64_t(k));
                const at::Tensor codebook = at::randn({k, loaded.reps.size(1)});
                for (const std::int64_t tile : {std::int64_t(1), std::int64_t(7), std::int64_t(50),
                                                std::int64_t(64), kExemplarTileRows}) {
                    for (const int e : {0, 3}) {
                        ExemplarOptions eo;
                        eo.perCodeword = e;
                        eo.tileRows = tile;
                        const CodebookExemplarTables a =
                            selectCodebookExemplars(loaded, codebook, eo);
                        const CodebookExemplarTables b =
                            selectCodebookExemplars(reader, codebook, eo);
                        const QByteArray where = QStringLiteral("%1 K=%2 tile=%3 E=%4")
                                                     .arg(name)
                                                     .arg(k)
                                                     .arg(tile)
                                                     .arg(e)
                                                     .toUtf8();
                        QVERIFY2(at::equal(a.usage, b.usage), where.constData());
                        QCOMPARE(a.perCodeword, b.perCodeword);
                        QCOMPARE(a.exemplars.defined(), b.exemplars.defined());
                        if (a.exemplars.defined()) {
                            QVERIFY2(at::equal(a.exemplars, b.exemplars), where.constData());
                        }
                        QCOMPARE(a.metadataJson(), b.metadataJson());
                        QVERIFY(a.videoSources == b.videoSources);
                    }
                }
            }
        }
        // The tables do not depend on the tile either (nearest codewords of random rows are
        // far from ties), and a tile of no rows is refused naming the option.
        const CacheReader reader = CacheReader::open(dir_ + "/whole");
        at::manual_seed(9);
        const at::Tensor codebook = at::randn({12, reader.dim()});
        ExemplarOptions one;
        one.tileRows = 1;
        QVERIFY(at::equal(selectCodebookExemplars(reader, codebook, one).exemplars,
                          selectCodebookExemplars(reader, codebook).exemplars));
        one.tileRows = 0;
        const OnceError refused =
            test::errorOf([&] { selectCodebookExemplars(reader, codebook, one); });
        QCOMPARE(QString::fromStdString(refused.where().field), QStringLiteral("tileRows"));
        // A codebook of another width is refused the same way from either cache.
        const OnceError wide = test::errorOf([&] {
            selectCodebookExemplars(reader, at::randn({3, 5}));
        });
        QCOMPARE(QString::fromStdString(wide.where().field), QStringLiteral("codebook"));
    }

    void codebooksWithoutExemplarsStillLoad() {
        const std::string path = dir_ + "/plain.safetensors";
        Codebook::fromTensor(at::randn({5, 16}), "demo").save(path);
        QVERIFY(!readExemplars(path, 5).has_value());
        QCOMPARE(Codebook::load(path).size(), std::int64_t(5));
    }

    void damagedExemplarSectionsAreRefusedNamingTheField() {
        const std::string good = dir_ + "/codebook.safetensors";
        const std::int64_t k = 12;
        struct Case {
            std::string name;
            std::function<void(std::map<std::string, std::string>&,
                               std::map<std::string, at::Tensor>&)>
                change;
            std::string field;
        };
        auto metaJson = [](std::map<std::string, std::string>& m) {
            return nlohmann::json::parse(m.at(kCodebookExemplarsKey));
        };
        // A codeword with two exemplars (and representatives to spare) to damage.
        const auto ex = readExemplars(good, k);
        QVERIFY(ex.has_value());
        std::int64_t w = 0;
        while (w < k && ex->exemplarCount(w) < 2) {
            ++w;
        }
        QVERIFY(w < k);
        const std::string slot0 = "exemplars[" + std::to_string(w) + "][0].";
        const std::string slot1 = "exemplars[" + std::to_string(w) + "][1].";
        const std::vector<Case> cases = {
            {"video out of range",
             [&](auto&, auto& t) { t["exemplars"][w][0][kCbExemplarVideo] = 99999; },
             slot0 + "video"},
            {"cell outside its grid",
             [&](auto&, auto& t) { t["exemplars"][w][0][kCbExemplarRow] = kGridH; }, slot0 + "row"},
            {"filled slot after an empty one",
             [&](auto&, auto& t) { t["exemplars"][w][0][kCbExemplarVideo] = -1; }, slot1 + "video"},
            {"a path leaving the corpus folder",
             [&](auto& m, auto&) {
                 auto j = metaJson(m);
                 j["videos"][0] = "../../etc/passwd";
                 m[kCodebookExemplarsKey] = j.dump();
             },
             "__metadata__.corpus_exemplars.videos[0]"},
            {"too many exemplars per codeword",
             [&](auto& m, auto&) {
                 auto j = metaJson(m);
                 j["per_codeword"] = 65;
                 m[kCodebookExemplarsKey] = j.dump();
             },
             "__metadata__.corpus_exemplars.per_codeword"},
            {"metadata that is not JSON",
             [](auto& m, auto&) { m[kCodebookExemplarsKey] = "{not json"; },
             "__metadata__.corpus_exemplars"},
            {"impossible usage",
             [&](auto&, auto& t) { t["corpus_usage"][w][2] = t["corpus_usage"][w][1] + 1; },
             "corpus_usage[" + std::to_string(w) + "]"},
            {"usage of the wrong shape",
             [](auto&, auto& t) { t["corpus_usage"] = t["corpus_usage"].slice(0, 0, 3); },
             "corpus_usage"},
            {"thumbnail flag without thumbnails",
             [&](auto&, auto& t) { t["exemplars"][w][0][kCbExemplarThumbnail] = 1; },
             slot0 + "thumbnail"},
            {"tensors without metadata", [](auto& m, auto&) { m.erase(kCodebookExemplarsKey); },
             "__metadata__.corpus_exemplars"},
        };
        for (const Case& c : cases) {
            const std::string path = rewrite(good, dir_ + "/damaged.safetensors", c.change);
            try {
                readExemplars(path, k);
                QFAIL(c.name.c_str());
            } catch (const OnceError& e) {
                QVERIFY2(e.where().field == c.field,
                         qPrintable(QString::fromStdString(c.name + ": " + e.what())));
                QCOMPARE(QString::fromStdString(e.where().file), QString::fromStdString(path));
            }
            // The codebook itself still loads: only the explorer's section is damaged.
            QCOMPARE(Codebook::load(path).size(), k);
        }
        QVERIFY(refusal(good, k).isEmpty());
    }

    void framesAndThumbnailsComeFromTheVideo() {
        const std::string clip = test::sourcePath("resources/demo/demo.mp4");
        if (!fs::exists(clip)) {
            QFAIL(
                "the demo clip is not in this checkout (committed, or installed by "
                "scripts/setup.sh: a broken checkout or set-up fails, it does not skip)");
        }
        // readFramesAt returns the frames readFrames samples, by number.
        SamplingRule rule;
        rule.count = 5;
        const SampledFrames sampled = readFrames(clip, rule);
        const std::vector<std::int64_t> pick = {sampled.indices[1], sampled.indices[3]};
        const SampledFrames at2 = readFramesAt(clip, pick);
        QVERIFY(at::equal(at2.rgb[0], sampled.rgb[1]));
        QVERIFY(at::equal(at2.rgb[1], sampled.rgb[3]));
        QVERIFY_THROWS_EXCEPTION(OnceError, readFramesAt(clip, {pick[1], pick[0]}));

        // The CLI end to end: sketch the clip with the demo encoder, fit with thumbnails.
        const std::string dir = test::tempDir();
        writeFileAtomically(dir + "/corpus.jsonl", "{\"video\": \"" + clip + "\"}\n");
        auto r = test::runCli({"train", "sketch", "--manifest",
                               QString::fromStdString(dir + "/corpus.jsonl"), "-o",
                               QString::fromStdString(dir + "/cache"), "--sampling", "uniform:6",
                               "--R", "64", "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = test::runCli({"train",
                          "fit",
                          "--cache",
                          QString::fromStdString(dir + "/cache"),
                          "-o",
                          QString::fromStdString(dir + "/cb.safetensors"),
                          "--K",
                          "6",
                          "--candidates",
                          "100",
                          "--batch",
                          "64",
                          "--epochs",
                          "1",
                          "--diagnostics-bootstrap",
                          "0",
                          "--exemplars",
                          "2",
                          "--exemplar-thumbnails",
                          "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["exemplars_per_codeword"].get<int>(), 2);
        QCOMPARE(j["exemplar_thumbnails_missing"].get<int>(), 0);
        const SafetensorsFile f = SafetensorsFile::open(dir + "/cb.safetensors");
        const auto ex = parseCodebookExemplars(f.header(), f.image(), 6, f.path());
        QVERIFY(ex && ex->thumbnailSide == kDefaultExemplarThumbnailSide);
        QCOMPARE(ex->thumbnailContext, kDefaultExemplarContext);
        QCOMPARE(ex->videos, std::vector<std::string>{"demo.mp4"});
        const VideoInfo info = probeVideo(clip);
        int checked = 0;
        for (std::int64_t code = 0; code < 6; ++code) {
            for (int e = 0; e < ex->exemplarCount(code); ++e) {
                const CodewordExemplar& x = ex->exemplar(code, e);
                QVERIFY(x.hasThumbnail && x.sourceFrame >= 0);
                // The thumbnail's mean colour is the mean colour of the cell and its neighbours
                // (3 × 3 cells, shifted inside the frame at its edges) in the frame.
                const SampledFrames fr = readFramesAt(clip, {x.sourceFrame});
                const std::int64_t h = info.height, w = info.width;
                const auto [r0, rn] = exemplarContextWindow(x.row, x.gridRows, 1);
                const auto [c0, cn] = exemplarContextWindow(x.col, x.gridCols, 1);
                QCOMPARE(rn, std::min(3, int(x.gridRows)));
                QVERIFY(r0 <= x.row && x.row < r0 + rn && c0 <= x.col && x.col < c0 + cn);
                const at::Tensor cell =
                    fr.rgb[0]
                        .slice(0, r0 * h / x.gridRows, (r0 + rn) * h / x.gridRows)
                        .slice(1, c0 * w / x.gridCols, (c0 + cn) * w / x.gridCols)
                        .to(at::kFloat)
                        .mean({0, 1});
                const auto bytes = ex->thumbnail(f.image(), code, e);
                QCOMPARE(bytes.size(), std::size_t(32 * 32 * 3));
                const at::Tensor thumb =
                    at::from_blob(const_cast<std::uint8_t*>(bytes.data()), {32, 32, 3}, at::kByte)
                        .to(at::kFloat)
                        .mean({0, 1});
                QVERIFY2((thumb - cell).abs().max().item<float>() < 8.f,
                         qPrintable(QStringLiteral("codeword %1 exemplar %2").arg(code).arg(e)));
                QCOMPARE(x.timeMs, int(std::llround(fr.times[0] * 1000)));
                ++checked;
            }
        }
        QVERIFY(checked >= 6);
    }
};

QTEST_GUILESS_MAIN(TestProvenance)
#include "test_provenance.moc"
