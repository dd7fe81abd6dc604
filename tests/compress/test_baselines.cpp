// The peer baselines of core/compress/baselines/: for every method the interface invariants
// (M <= budget for every budget, groupOfToken a consistent partition of the kept tokens,
// determinism per seed), each method's defining property on small hand-checkable inputs, bad
// inputs as OnceErrors, and parity with the independent NumPy ports of
// tests/reference/baselines_reference.py.
#include <ATen/ATen.h>

#include <QtTest>

#include "compress/token_compressor.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;

namespace {

const std::vector<std::string> kMethods = {"fastvid",      "visionzip",  "dycoke",
                                           "tome",         "vqtoken",    "spatial-pool",
                                           "frame-drop",   "forestprune"};

EncodedVideo makeVideo(std::int64_t t, std::int64_t h, std::int64_t w, std::int64_t d,
                       std::uint64_t seed) {
    at::manual_seed(seed);
    EncodedVideo v(at::randn({t, h * w, d}));
    v.gridH = int(h);
    v.gridW = int(w);
    return v;
}

std::unique_ptr<TokenCompressor> make(const std::string& method, CompressorParams params = {}) {
    return makeCompressor({method, std::move(params), nullptr, {}, nullptr});
}

/// The checks every result must pass; returns an empty string or what failed.
std::string checkResult(const CompressionResult& r, std::int64_t n, std::int64_t d,
                        std::int64_t budget) {
    const std::int64_t m = r.numOutputs;
    if (m > budget || m != r.tokens.size(0) || r.tokens.size(1) != d) {
        return "M > budget or token shape";
    }
    if (r.groupOfToken.numel() != n || r.numTokens != n || r.groupSizes.numel() != m) {
        return "result sizes";
    }
    if ((r.groupOfToken < -1).any().item<bool>() || (r.groupOfToken >= m).any().item<bool>()) {
        return "group index out of range";
    }
    at::Tensor kept = r.groupOfToken.masked_select(r.groupOfToken >= 0);
    if (!at::equal(at::bincount(kept, {}, m), r.groupSizes)) {
        return "groupSizes disagree with groupOfToken";
    }
    if (m > 0 && (r.groupSizes < 1).any().item<bool>()) {
        return "an output without source tokens";
    }
    if (std::abs(r.coverage - double(kept.numel()) / double(n)) > 1e-12) {
        return "coverage";
    }
    if (!at::isfinite(r.tokens).all().item<bool>()) {
        return "non-finite tokens";
    }
    return {};
}

}  // namespace

class TestBaselines : public QObject {
    Q_OBJECT
  private slots:
    void everyMethodIsRegistered() {
        for (const auto& name : kMethods) {
            const CompressorInfo& info = compressorInfo(name);
            QVERIFY2(!info.summary.empty() && !info.source.empty(), name.c_str());
            QVERIFY(!info.needsCodebook);
            QCOMPARE(make(name)->method(), name);
        }
        QCOMPARE(compressorInfo("tome").defaults.at("r"), std::string("0"));
        QCOMPARE(compressorInfo("fastvid").defaults.at("DTM_alpha"), std::string("0.6"));
        QCOMPARE(compressorInfo("vqtoken").defaults.at("k_max"), std::string("32"));
    }

    void invariantsForEveryBudget_data() {
        QTest::addColumn<QString>("method");
        for (const auto& name : kMethods) {
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
        }
    }
    void invariantsForEveryBudget() {
        QFETCH(QString, method);
        const std::string name = method.toStdString();
        EncodedVideo v = makeVideo(5, 3, 4, 8, 11);
        const std::int64_t n = 5 * 12;
        auto c = make(name);
        c->prepare(v);
        for (std::int64_t b = 1; b <= n + 3; ++b) {
            CompressionResult r = c->compress(b, 3);
            const std::string problem = checkResult(r, n, 8, b);
            QVERIFY2(problem.empty(), qPrintable(method + " budget " + QString::number(b) + ": " +
                                                 QString::fromStdString(problem)));
            CompressionResult again = c->compress(b, 3);
            QVERIFY(at::equal(r.tokens, again.tokens));
            QVERIFY(at::equal(r.groupOfToken, again.groupOfToken));
        }
        // The whole budget keeps every token.
        // fastvid drops tokens where its anchor count is capped; forestprune's graph pruner keeps
        // half of each frame.
        if (name != "fastvid" && name != "forestprune") {
            QCOMPARE(c->compress(n).coverage, 1.0);
        }
    }

