// The diagnostics stream a Stage-A cache a tile at a time (issue 18: the paper's cache is
// 33 GiB): read through CacheReader, with any tile size, they are the same bytes as with the
// cache loaded whole, including the random-exemplar codebooks (gathered rows) and on both of
// nearestCentroids' paths (the tiled GEMM for few centroids, the assignment kernel for many);
// the fit's stored metadata is the same from either. Malformed sets are refused.
#include <ATen/ATen.h>

#include <QtTest>
#include <filesystem>

#include "analysis/diagnostics.h"
#include "support/test_support.h"
#include "train/cache_reader.h"
#include "train/codebook_metadata.h"
#include "train/sketch_cache.h"
#include "train/stage_b.h"
#include "util/error.h"

using namespace once;

class TestDiagnosticsStreaming : public QObject {
    Q_OBJECT
    std::string cache_;

  private slots:
    void initTestCase() {
        // 20 videos × 256 representatives = 5,120 rows over 6 shard files of 1,000:
        // several tiles of every inner tile size used below (1,024 … 8,192 rows).
        const std::string dir = test::tempDir();
        std::vector<CorpusEntry> corpus;
        for (int i = 0; i < 20; ++i) {
            at::manual_seed(300 + std::uint64_t(i));
            const std::int64_t frames = 40 + i % 5, d = 256;
            const at::Tensor centres = at::randn({24, d});
            const at::Tensor x =
                (centres.index_select(0, at::randint(24, {frames * 30}, at::kLong)) +
                 0.5 * at::randn({frames * 30, d}))
                    .reshape({frames, 30, d});
            const std::string path = dir + "/v" + std::to_string(i) + ".safetensors";
            test::writeFeatureFile(x, path, 0.5, "video" + std::to_string(i));
            corpus.push_back({path, i % 3 ? "b" : "a"});
        }
        SketchCacheOptions o;
        o.sketch.mMin = 256;
        o.sketch.mMax = 256;
        o.shardRows = 1000;
        cache_ = dir + "/cache";
        buildSketchCache(corpus, cache_, o, {}, nullptr);
    }

    void streamedEqualsLoaded() {
        const SketchCache whole = SketchCache::load(cache_);
        const CacheReader reader = CacheReader::open(cache_);
        QCOMPARE(reader.rows(), std::int64_t(5120));
        QVERIFY(reader.shardCount() > 1);
        DiagnosticsOptions o;
        o.bootstrap = 100;
        o.randomCodebooks = 2;
        // K = 40: the tiled F32 GEMM (inner tiles of 8,192); K = 300: inner tiles of 3,495, not
        // a divisor of the default tile; K = 600 at D = 256: the assignment kernel (2,048).
        for (std::int64_t k : {40, 300, 600}) {
            at::manual_seed(k);
            const at::Tensor codebook = at::randn({k, 256});
            const std::string want = diagnoseCodebook(codebook, cacheTokenSet(whole), o).toJson();
            for (std::int64_t tile : {std::int64_t(1), std::int64_t(2500), kDiagnosticsTileRows,
                                      std::int64_t(1) << 40}) {
                const std::string got =
                    diagnoseCodebook(codebook, cacheTokenSet(reader), o, nullptr, tile).toJson();
                QVERIFY2(got == want, qPrintable(QStringLiteral("K %1, tile %2").arg(k).arg(tile)));
                QCOMPARE(
                    diagnoseCodebook(codebook, cacheTokenSet(whole), o, nullptr, tile).toJson(),
                    want);
            }
            QVERIFY(want.find("random_exemplar") != std::string::npos);
        }
        // The stored metadata of a fit: the same map from the mapped cache as from the loaded one.
        FitResult fit;
        at::manual_seed(7);
        fit.codebook = at::randn({32, 256});
        fit.dataSha256 = "0123";
        fit.metadata["method"] = "test";
        CodebookMetadataOptions mo;
        mo.bootstrap = 50;
        mo.randomCodebooks = 1;
        QCOMPARE(trainedCodebookMetadata(reader, fit, mo), trainedCodebookMetadata(whole, fit, mo));
    }

    void malformedSetsAreRefused() {
        const at::Tensor codebook = at::randn({8, 256});
        TokenSet none;  // neither rows nor a reader
        QVERIFY_THROWS_EXCEPTION(OnceError, diagnoseCodebook(codebook, none));
        const CacheReader reader = CacheReader::open(cache_);
        TokenSet t = cacheTokenSet(reader);
        t.weights = t.weights.narrow(0, 0, 10);  // fewer weights than rows
        QVERIFY_THROWS_EXCEPTION(OnceError, diagnoseCodebook(codebook, t));
        TokenSet v = cacheTokenSet(reader);
        v.video = v.video.clone();
        v.video[3] = v.numVideos;  // a video index past the last video
        QVERIFY_THROWS_EXCEPTION(OnceError, diagnoseCodebook(codebook, v));
        TokenSet s = cacheTokenSet(reader);
        s.readRows = [](std::int64_t b, std::int64_t e) { return at::zeros({e - b, 12}); };
        QVERIFY_THROWS_EXCEPTION(OnceError, diagnoseCodebook(codebook, s));
    }
};

QTEST_GUILESS_MAIN(TestDiagnosticsStreaming)
#include "test_diagnostics_streaming.moc"
