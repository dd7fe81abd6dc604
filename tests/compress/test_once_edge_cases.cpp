// Edge cases and invariants of the ONCE compressor that the parity data does not reach.
#include <ATen/ATen.h>

#include <QtTest>

#include "codebook/codebook.h"
#include "compress/compression.h"
#include "util/error.h"

using namespace once;

namespace {

CompressionResult run(const at::Tensor& x, const at::Tensor& c, std::int64_t b,
                      Variant v = Variant::Full) {
    CompressOptions o;
    o.budget = b;
    o.variant = v;
    return compressOnce(x, Codebook::fromTensor(c), o);
}

void checkPartition(const CompressionResult& r) {
    // Every token in exactly one group, group sizes consistent, no empty group.
    at::Tensor counted = at::bincount(r.groupOfToken, {}, r.numOutputs);
    QVERIFY(at::equal(counted, r.groupSizes));
    QVERIFY((r.groupSizes > 0).all().item<bool>());
    QCOMPARE(r.groupSizes.sum().item<std::int64_t>(), r.numTokens);
    QCOMPARE(r.coverage, 1.0);
}

}  // namespace

class TestOnceEdgeCases : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { at::manual_seed(1); }

    void singleFrame() {
        at::Tensor x = at::randn({1, 50, 8});
        auto r = run(x, at::randn({16, 8}), 4);
        QVERIFY(r.numOutputs <= 4);
        checkPartition(r);
        auto fw = run(x, at::randn({16, 8}), 4, Variant::FrameWise);
        checkPartition(fw);
    }

    void budgetAboveCodebookSize() {
        at::Tensor x = at::randn({3, 20, 8});
        auto r = run(x, at::randn({5, 8}), 100);
        QVERIFY(r.numOutputs <= 5);
        QCOMPARE(r.numOutputs, r.usedCodewords);
        checkPartition(r);
        QCOMPARE(r.fallbackTokens, std::int64_t(0));  // every used codeword is kept
        auto fr = run(x, at::randn({5, 8}), 100, Variant::FixedRandom);
        checkPartition(fr);
    }

    void oneCodeword() {
        at::Tensor x = at::randn({2, 10, 4});
        auto r = run(x, at::randn({1, 4}), 3);
        QCOMPARE(r.numOutputs, std::int64_t(1));
        QVERIFY(at::allclose(r.tokens[0], x.reshape({-1, 4}).mean(0), 1e-5, 1e-6));
    }

    void duplicateTokensPoolToThemselves() {
        at::Tensor row = at::randn({1, 1, 6});
        at::Tensor x = row.expand({2, 7, 6}).contiguous();
        auto r = run(x, at::randn({9, 6}), 4);
        QCOMPARE(r.numOutputs, std::int64_t(1));
        QCOMPARE(r.groupSizes[0].item<std::int64_t>(), std::int64_t(14));
        QVERIFY(at::allclose(r.tokens[0], row.reshape({6}), 1e-6, 1e-6));
    }

    void duplicateCodewordsTieToLowerIndex() {
        at::Tensor c = at::randn({4, 6});
        c[2] = c[1];  // identical codewords 1 and 2: codeword 1 must win every tie
        at::Tensor x = (c[1] + 0.01 * at::randn({30, 6})).reshape({1, 30, 6});
        auto r = run(x, c, 4);
        QVERIFY((r.codewordIds != 2).all().item<bool>());
    }

    void zeroVectors() {
        // ν(0) = 0: cosine 0 with every codeword, so the tie rule sends them to codeword 0 and
        // their mean is the zero vector; nothing is NaN.
        at::Tensor x = at::zeros({2, 5, 4});
        x[0][0] = at::randn({4});
        auto r = run(x, at::randn({6, 4}), 6);
        QVERIFY(at::isfinite(r.tokens).all().item<bool>());
        QVERIFY(at::isfinite(r.residual).all().item<bool>());
        checkPartition(r);
        auto zc = run(at::randn({1, 5, 4}), at::zeros({3, 4}), 2);  // all-zero codebook
        QCOMPARE(zc.numOutputs, std::int64_t(1));
        QCOMPARE(zc.codewordIds[0].item<std::int64_t>(), std::int64_t(0));
    }

    void noReassignDropsAndReportsCoverage() {
        at::Tensor x = at::randn({4, 40, 8});
        at::Tensor c = at::randn({32, 8});
        auto r = run(x, c, 3, Variant::NoReassign);
        const auto dropped = (r.groupOfToken < 0).sum().item<std::int64_t>();
        QVERIFY(dropped > 0);
        QCOMPARE(r.coverage, double(r.numTokens - dropped) / double(r.numTokens));
        auto full = run(x, c, 3);
        QVERIFY(at::equal(full.codewordIds, r.codewordIds));  // same selection, other coverage
    }

    void rebudgetFromCacheEqualsFreshRun() {
        at::Tensor x = at::randn({6, 30, 16}).to(at::kBFloat16);
        Codebook cb = Codebook::fromTensor(at::randn({64, 16}));
        Assignment a = assignTokens(x, cb);
        for (std::int64_t b : {1, 7, 20, 64, 500}) {
            CompressOptions o;
            o.budget = b;
            auto cached = compressAssigned(x, a, cb, o);
            auto fresh = compressOnce(x, cb, o);
            QVERIFY(at::equal(cached.groupOfToken, fresh.groupOfToken));
            QVERIFY(at::equal(cached.tokens, fresh.tokens));
        }
    }

    void shortListsStillExact() {
        // With L = 1 almost every token needs the fallback path; results must not change.
        at::Tensor x = at::randn({5, 30, 12});
        Codebook cb = Codebook::fromTensor(at::randn({40, 12}));
        AssignOptions shortList;
        shortList.topL = 1;
        Assignment a1 = assignTokens(x, cb, shortList);
        Assignment a8 = assignTokens(x, cb);
        CompressOptions o;
        o.budget = 5;
        auto r1 = compressAssigned(x, a1, cb, o);
        auto r8 = compressAssigned(x, a8, cb, o);
        QVERIFY(r1.fallbackTokens > r8.fallbackTokens);
        QVERIFY(at::equal(r1.groupOfToken, r8.groupOfToken));
    }

    void outputCosineDiagnostics() {
        // Tight clusters, codewords unrelated to them: a member (medoid) represents its group's
        // mean far better than the codeword does, as in the paper's mechanism table.
        at::Tensor centres = at::randn({6, 8});
        at::Tensor labels = at::randint(0, 6, {100});
        at::Tensor x =
            (centres.index_select(0, labels) + 0.05 * at::randn({100, 8})).reshape({4, 25, 8});
        at::Tensor c = at::randn({20, 8});
        auto mean = run(x, c, 6);
        QVERIFY(at::allclose(mean.outputCosine, at::ones_like(mean.outputCosine), 1e-5, 1e-5));
        auto code = run(x, c, 6, Variant::CodewordOutput);
        auto medoid = run(x, c, 6, Variant::MedoidOutput);
        QVERIFY((code.outputCosine < 1 - 1e-4).any().item<bool>());
        QVERIFY((medoid.outputCosine <= 1 + 1e-6).all().item<bool>());
        QVERIFY(medoid.outputCosine.mean().item<float>() > code.outputCosine.mean().item<float>());
    }

    void badInputsAreClearErrors() {
        at::Tensor x = at::randn({2, 5, 4});
        Codebook cb = Codebook::fromTensor(at::randn({6, 4}));
        CompressOptions zero;
        zero.budget = 0;
        QVERIFY_THROWS_EXCEPTION(OnceError, compressOnce(x, cb, zero));
        QVERIFY_THROWS_EXCEPTION(OnceError, compressOnce(at::randn({2, 5, 3}), cb, {}));
        QVERIFY_THROWS_EXCEPTION(OnceError, compressOnce(at::randn({5}), cb, {}));
        at::Tensor nan = at::randn({2, 5, 4});
        nan[1][2][3] = std::nanf("");
        QVERIFY_THROWS_EXCEPTION(OnceError, compressOnce(nan, cb, {}));
        at::Tensor badCb = at::randn({6, 4});
        badCb[3][1] = INFINITY;
        try {
            Codebook::fromTensor(badCb, {}, {}, "cb.npy");
            QFAIL("accepted an Inf codebook");
        } catch (const OnceError& e) {
            QVERIFY(QString(e.what()).contains("row 3"));
        }
        QVERIFY_THROWS_EXCEPTION(OnceError, parseVariant("nope"));
    }
};

QTEST_GUILESS_MAIN(TestOnceEdgeCases)
#include "test_once_edge_cases.moc"
