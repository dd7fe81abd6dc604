// Qwen3.5 as a registered backbone: the pooled-token rule of the prompt checked by hand on a
// small case (placement and the three position rules, docs/models.md), its refusals, the
// backbone registry (detection from config.json, default sampling per backbone, unknown
// folders named), and the prefill FLOPs of the hybrid stack (linear in the DeltaNet layers).
#include <QtTest>
#include <cmath>
#include <filesystem>

#include "models/backbone.h"
#include "models/prefill_flops.h"
#include "models/qwen3_5/qwen3_5_config.h"
#include "models/qwen3_5/qwen3_5_pooled_prompt.h"
#include "models/qwen3_5/qwen3_5_processor.h"
#include "models/visual_encoder.h"
#include "support/test_support.h"
#include "util/atomic_file.h"
#include "util/error.h"

using namespace once;

namespace {

using Ids = std::vector<std::int64_t>;

// Two temporal groups of a 4 x 4 patch grid (2 x 2 merged cells each), P = video pad,
// S/E = vision start/end; 12 stands for the second group's timestamp.
constexpr std::int64_t P = 99, S = 90, E = 91;
const Ids kDense = {10, 11, S, P, P, P, P, E, 12, S, P, P, P, P, E, 13};
const Ids kStarts = {3, 10};

/// The dense prompt: two groups of 4 video tokens at `starts`.
Qwen3_5VideoPrompt densePrompt(const Ids& starts = kStarts) {
    return {kDense, {}, starts, 4, P};
}

Qwen3_5Positions densePositions() {
    return qwen3_5RopeIndex(kDense, P, {{2, 4, 4}}, 2);
}

}  // namespace

class TestQwen3_5Backbone : public QObject {
    Q_OBJECT
  private slots:
    void densePositionsAreTheReferenceRule() {
        // get_rope_index by hand: text advances by one; group 0 at 3 (t = 3, h/w = 3 + row/col),
        // then 3 + max(2, 2) = 5; group 1 at 8; the last text token at 11.
        const Qwen3_5Positions p = densePositions();
        QCOMPARE(p.t, (Ids{0, 1, 2, 3, 3, 3, 3, 5, 6, 7, 8, 8, 8, 8, 10, 11}));
        QCOMPARE(p.h, (Ids{0, 1, 2, 3, 3, 4, 4, 5, 6, 7, 8, 8, 9, 9, 10, 11}));
        QCOMPARE(p.w, (Ids{0, 1, 2, 3, 4, 3, 4, 5, 6, 7, 8, 9, 8, 9, 10, 11}));
        QCOMPARE(p.ropeDelta, std::int64_t(12 - 16));
    }

    void pooledTokensFollowTheDocumentedRule() {
        // Source tokens 0..7 (frame-major); rows: 0 = {1, 3}, 1 = {0, 5}, 2 = {4, 6, 7};
        // token 2 dropped. First members: row 1 → 0, row 0 → 1, row 2 → 4 (group 1).
        const Ids group = {1, 0, -1, 0, 2, 1, 2, 2};
        const Ids wantIds = {10, 11, S, P, P, E, 12, S, P, E, 13};
        auto pool = [&](PooledPositionRule rule) {
            return qwen3_5PoolPrompt(densePrompt(), densePositions(), group, 3, rule, 2, 15);
        };
        const Qwen3_5PooledPrompt first = pool(PooledPositionRule::First);
        QCOMPARE(first.ids, wantIds);
        QCOMPARE(first.rowOrder, (Ids{1, 0, 2}));
        QCOMPARE(first.contentTokens, std::int64_t(3));
        QCOMPARE(first.layoutTokens, std::int64_t(5));  // S, E, 12, S, E
        // Row 1 at token 0's (3, 3, 3), row 0 at token 1's (3, 3, 4), row 2 at token 4's
        // (8, 8, 8); the layout and text keep their dense positions.
        QCOMPARE(first.positions.t, (Ids{0, 1, 2, 3, 3, 5, 6, 7, 8, 10, 11}));
        QCOMPARE(first.positions.h, (Ids{0, 1, 2, 3, 3, 5, 6, 7, 8, 10, 11}));
        QCOMPARE(first.positions.w, (Ids{0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11}));
        QCOMPARE(first.positions.ropeDelta, std::int64_t(12 - 11));

        // Mean, rounded half away from zero: row 1 = mean((3,3,3), (8,8,9)) = (5.5, 5.5, 6) →
        // (6, 6, 6); row 0 = mean((3,3,4), (3,4,4)) = (3, 3.5, 4) → (3, 4, 4); row 2 =
        // mean((8,8,8), (8,9,8), (8,9,9)) = (8, 8.67, 8.33) → (8, 9, 8).
        const Qwen3_5PooledPrompt mean = pool(PooledPositionRule::Mean);
        QCOMPARE(mean.ids, wantIds);
        QCOMPARE(mean.positions.t, (Ids{0, 1, 2, 6, 3, 5, 6, 7, 8, 10, 11}));
        QCOMPARE(mean.positions.h, (Ids{0, 1, 2, 6, 4, 5, 6, 7, 9, 10, 11}));
        QCOMPARE(mean.positions.w, (Ids{0, 1, 2, 6, 4, 5, 6, 7, 8, 10, 11}));

        // Sequential: 0 … S-1 on every axis.
        const Qwen3_5PooledPrompt seq = pool(PooledPositionRule::Sequential);
        QCOMPARE(seq.ids, wantIds);
        const Ids counting = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        QCOMPARE(seq.positions.t, counting);
        QCOMPARE(seq.positions.h, counting);
        QCOMPARE(seq.positions.w, counting);
        QCOMPARE(seq.positions.ropeDelta, std::int64_t(0));
        QCOMPARE(qwen3_5PlacementOrder(group, 3), (Ids{1, 0, 2}));
    }

