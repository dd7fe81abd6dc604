// ForestPrune (core/compress/baselines/forestprune.cpp): its defining properties on a video whose
// frames repeat (every later token joins the first frame's trees, so the roots are the first
// frame's kept tokens), its budget range and parameter checks, and parity with the independent
// PyTorch port of the public code (tests/reference/forestprune_reference.py) on clustered
// synthetic videos and on features of a real clip (demo encoder, 14 × 14 grid).
#include <ATen/ATen.h>

#include <QtTest>

#include "compress/token_compressor.h"
#include "encode/decode_encode.h"
#include "features/feature_file.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "models/visual_encoder.h"
#include "support/models_fixture.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;

namespace {

std::unique_ptr<TokenCompressor> make(CompressorParams params = {}) {
    return makeCompressor({"forestprune", std::move(params), nullptr, {}, nullptr});
}

/// Kept tokens per frame of a result.
std::vector<std::int64_t> keptPerFrame(const CompressionResult& r, std::int64_t frames) {
    at::Tensor kept = (r.groupOfToken.view({frames, -1}) >= 0).sum(1);
    return {kept.data_ptr<std::int64_t>(), kept.data_ptr<std::int64_t>() + frames};
}

/// Compares every budget of `name` in the reference file with `c` (prepared on its video).
int compareCase(TokenCompressor& c, SafetensorsFile& file, const std::string& name) {
    at::Tensor budgets = loadTensor(file, name + "/budgets");
    int checked = 0;
    for (std::int64_t i = 0; i < budgets.size(0); ++i) {
        const std::int64_t b = budgets[i].item<std::int64_t>();
        const std::string key = name + "/" + std::to_string(b) + "/";
        const CompressionResult r = c.compress(b);
        const QByteArray where = QByteArray::fromStdString(key);
        if (!at::equal(r.groupOfToken, loadTensor(file, key + "group_of_token"))) {
            qWarning("%s: kept %lld tokens", where.constData(),
                     static_cast<long long>(r.numOutputs));
            return -1;
        }
        const at::Tensor expected = loadTensor(file, key + "tokens");
        if (r.tokens.sizes() != expected.sizes() ||
            (r.numOutputs > 0 && test::maxAbsDiff(r.tokens, expected) > 1e-6)) {
            qWarning("%s: tokens differ", where.constData());
            return -1;
        }
        ++checked;
    }
    return checked;
}

/// Whether the reference's budgets of `name` cover both selections: merging roots (more roots
/// than K) and keeping shallow nodes after all roots (fewer), on trees deeper than one link.
bool coversBothSelections(SafetensorsFile& file, const std::string& name) {
    at::Tensor budgets = loadTensor(file, name + "/budgets");
    bool merges = false, shallow = false, deep = false;
    for (std::int64_t i = 0; i < budgets.size(0); ++i) {
        const at::Tensor f =
            loadTensor(file, name + "/" + std::to_string(budgets[i].item<std::int64_t>()) +
                                 "/forest");  // roots, K, deepest node
        merges |= f[0].item<std::int64_t>() > f[1].item<std::int64_t>();
        shallow |= f[0].item<std::int64_t>() < f[1].item<std::int64_t>();
        deep |= f[2].item<std::int64_t>() >= 2;
    }
    return merges && shallow && deep;
}

}  // namespace

class TestForestPrune : public QObject {
    Q_OBJECT
  private slots:
    void registeredWithThePublicDefaults() {
        const CompressorInfo& info = compressorInfo("forestprune");
        QCOMPARE(info.title, std::string("ForestPrune"));
        QVERIFY(!info.needsCodebook);
        QCOMPARE(info.defaults.at("tau"), std::string("0.9"));
        QCOMPARE(info.defaults.at("tau_spatial"), std::string("0.8"));
        QCOMPARE(info.defaults.at("gprune_ratio"), std::string("0.5"));
        QCOMPARE(info.defaults.at("temperature"), std::string("0.03"));
        QCOMPARE(info.defaults.at("iterate_num"), std::string("5"));
        // The graph pruner keeps round(P/2) per frame; a larger budget changes nothing.
        const BudgetRange range = budgetRange("forestprune", {32, 196, 14, 14, 0});
        QCOMPARE(range.min, std::int64_t(1));
        QCOMPARE(range.max, std::int64_t(32 * 98));
        // 729 tokens keep round(364.5) = 364 (halves to even); K = round(1456·B / 1458) reaches
        // every kept node only at B = 1458.
        QCOMPARE(budgetRange("forestprune", {4, 729, 27, 27, 0}).max, std::int64_t(4 * 364 + 2));
        QCOMPARE(budgetRange("forestprune", {4, 10, 2, 5, 0}, {{"gprune_ratio", "0.7"}}).max,
                 std::int64_t(4 * 7));
    }