    void mergingMethodsCoverEveryToken() {
        EncodedVideo v = makeVideo(4, 3, 3, 6, 5);
        for (const char* name : {"tome", "vqtoken", "spatial-pool"}) {
            auto c = make(name);
            c->prepare(v);
            for (std::int64_t b : {4, 9, 17, 30}) {
                QCOMPARE(c->compress(b).coverage, 1.0);
            }
        }
    }

    void spatialPoolExact() {
        // T = 2, 2 × 3 grid, D = 1: budget 4 needs stride 2 (2 × 1 × 2 blocks).
        at::Tensor x = at::arange(12, at::kFloat).view({2, 6, 1});
        EncodedVideo v(x);
        v.gridH = 2;
        v.gridW = 3;
        auto c = make("spatial-pool");
        c->prepare(v);
        CompressionResult r = c->compress(4);
        // frame 0: cells (0,1,3,4) → 2, cells (2,5) → 3.5; frame 1: +6.
        QVERIFY(at::allclose(r.tokens.view({-1}), at::tensor({2.0f, 3.5f, 8.0f, 9.5f})));
        QVERIFY(
            at::equal(r.groupOfToken, at::tensor({0, 0, 1, 0, 0, 1, 2, 2, 3, 2, 2, 3}, at::kLong)));
        QCOMPARE(c->compress(12).numOutputs, std::int64_t(12));  // stride 1
        QCOMPARE(c->compress(11).numOutputs, std::int64_t(4));
        QCOMPARE(c->compress(2).numOutputs, std::int64_t(2));  // one block per frame
        QCOMPARE(c->compress(1).numOutputs, std::int64_t(0));  // below T
    }

    void frameDropExact() {
        at::Tensor x = at::arange(10, at::kFloat).view({5, 2, 1});
        auto c = make("frame-drop");
        c->prepare(EncodedVideo(x));
        CompressionResult r = c->compress(7);  // 3 frames at linspace(0, 4, 3) = 0, 2, 4
        QVERIFY(at::equal(r.tokens.view({-1}), at::tensor({0.f, 1.f, 4.f, 5.f, 8.f, 9.f})));
        QVERIFY(
            at::equal(r.groupOfToken, at::tensor({0, 1, -1, -1, 2, 3, -1, -1, 4, 5}, at::kLong)));
        // 2 frames of 5: linspace(0, 4, 2) = 0, 4; 4 frames: round(0, 1.33, 2.67, 4) = 0, 1, 3, 4.
        at::Tensor g2 = c->compress(4).groupOfToken;
        QVERIFY(at::equal(g2, at::tensor({0, 1, -1, -1, -1, -1, -1, -1, 2, 3}, at::kLong)));
        at::Tensor g4 = c->compress(8).groupOfToken;
        QVERIFY(at::equal(g4, at::tensor({0, 1, 2, 3, -1, -1, 4, 5, 6, 7}, at::kLong)));
        QCOMPARE(c->compress(1).numOutputs, std::int64_t(0));
    }

    void tomeMergesBySizeWeightedMean() {
        EncodedVideo v = makeVideo(3, 4, 4, 5, 21);
        const at::Tensor flat = v.features.view({-1, 5}).to(at::kDouble);
        for (std::int64_t r : {1, 4, 16}) {
            auto c = make("tome", {{"r", std::to_string(r)}});
            c->prepare(v);
            for (std::int64_t b : {1, 2, 7, 20, 47}) {
                CompressionResult res = c->compress(b);
                QCOMPARE(res.numOutputs, b);
                // Each output is exactly the plain mean of its source tokens, however many
                // rounds built it.
                for (std::int64_t o = 0; o < res.numOutputs; ++o) {
                    at::Tensor members =
                        flat.index_select(0, (res.groupOfToken == o).nonzero().view({-1}));
                    QVERIFY(
                        at::allclose(res.tokens[o].to(at::kDouble), members.mean(0), 1e-5, 1e-5));
                }
            }
        }
        // One round on 4 tokens with r = 1: the most similar (A, B) pair merges.
        at::Tensor x = at::tensor({1.f, 0.f, 0.f, 1.f, 1.f, 0.1f, -1.f, 0.f}).view({1, 4, 2});
        auto c = make("tome", {{"r", "1"}});
        c->prepare(EncodedVideo(x));
        CompressionResult res = c->compress(3);
        // A = {0, 2}, B = {1, 3}; token 2 (1, 0.1) is closest to... B: (0,1) and (−1,0): cos
        // 0.0995 vs −0.995; token 0 (1,0) scores 0 vs −1. Token 2 merges into token 1.
        // New order: unmerged A (token 0), then B (1+2 merged, 3).
        QVERIFY(at::equal(res.groupOfToken, at::tensor({0, 1, 1, 2}, at::kLong)));
        QVERIFY(at::allclose(res.tokens[1], at::tensor({0.5f, 0.55f})));
    }