    void aGroupWithoutTokensKeepsItsLayout() {
        // Everything pooled into one row whose first member is in group 0: group 1 keeps its
        // timestamp and vision start/end, empty.
        const Ids group = {0, 0, 0, 0, 0, 0, 0, 0};
        const Qwen3_5PooledPrompt p = qwen3_5PoolPrompt(densePrompt(), densePositions(), group, 1,
                                                        PooledPositionRule::First, 2, 15);
        QCOMPARE(p.ids, (Ids{10, 11, S, P, E, 12, S, E, 13}));
        QCOMPARE(p.layoutTokens, std::int64_t(5));
        QCOMPARE(p.positions.t, (Ids{0, 1, 2, 3, 5, 6, 7, 10, 11}));
    }

    void denseIsTheIdentity() {
        const Ids identity = {0, 1, 2, 3, 4, 5, 6, 7};
        const Qwen3_5Positions d = densePositions();
        const Qwen3_5PooledPrompt p =
            qwen3_5PoolPrompt(densePrompt(), d, identity, 8, PooledPositionRule::First, 2, 15);
        QCOMPARE(p.ids, kDense);
        QCOMPARE(p.positions.t, d.t);
        QCOMPARE(p.positions.h, d.h);
        QCOMPARE(p.positions.w, d.w);
        QCOMPARE(p.positions.ropeDelta, d.ropeDelta);
        // Mean of one member is that member: the same.
        const Qwen3_5PooledPrompt m =
            qwen3_5PoolPrompt(densePrompt(), d, identity, 8, PooledPositionRule::Mean, 2, 15);
        QCOMPARE(m.positions.h, d.h);
    }

    void refusals() {
        const Qwen3_5Positions d = densePositions();
        auto field = [](auto&& f) -> std::string {
            try {
                f();
            } catch (const OnceError& e) {
                return e.where().field;
            }
            return "(no error)";
        };
        // A row nobody belongs to has no place in the prompt.
        QCOMPARE(field([&] {
                     qwen3_5PoolPrompt(densePrompt(), d, {0, 0, 0, 0, 0, 0, 0, 0}, 2,
                                       PooledPositionRule::First, 2, 15);
                 }),
                 std::string("groupOfToken"));
        QCOMPARE(
            field([&] {
                qwen3_5PoolPrompt(densePrompt(), d, {0, 1, 2}, 3, PooledPositionRule::First, 2, 15);
            }),
            std::string("groupOfToken"));
        QCOMPARE(field([&] {
                     qwen3_5PoolPrompt(densePrompt(), d, {0, 0, 0, 0, 0, 0, 0, 5}, 1,
                                       PooledPositionRule::First, 2, 15);
                 }),
                 std::string("groupOfToken"));
        QCOMPARE(field([&] {
                     qwen3_5PoolPrompt(densePrompt({3, 13}), d, {0, 0, 0, 0, 0, 0, 0, 0}, 1,
                                       PooledPositionRule::First, 2, 15);
                 }),
                 std::string("groupStarts"));
        QCOMPARE(field([&] { parsePooledPositionRule("centre"); }), std::string("positions"));
        QCOMPARE(pooledPositionRuleName(parsePooledPositionRule("mean")), std::string("mean"));
    }