    void repeatedFramesGrowTreesFromTheFirstFrame() {
        // Three identical frames: every kept token of frames 1 and 2 joins the tree of the same
        // position in frame 0, so the 8 roots are frame 0's kept tokens, then depth 1 = frame 1.
        at::manual_seed(3);
        at::Tensor frame = at::randn({16, 8});
        EncodedVideo v(frame.unsqueeze(0).repeat({3, 1, 1}));
        v.gridH = v.gridW = 4;
        auto c = make();
        c->prepare(v);
        QCOMPARE(keptPerFrame(c->compress(8), 3), (std::vector<std::int64_t>{8, 0, 0}));
        QCOMPARE(keptPerFrame(c->compress(16), 3), (std::vector<std::int64_t>{8, 8, 0}));
        QCOMPARE(keptPerFrame(c->compress(20), 3), (std::vector<std::int64_t>{8, 8, 4}));
        QCOMPARE(keptPerFrame(c->compress(100), 3), (std::vector<std::int64_t>{8, 8, 8}));
        // Fewer slots than roots: roots merge into earlier roots; the survivors stay in frame 0.
        const CompressionResult r = c->compress(3);
        QCOMPARE(keptPerFrame(r, 3), (std::vector<std::int64_t>{3, 0, 0}));
        // Every frame keeps the same positions, and kept tokens are the source tokens.
        at::Tensor g = c->compress(24).groupOfToken.view({3, 16}) >= 0;
        QVERIFY(at::equal(g[0], g[1]) && at::equal(g[0], g[2]));
        at::Tensor rows = c->compress(24).tokens;
        QVERIFY(at::allclose(rows.slice(0, 0, 8), frame.index_select(0, g[0].nonzero().view(-1))));
    }

    void outputIsInSourceOrderAndWithinBudget() {
        at::manual_seed(4);
        EncodedVideo v(at::randn({5, 12, 6}));
        v.gridH = 3;
        v.gridW = 4;
        auto c = make({{"tau", "0.2"}});
        c->prepare(v);
        for (std::int64_t b = 1; b <= 60; ++b) {
            const CompressionResult r = c->compress(b);
            QVERIFY(r.numOutputs <= std::min<std::int64_t>(b, 30));
            at::Tensor kept = r.groupOfToken.masked_select(r.groupOfToken >= 0);
            QVERIFY(at::equal(kept, at::arange(r.numOutputs, at::kLong)));
        }
        QCOMPARE(c->compress(60).numOutputs, std::int64_t(30));
    }

    void badParametersAreErrors() {
        for (const auto& [key, value] :
             std::vector<std::pair<std::string, std::string>>{{"gprune_ratio", "0"},
                                                              {"gprune_ratio", "1.5"},
                                                              {"temperature", "0"},
                                                              {"iterate_num", "-1"},
                                                              {"frame_divisor", "0"},
                                                              {"tau", "high"},
                                                              {"depth", "1"}}) {
            const OnceError e = test::errorOf([&] { make({{key, value}}); });
            QVERIFY2(QString::fromStdString(e.what()).contains("forestprune"), e.what());
        }
    }

    void matchesReferenceOnClusteredVideos() {
        const std::string path = test::tempDir() + "/forestprune.safetensors";
        auto run = test::runPython("forestprune_reference.py", {QString::fromStdString(path)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        auto file = SafetensorsFile::open(path);
        struct Case {
            std::string name, video;
            CompressorParams params;
        };
        const std::vector<Case> cases = {
            {"default", "a", {}},
            {"videomme", "a", {{"tau", "0.8"}, {"tau_spatial", "0.5"}}},
            {"default-b", "b", {}},
            {"ratio-0.7", "b", {{"gprune_ratio", "0.7"}, {"iterate_num", "3"}}},
            {"loose", "c", {{"tau", "0.5"}, {"similarity", "0.3"}, {"temperature", "0.1"}}},
        };
        int checked = 0;
        for (const Case& k : cases) {
            EncodedVideo v(loadTensor(file, "video_" + k.video).clone());
            at::Tensor grid = loadTensor(file, "grid_" + k.video);
            v.gridH = int(grid[0].item<std::int64_t>());
            v.gridW = int(grid[1].item<std::int64_t>());
            auto c = make(k.params);
            c->prepare(v);
            const int n = compareCase(*c, file, k.name);
            QVERIFY2(n > 0, k.name.c_str());
            QVERIFY2(coversBothSelections(file, k.name), k.name.c_str());
            checked += n;
        }
        QCOMPARE(checked, 5 * 12);
    }

    void matchesReferenceOnARealClip() {
        // 16 frames of a real H.264 clip through the demo encoder, pooled to 14 × 14 like
        // LLaVA-OneVision's video tokens: static background gives deep trees.
        EncoderOptions eo;
        eo.poolStride = 2;
        auto encoder = makeVisualEncoder("demo", eo);
        DecodeEncodeOptions de;
        de.sampling = SamplingRule::parse("uniform:16");
        const EncodedVideo video = decodeAndEncode(test::kRealClip, *encoder, de).video;
        QCOMPARE(video.features.size(1), std::int64_t(196));
        const std::string dir = test::tempDir();
        saveFeatureFile(video, dir + "/clip.safetensors");
        const QString budgets = "1,16,64,128,196,313,512,784,1568";
        auto run = test::runPython(
            "forestprune_reference.py",
            {QString::fromStdString(dir + "/ref.safetensors"), "--features",
             QString::fromStdString(dir + "/clip.safetensors"), "--budgets", budgets});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        auto file = SafetensorsFile::open(dir + "/ref.safetensors");
        auto c = make();
        c->prepare(loadFeatureFile(dir + "/clip.safetensors"));
        QCOMPARE(compareCase(*c, file, "real"), int(budgets.split(',').size()));
        QVERIFY(coversBothSelections(file, "real"));
        // The deepest cut keeps only roots of the forest: one token at B = 1.
        QCOMPARE(c->compress(1).numOutputs, std::int64_t(1));
    }
};

QTEST_GUILESS_MAIN(TestForestPrune)
#include "test_forestprune.moc"
