// The compressor registry and ONCE behind the TokenCompressor interface: through the registry,
// prepared once, it gives the independent reference's groups and tokens for every budget, and bad
// method names, parameters and call orders are clear errors.
#include <ATen/ATen.h>

#include <QtTest>

#include "codebook/codebook.h"
#include "compress/compression.h"
#include "compress/token_compressor.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;

class TestTokenCompressor : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { at::manual_seed(3); }

    void onceIsRegistered() {
        bool found = false;
        for (const auto& info : compressorInfos()) {
            found |= info.method == "once";
            QVERIFY(!info.summary.empty());
        }
        QVERIFY(found);
        QVERIFY(compressorInfo("once").needsCodebook);
    }

    void onceThroughTheRegistryMatchesTheReference() {
        // ONCE as every caller gets it (registry → prepare once → compress per budget) against
        // the independent NumPy reference (tests/reference/once_reference.py), every variant and
        // budget: the interface adds nothing and loses nothing.
        const std::string path = test::tempDir() + "/ref.safetensors";
        auto run = test::runPython("once_reference.py",
                                   {QString::fromStdString(path), "--seed", QStringLiteral("5")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        auto file = SafetensorsFile::open(path);
        const at::Tensor x = loadTensor(file, "features").clone();
        Codebook cb = Codebook::fromTensor(loadTensor(file, "codebook"));
        const at::Tensor budgets = loadTensor(file, "budgets");
        int checked = 0;
        for (const std::string& variant : variantNames()) {
            CompressorSpec spec;
            spec.codebook = &cb;
            spec.params = {{"variant", variant}};
            auto c = makeCompressor(spec);
            c->prepare(EncodedVideo(x));
            for (std::int64_t i = 0; i < budgets.size(0); ++i) {
                const std::int64_t b = budgets[i].item<std::int64_t>();
                const std::string key = variant + "/" + std::to_string(b) + "/";
                const CompressionResult r = c->compress(b, 7);
                const QByteArray where = QByteArray::fromStdString(key);
                QVERIFY2(at::equal(r.codewordIds, loadTensor(file, key + "codeword_ids")), where);
                QVERIFY2(at::equal(r.groupOfToken.reshape({-1}),
                                   loadTensor(file, key + "group_of_token").reshape({-1})),
                         where);
                QVERIFY2(test::maxAbsDiff(r.tokens, loadTensor(file, key + "tokens")) < 2e-5,
                         where);
                QVERIFY(r.numOutputs <= b);
                ++checked;
            }
        }
        QVERIFY(checked >= 7 * 8);
    }

    void variantParameterIsHonoured() {
        at::Tensor x = at::randn({2, 25, 8});
        Codebook cb = Codebook::fromTensor(at::randn({30, 8}));
        auto c = makeCompressor({"once", {{"variant", "no-reassign"}}, &cb, {}, nullptr});
        c->prepare(EncodedVideo(x));
        CompressionResult r = c->compress(2);
        QCOMPARE(r.variant, Variant::NoReassign);
        QVERIFY(r.coverage < 1.0);
        QVERIFY((r.groupOfToken < 0).any().item<bool>());
    }

    void finishResultFillsSharedFields() {
        at::Tensor x = at::randn({6, 4});
        CompressionResult r;
        r.groupOfToken = at::tensor({0, 0, 1, -1, 1, 1}, at::kLong);
        r.tokens =
            at::stack({x.slice(0, 0, 2).mean(0), x.index_select(0, at::tensor({2, 4, 5})).mean(0)});
        finishResult(r, x, 5);
        QCOMPARE(r.numOutputs, std::int64_t(2));
        QCOMPARE(r.numTokens, std::int64_t(6));
        QVERIFY(at::equal(r.groupSizes, at::tensor({2, 3}, at::kLong)));
        QVERIFY(std::abs(r.coverage - 5.0 / 6.0) < 1e-12);
        QVERIFY(at::allclose(r.outputCosine, at::ones({2})));
        QVERIFY(at::equal(r.codewordIds, at::full({2}, -1, at::kLong)));
    }

    void badRequestsAreClearErrors() {
        Codebook cb = Codebook::fromTensor(at::randn({4, 8}));
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 makeCompressor({"no-such-method", {}, &cb, {}, nullptr}));
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 makeCompressor({"once", {{"bogus", "1"}}, &cb, {}, nullptr}));
        QVERIFY_THROWS_EXCEPTION(OnceError, makeCompressor({"once", {}, nullptr, {}, nullptr}));
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 makeCompressor({"once", {{"rounds", "two"}}, &cb, {}, nullptr}));
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 makeCompressor({"once", {{"variant", "nope"}}, &cb, {}, nullptr}));
        auto c = makeCompressor({"once", {}, &cb, {}, nullptr});
        QVERIFY_THROWS_EXCEPTION(OnceError, c->compress(4));
        try {
            makeCompressor({"once", {{"bogus", "1"}}, &cb, {}, nullptr});
        } catch (const OnceError& e) {
            QVERIFY(std::string(e.what()).find("rounds") != std::string::npos);
        }
    }
};

QTEST_APPLESS_MAIN(TestTokenCompressor)
#include "test_token_compressor.moc"