    void registryDetectsFoldersAndKnowsSampling() {
        const std::string dir = test::tempDir();
        auto folder = [&](const std::string& name, const std::string& config) {
            std::filesystem::create_directories(dir + "/" + name);
            writeFileAtomically(dir + "/" + name + "/config.json", config);
            return dir + "/" + name;
        };
        QCOMPARE(detectBackbone(folder("q", R"({"model_type": "qwen3_5"})")),
                 std::string("qwen3.5"));
        QCOMPARE(detectBackbone(folder("l", R"({"model_type": "llava_onevision"})")),
                 std::string("llava-onevision"));
        QCOMPARE(detectBackbone(
                     folder("a", R"({"architectures": ["Qwen3_5ForConditionalGeneration"]})")),
                 std::string("qwen3.5"));
        const std::string other = folder("o", R"({"model_type": "internvl_chat"})");
        try {
            detectBackbone(other);
            QFAIL("an unknown folder was detected");
        } catch (const OnceError& e) {
            QCOMPARE(e.where().file, other + "/config.json");
            QCOMPARE(e.where().field, std::string("model_type"));
            QVERIFY(e.where().found.find("internvl_chat") != std::string::npos);
            QVERIFY(e.where().expected.find("qwen3.5") != std::string::npos);
        }
        QCOMPARE(resolveBackbone("auto", dir + "/q"), std::string("qwen3.5"));
        QVERIFY_THROWS_EXCEPTION(OnceError, resolveBackbone("llava-onevision", dir + "/q"));
        QVERIFY_THROWS_EXCEPTION(OnceError, resolveBackbone("gemma", dir + "/q"));
        QCOMPARE(defaultSampling("qwen3.5"), std::string("fps:2:4:256"));
        QCOMPARE(defaultSampling("llava-onevision"), std::string("uniform:32"));
        QCOMPARE(defaultSampling("demo"), std::string("uniform:32"));
        // Each language backbone has its visual encoder under the same name.
        const auto encoders = visualEncoderNames();
        for (const BackboneInfo& b : backboneInfos()) {
            QVERIFY2(std::find(encoders.begin(), encoders.end(), b.name) != encoders.end(),
                     b.name.c_str());
            QVERIFY(b.detect && b.load && b.llmShape);
        }
    }

    void prefillFlopsOfTheHybridStack() {
        // The 9B's geometry (config defaults): 24 DeltaNet and 8 attention layers.
        const Qwen3_5Config c = Qwen3_5Config::parse(
            R"({"model_type": "qwen3_5", "vision_config": {"out_hidden_size": 4096}})", "c.json");
        const LlmShape s = c.text.llmShape();
        QCOMPARE(s.linearLayers, std::int64_t(24));
        const double n = 1000;
        // Second differences isolate the quadratic (softmax attention) term 2·q·x(x + 1) per
        // full-attention layer: 4·q·n² with step n.
        const double second =
            prefillFlops(s, 3000) - 2 * prefillFlops(s, 2000) + prefillFlops(s, 1000);
        const double q = double(s.heads * s.headDim);
        QVERIFY(std::abs(second - 8 * 4.0 * q * n * n) <= 1e-9 * prefillFlops(s, 3000));
        LlmShape linearOnly = s;
        linearOnly.linearLayers = s.layers;
        const double flat = prefillFlops(linearOnly, 3000) - 2 * prefillFlops(linearOnly, 2000) +
                            prefillFlops(linearOnly, 1000);
        QVERIFY(std::abs(flat) < 1e-6 * prefillFlops(linearOnly, 1000));
        // A plain decoder counts as before.
        LlmShape plain = LlmShape::qwen2_7b();
        QVERIFY(prefillFlops(plain, 100) > 0);
        QCOMPARE(plain.linearLayers, std::int64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestQwen3_5Backbone)
#include "test_qwen3_5_backbone.moc"
