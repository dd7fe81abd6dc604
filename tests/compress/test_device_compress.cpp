// The device-resident path of ONCE (compress/device_compress.h: tensor operations only, the path
// a CUDA tensor takes) run on CPU tensors and compared with the CPU reference: the same top-L
// lists, counts and per-codeword sums, the same selected codewords in the same order, the same
// groups, pooled tokens within rounding, at several shapes (T×P layouts, L > K, B beyond the
// used codewords), F32/BF16/F16 inputs, both precisions, and ties everywhere they can occur.
#include <ATen/ATen.h>

#include <QtTest>

#include "codebook/codebook.h"
#include "compress/assign_backend.h"
#include "compress/compression.h"
#include "compress/device_compress.h"
#include "support/test_support.h"

using namespace once;

namespace {

AssignOptions assignOptions(const std::string& device, int topL, int tile,
                            const std::string& precision) {
    AssignOptions o;
    o.device = device;
    o.topL = topL;
    o.tileRows = tile;
    o.precision = precision;
    o.float32Kernel = "sgemm";  // the reference's plain F32 product
    return o;
}

void compareAssignments(const Assignment& ref, const Assignment& dev) {
    QCOMPARE(dev.backend, std::string("aten"));
    QVERIFY(dev.listsComplete);
    QVERIFY(at::equal(ref.topIds, dev.topIds));
    QVERIFY2(test::maxAbsDiff(ref.topScores, dev.topScores) == 0.0,
             "the same GEMM gives the same scores");
    QVERIFY(at::equal(ref.counts, dev.counts));
    QVERIFY(test::maxAbsDiff(ref.codewordSums, dev.codewordSums) <= 1e-4);
}

void compareResults(const CompressionResult& ref, const CompressionResult& dev,
                    const std::string& what) {
    const QByteArray tag = QByteArray::fromStdString(what);
    QVERIFY2(dev.tokens.device().is_cpu(), tag);
    QVERIFY2(ref.numOutputs == dev.numOutputs, tag);
    QVERIFY2(ref.usedCodewords == dev.usedCodewords, tag);
    QVERIFY2(ref.fallbackTokens == dev.fallbackTokens, tag);
    QVERIFY2(ref.coverage == dev.coverage, tag);
    QVERIFY2(at::equal(ref.codewordIds, dev.codewordIds), tag);
    QVERIFY2(at::equal(ref.groupSizes, dev.groupSizes), tag);
    QVERIFY2(at::equal(ref.groupOfToken, dev.groupOfToken), tag);
    QVERIFY2(ref.tokens.sizes() == dev.tokens.sizes(), tag);
    QVERIFY2(test::maxAbsDiff(ref.tokens, dev.tokens) <= 1e-5, tag);
    QVERIFY2(test::maxAbsDiff(ref.residual, dev.residual) <= 1e-6, tag);
    QVERIFY2(test::maxAbsDiff(ref.outputCosine, dev.outputCosine) <= 1e-5, tag);
}

}  // namespace

