// Parity of core/compress with the independent NumPy reference (tests/reference/once_reference.py):
// codeword order, group sizes, membership, pooled tokens and residuals, for budgets from 1 to
// beyond the number of used codewords, every variant, F32 and BF16 features, Q = 1 and Q = 2.
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
        Assignment a = assignTokens(x, cb);  // computed once, reused for every budget/variant
        at::Tensor budgets = loadTensor(file, "budgets");
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
                const QByteArray where = QByteArray::fromStdString(key);
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