    void dycokeKeepsFrameIWhole() {
        // T = 8: whole frames 0, 4 and 6 (the second pass stops before T − 4), pruned 1, 2, 3,
        // 5, 7; budget 3P + 5·2 keeps 2 tokens of each pruned frame.
        const std::int64_t p = 6;
        EncodedVideo v = makeVideo(8, 2, 3, 4, 9);
        auto c = make("dycoke");
        c->prepare(v);
        CompressionResult r = c->compress(3 * p + 10);
        QCOMPARE(r.numOutputs, 3 * p + 10);
        at::Tensor kept = (r.groupOfToken.view({8, p}) >= 0).sum(1);
        QVERIFY(at::equal(kept, at::tensor({6, 2, 2, 2, 6, 2, 6, 2}, at::kLong)));
        // Frame 1 keeps its 2 tokens least similar to frame 0 (same position); frame 2 is
        // compared with frame 0 too, frame 3 with frame 2.
        auto leastSimilar = [&](int f, int ref) {
            at::Tensor s = at::cosine_similarity(v.features[f], v.features[ref], 1);
            return std::get<0>(std::get<1>(s.topk(2, 0, /*largest=*/false)).sort());
        };
        auto keptAt = [&](int f) {
            return (r.groupOfToken.view({8, p})[f] >= 0).nonzero().view({-1});
        };
        QVERIFY(at::equal(keptAt(1), leastSimilar(1, 0)));
        QVERIFY(at::equal(keptAt(2), leastSimilar(2, 0)));
        QVERIFY(at::equal(keptAt(3), leastSimilar(3, 2)));
        // Kept tokens are the source tokens themselves.
        QVERIFY(at::allclose(r.tokens.slice(0, 0, p), v.features[0]));
        // Below the whole frames' size: whole frames only, by linspace over {0, 4, 6}.
        at::Tensor low = (c->compress(2 * p).groupOfToken.view({8, p}) >= 0).sum(1);
        QVERIFY(at::equal(low, at::tensor({6, 0, 0, 0, 0, 0, 6, 0}, at::kLong)));
        QCOMPARE(c->compress(p - 1).numOutputs, std::int64_t(0));
    }

    void attentionPicksSalientTokens() {
        // With attention given, the top-attention tokens of each frame are kept as they are.
        EncodedVideo v = makeVideo(4, 4, 4, 8, 13);
        v.attention = at::rand({4, 16});
        for (const std::string& name : std::vector<std::string>{"fastvid", "visionzip"}) {
            auto c = make(name);
            c->prepare(v);
            CompressionResult r = c->compress(4 * 5);  // R = 5 per frame
            // fastvid: Ns = 5 − int(2.0) = 3; visionzip: ctx = 5·10/64 = 0, dom = 5.
            const std::int64_t salient = name == "fastvid" ? 3 : 5;
            for (std::int64_t t = 0; t < 4; ++t) {
                at::Tensor topIdx = std::get<1>(v.attention[t].topk(salient));
                for (std::int64_t i = 0; i < salient; ++i) {
                    const std::int64_t src = t * 16 + topIdx[i].item<std::int64_t>();
                    const std::int64_t o = r.groupOfToken[src].item<std::int64_t>();
                    QVERIFY(o >= 0);
                    QCOMPARE(r.groupSizes[o].item<std::int64_t>(), std::int64_t(1));
                    QVERIFY(at::allclose(r.tokens[o], v.features.view({-1, 8})[src]));
                }
            }
        }
    }

    void seedChangesOnlyRandomMethods() {
        EncodedVideo v = makeVideo(3, 4, 4, 8, 17);
        auto c = make("vqtoken");
        c->prepare(v);
        bool differs = false;
        for (std::uint64_t s = 0; s < 4; ++s) {
            differs |=
                !at::equal(c->compress(12, s).groupOfToken, c->compress(12, 99).groupOfToken);
        }
        QVERIFY(differs);
        auto d = make("dycoke");
        d->prepare(v);
        QVERIFY(at::equal(d->compress(20, 1).groupOfToken, d->compress(20, 2).groupOfToken));
    }