class TestDeviceCompress : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { at::manual_seed(7); }

    void keysOrderScoresThenLowerIds() {
        const at::Tensor s = at::tensor({-2.f, -1.f, -0.f, 0.f, 1.f, 1.f, 3.5f});
        const at::Tensor ids = at::tensor({0, 1, 5, 2, 6, 3, 4}, at::kInt);
        const at::Tensor order = at::argsort(scoreKeys(s, ids, 7), 0, true);
        // −0 and +0 are one score: the lower id (2) first; 1 and 1: id 3 before 6.
        const at::Tensor expected = at::tensor({6, 5, 4, 3, 2, 1, 0}, at::kLong);
        QVERIFY(at::equal(order, expected));
        QVERIFY(at::equal(keyToId(scoreKeys(s, ids, 7), 7), ids.to(at::kLong)));
    }

    void matchesCpuReference_data() {
        QTest::addColumn<int>("frames");
        QTest::addColumn<int>("patches");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("topL");
        QTest::addColumn<int>("tile");
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<QString>("precision");
        QTest::newRow("N×D F32") << 1 << 300 << 37 << 16 << 4 << 64 << "F32"
                                 << "float32";
        QTest::newRow("T×P BF16 in, bf16 scores") << 4 << 50 << 64 << 24 << 8 << 37 << "BF16"
                                                  << "bfloat16";
        QTest::newRow("T×P F16 in, F32") << 3 << 49 << 20 << 8 << 3 << 1000 << "F16"
                                         << "float32";
        QTest::newRow("L > K") << 2 << 40 << 5 << 12 << 8 << 16 << "F32"
                               << "float32";
        QTest::newRow("BF16 in, F32") << 8 << 27 << 128 << 32 << 8 << 100 << "BF16"
                                      << "float32";
    }
    void matchesCpuReference() {
        QFETCH(int, frames);
        QFETCH(int, patches);
        QFETCH(int, k);
        QFETCH(int, d);
        QFETCH(int, topL);
        QFETCH(int, tile);
        QFETCH(QString, dtype);
        QFETCH(QString, precision);
        const at::ScalarType type = dtype == "BF16"  ? at::kBFloat16
                                    : dtype == "F16" ? at::kHalf
                                                     : at::kFloat;
        // Clustered tokens, so that groups are uneven and some lists miss a selection.
        const at::Tensor centres = at::randn({k / 2 + 1, d});
        const at::Tensor pick = at::randint(0, centres.size(0), {frames * patches});
        const at::Tensor x =
            (centres.index_select(0, pick) + 0.7 * at::randn({frames * patches, d}))
                .view({frames, patches, d})
                .to(type);
        const Codebook cb = Codebook::fromTensor(at::randn({k, d}));
        const std::string prec = precision.toStdString();
        const Assignment ref = assignTokens(x, cb, assignOptions("cpu", topL, tile, prec));
        const Assignment dev = assignTokens(x, cb, assignOptions("aten", topL, tile, prec));
        compareAssignments(ref, dev);
        QCOMPARE(dev.numFrames, std::int64_t(frames));

        std::int64_t fallbacks = 0;  // the new-dot-product branch must be exercised
        for (std::int64_t b : {1, 2, 7, 16, 1000}) {
            for (Variant v : {Variant::Full, Variant::NoReassign, Variant::CodewordOutput}) {
                CompressOptions o;
                o.budget = b;
                o.variant = v;
                const std::string what = "B=" + std::to_string(b) + " " + variantName(v);
                const CompressionResult r = compressAssigned(x, ref, cb, o);
                fallbacks += r.fallbackTokens;
                // The device path (compressAssigned takes it for lists outside host memory;
                // these "aten" lists are CPU tensors, so it is called directly).
                compareResults(r, compressOnDevice(x.reshape({-1, d}), dev, cb, o), what);
                // And from the reference's own lists: steps 2–5 alone.
                compareResults(r, compressOnDevice(x.reshape({-1, d}), ref, cb, o),
                               what + " (reference lists)");
            }
        }
        QVERIFY(fallbacks > 0 || topL >= k);  // whole lists always hold a selected codeword
    }

    void tiesGoToLowerIndex() {
        // Codewords 2 and 4 repeat 1 and 0: every token scores them exactly alike. Tokens sit
        // on codewords 0, 1, 3 (three each) and 5 (two): n_0 = n_1 = n_3 = 3 tie.
        const at::Tensor base = at::randn({6, 10});
        at::Tensor c = base.clone();
        c[2] = base[1];
        c[4] = base[0];
        const Codebook cb = Codebook::fromTensor(c);
        const at::Tensor x = at::cat({base[0].repeat({3, 1}), base[1].repeat({3, 1}),
                                      base[3].repeat({3, 1}), base[5].repeat({2, 1})})
                                 .view({1, 11, 10});
        for (const std::string prec : {"float32", "bfloat16"}) {
            const Assignment ref = assignTokens(x, cb, assignOptions("cpu", 3, 4, prec));
            const Assignment dev = assignTokens(x, cb, assignOptions("aten", 3, 4, prec));
            compareAssignments(ref, dev);
            QCOMPARE(dev.topIds[0][0].item<int>(), 0);  // not 4
            QCOMPARE(dev.topIds[0][1].item<int>(), 4);
            QCOMPARE(dev.topIds[3][0].item<int>(), 1);  // not 2
            for (std::int64_t b : {1, 2, 3, 4}) {
                CompressOptions o;
                o.budget = b;
                const CompressionResult r = compressAssigned(x, ref, cb, o);
                const CompressionResult g = compressOnDevice(x.view({11, 10}), dev, cb, o);
                compareResults(r, g, prec + " B=" + std::to_string(b));
            }
            CompressOptions two;
            two.budget = 2;
            const CompressionResult g = compressOnDevice(x.view({11, 10}), dev, cb, two);
            QVERIFY(at::equal(g.codewordIds, at::tensor({0, 1}, at::kLong)));
        }
    }

    void autoFollowsTheFeatures() {
        // "auto" keeps CPU features on the CPU reference; "aten" names the tensor-op backend.
        const at::Tensor x = at::randn({2, 30, 8});
        const Codebook cb = Codebook::fromTensor(at::randn({12, 8}));
        QCOMPARE(resolveAssignBackend("auto", x), std::string("cpu"));
        QCOMPARE(resolveAssignBackend("aten", x), std::string("aten"));
        CompressOptions o;
        o.budget = 5;
        const CompressionResult ref =
            compressOnce(x, cb, o, assignOptions("cpu", 4, 16, "float32"));
        const CompressionResult dev =
            compressOnce(x, cb, o, assignOptions("aten", 4, 16, "float32"));
        QVERIFY(at::equal(ref.codewordIds, dev.codewordIds));
        QVERIFY(at::equal(ref.groupOfToken, dev.groupOfToken));
        QVERIFY(test::maxAbsDiff(ref.tokens, dev.tokens) <= 1e-5);
    }

    void codebookCopyIsReused() {
        const Codebook cb = Codebook::fromTensor(at::randn({9, 4}));
        const at::Tensor a = codebookOnDevice(cb, at::Device(at::kCPU));
        QVERIFY(a.is_same(cb.normalized()));  // same device: no copy at all
        QVERIFY(codebookOnDevice(cb, at::Device(at::kCPU), false).is_same(cb.vectors()));
    }
};

QTEST_GUILESS_MAIN(TestDeviceCompress)
#include "test_device_compress.moc"
