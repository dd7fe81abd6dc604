// Parity of core/compress with the independent NumPy reference (tests/reference/once_reference.py):
// codeword order, group sizes, membership, pooled tokens and residuals, for budgets from 1 to
// beyond the number of used codewords, every variant, F32 and BF16 features, Q = 1, 2 and 4,
// with both float32 kernels of step 1 (the F32 product, and the certified BF16 product whose
// lists may be prefixes: the Q > 1 rounds complete them).
#include <ATen/ATen.h>

#include <QtTest>

#include "codebook/codebook.h"
#include "compress/compression.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/test_support.h"

using namespace once;

class TestOnceParity : public QObject {
    Q_OBJECT
  private slots:
    void matchesReference_data() {
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<int>("rounds");
        QTest::addColumn<int>("seed");
        QTest::newRow("F32 Q=1") << "F32" << 1 << 0;
        QTest::newRow("BF16 Q=1") << "BF16" << 1 << 1;
        QTest::newRow("F32 Q=1 other data") << "F32" << 1 << 2;
        QTest::newRow("F32 Q=2") << "F32" << 2 << 3;
        QTest::newRow("BF16 Q=4") << "BF16" << 4 << 4;
    }
    void matchesReference() {
        QFETCH(QString, dtype);
        QFETCH(int, rounds);
        QFETCH(int, seed);
        const std::string path = test::tempDir() + "/ref.safetensors";
        auto run = test::runPython("once_reference.py",
                                   {QString::fromStdString(path), "--dtype", dtype, "--seed",
                                    QString::number(seed), "--rounds", QString::number(rounds)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        auto file = SafetensorsFile::open(path);
        at::Tensor x = loadTensor(file, "features").clone();
        if (dtype == "BF16") {
            x = x.to(at::kBFloat16);
        }
        Codebook cb = Codebook::fromTensor(loadTensor(file, "codebook"));
        at::Tensor budgets = loadTensor(file, "budgets");
        for (const char* kernel : {"sgemm", "bf16-certified"}) {
            AssignOptions ao;
            ao.float32Kernel = kernel;
            // Computed once, reused for every budget and variant.
            const Assignment a = assignTokens(x, cb, ao);
            QCOMPARE(a.kernel, std::string(kernel));
            qInfo("%s: lists complete %d, exact fallback tokens %lld of %lld", kernel,
                  int(a.listsComplete), static_cast<long long>(a.exactFallbackTokens),
                  static_cast<long long>(a.numTokens));
            checkAgainstReference(file, x, cb, a, budgets, rounds, kernel);
        }
    }

  private:
    void checkAgainstReference(SafetensorsFile& file, const at::Tensor& x, const Codebook& cb,
                               const Assignment& a, const at::Tensor& budgets, int rounds,
                               const char* kernel) {
        int checked = 0;
        for (const std::string& variant : variantNames()) {
            for (std::int64_t i = 0; i < budgets.size(0); ++i) {
                const std::int64_t b = budgets[i].item<std::int64_t>();
                const std::string key = variant + "/" + std::to_string(b) + "/";
                CompressOptions o;
                o.budget = b;
                o.variant = parseVariant(variant);
                o.seed = 7;
                o.rounds = rounds;
                CompressionResult r = compressAssigned(x, a, cb, o);
                const QByteArray where = QByteArray::fromStdString(key) + kernel;
                QVERIFY2(at::equal(r.codewordIds, loadTensor(file, key + "codeword_ids")), where);
                QVERIFY2(at::equal(r.groupSizes, loadTensor(file, key + "group_sizes")), where);
                QVERIFY2(at::equal(r.groupOfToken, loadTensor(file, key + "group_of_token")),
                         where);
                QVERIFY2(test::maxAbsDiff(r.tokens, loadTensor(file, key + "tokens")) < 2e-5,
                         where);
                QVERIFY2(test::maxAbsDiff(r.residual, loadTensor(file, key + "residual")) < 2e-6,
                         where);
                QVERIFY(r.numOutputs <= std::min(b, r.numTokens));
                ++checked;
            }
        }
        QVERIFY(checked >= 7 * 8);
    }
};

QTEST_GUILESS_MAIN(TestOnceParity)
#include "test_once_parity.moc"