    void badInputsAreErrors() {
        for (const auto& name : kMethods) {
            auto c = make(name);
            QVERIFY_THROWS_EXCEPTION(OnceError, c->compress(4));  // before prepare
            QVERIFY_THROWS_EXCEPTION(OnceError, c->prepare(EncodedVideo(at::randn({6, 4}))));
            QVERIFY_THROWS_EXCEPTION(OnceError, c->prepare(EncodedVideo(at::randn({0, 4, 4}))));
            QVERIFY_THROWS_EXCEPTION(OnceError,
                                     c->prepare(EncodedVideo(at::ones({2, 4, 4}, at::kLong))));
            EncodedVideo badAttention = makeVideo(2, 2, 2, 3, 1);
            badAttention.attention = at::rand({2, 5});
            QVERIFY_THROWS_EXCEPTION(OnceError, c->prepare(badAttention));
            EncodedVideo badGrid = makeVideo(2, 2, 2, 3, 1);
            badGrid.gridW = 3;
            QVERIFY_THROWS_EXCEPTION(OnceError, c->prepare(badGrid));
            c->prepare(makeVideo(2, 2, 2, 3, 1));
            QVERIFY_THROWS_EXCEPTION(OnceError, c->compress(0));
            QVERIFY_THROWS_EXCEPTION(OnceError, c->compress(-3));
            QVERIFY_THROWS_EXCEPTION(OnceError, make(name, {{"no_such_param", "1"}}));
        }
        QVERIFY_THROWS_EXCEPTION(OnceError, make("tome", {{"r", "-1"}}));
        QVERIFY_THROWS_EXCEPTION(OnceError, make("tome", {{"r", "two"}}));
        QVERIFY_THROWS_EXCEPTION(OnceError, make("vqtoken", {{"k_min", "9"}, {"k_max", "3"}}));
        QVERIFY_THROWS_EXCEPTION(OnceError, make("fastvid", {{"DTM_p", "0"}}));
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 make("visionzip", {{"dominant", "0"}, {"contextual", "0"}}));
    }

    void matchesReference() {
        const std::string path = test::tempDir() + "/baselines.safetensors";
        auto run = test::runPython("baselines_reference.py", {QString::fromStdString(path)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        auto file = SafetensorsFile::open(path);
        auto video = [&](const std::string& name, bool side) {
            EncodedVideo v(loadTensor(file, "video_" + name).clone());
            v.gridH = 4;
            v.gridW = 5;
            if (side) {
                v.attention = loadTensor(file, "attention_a").clone();
                v.frameGlobals = loadTensor(file, "globals_a").clone();
            }
            return v;
        };
        struct Case {
            std::string name, method, video;
            bool side;
            CompressorParams params;
        };
        const std::vector<Case> cases = {
            {"spatial-pool", "spatial-pool", "a", false, {}},
            {"frame-drop", "frame-drop", "a", false, {}},
            {"dycoke", "dycoke", "a", false, {}},
            {"dycoke-b", "dycoke", "b", false, {}},
            {"tome", "tome", "a", false, {}},
            {"tome-r5", "tome", "a", false, {{"r", "5"}}},
            {"visionzip", "visionzip", "a", false, {}},
            {"visionzip-attn", "visionzip", "a", true, {}},
            {"fastvid", "fastvid", "a", false, {}},
            {"fastvid-attn", "fastvid", "a", true, {}},
            {"fastvid-seg",
             "fastvid",
             "b",
             false,
             {{"DySeg_c", "2"}, {"DySeg_tau", "0.0"}, {"DTM_p", "2"}}},
            {"vqtoken", "vqtoken", "a", false, {}},
            {"vqtoken-small", "vqtoken", "b", false, {{"k_min", "3"}, {"k_max", "9"}}},
        };
        int checked = 0;
        for (const Case& k : cases) {
            auto c = make(k.method, k.params);
            c->prepare(video(k.video, k.side));
            at::Tensor budgets = loadTensor(file, k.name + "/budgets");
            for (std::int64_t i = 0; i < budgets.size(0); ++i) {
                const std::int64_t b = budgets[i].item<std::int64_t>();
                const std::string key = k.name + "/" + std::to_string(b) + "/";
                CompressionResult r = c->compress(b, 7);
                const QByteArray where = QByteArray::fromStdString(key);
                QVERIFY2(at::equal(r.groupOfToken, loadTensor(file, key + "group_of_token")),
                         where);
                at::Tensor expected = loadTensor(file, key + "tokens");
                QVERIFY2(r.tokens.sizes() == expected.sizes(), where);
                QVERIFY2(r.numOutputs == 0 || test::maxAbsDiff(r.tokens, expected) < 1e-5, where);
                ++checked;
            }
        }
        QCOMPARE(checked, 9 * 8 + 3 * 5 + 5);
    }
};

QTEST_GUILESS_MAIN(TestBaselines)
#include "test_baselines.moc"
