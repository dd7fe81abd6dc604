// The projector's map against tests/reference/codebook_projection.py (NumPy SVD, an independent
// route to the same axes): axes, explained variance, codewords and tokens, for K > D and K < D;
// the axes are orthonormal, the map deterministic, and bad sizes are refused with the field named.
#include <ATen/ATen.h>

#include <QtTest>

#include "analysis/codebook_projection.h"
#include "codebook/codebook.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;

namespace {

void compareWithReference(std::int64_t k, std::int64_t d) {
    // Anisotropic codewords so the two leading axes are well separated (no degenerate PCA).
    const at::Tensor scale = at::linspace(3.0, 0.2, d, at::kFloat);
    const at::Tensor c = at::randn({k, d}) * scale + 0.3;
    const at::Tensor x = at::randn({40, d}) * scale;
    const Codebook cb = Codebook::fromTensor(c);
    const CodebookProjection p = fitCodebookProjection(cb);

    SafetensorsWriter wr;
    addTensor(wr, "codebook", c);
    addTensor(wr, "tokens", x);
    const std::string in = test::tempDir() + "/proj_in.safetensors";
    const std::string out = test::tempDir() + "/proj_out.safetensors";
    wr.write(in);
    const auto r = test::runPython("codebook_projection.py",
                                   {QString::fromStdString(in), QString::fromStdString(out)});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const SafetensorsFile ref = SafetensorsFile::open(out);

    const auto close = [](const at::Tensor& a, const at::Tensor& b, double tol) {
        return at::allclose(a.to(at::kDouble), b.to(at::kDouble), 0.0, tol);
    };
    QVERIFY(close(p.axes, loadTensor(ref, "axes"), 1e-5));
    QVERIFY(close(at::tensor({p.explained[0], p.explained[1]}, at::kDouble),
                  loadTensor(ref, "explained"), 1e-9));
    QVERIFY(p.explained[0] >= p.explained[1]);
    QVERIFY(close(p.codewords, loadTensor(ref, "codewords"), 1e-5));
    QVERIFY(close(p.project(x), loadTensor(ref, "tokens"), 1e-5));
    // Orthonormal axes.
    QVERIFY(close(p.axes.matmul(p.axes.t()), at::eye(2, at::kFloat), 1e-5));
}

}  // namespace

class TestCodebookProjection : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { at::manual_seed(3); }

    void moreCodewordsThanDimensions() { compareWithReference(64, 12); }
    void fewerCodewordsThanDimensions() { compareWithReference(10, 48); }

    void theMapIsDeterministicAndTokensOfACodewordLandOnIt() {
        const at::Tensor c = at::randn({30, 8}) * at::linspace(2.0, 0.5, 8, at::kFloat);
        const Codebook cb = Codebook::fromTensor(c);
        const CodebookProjection a = fitCodebookProjection(cb);
        const CodebookProjection b = fitCodebookProjection(cb);
        QVERIFY(at::equal(a.axes, b.axes));
        QVERIFY(at::equal(a.codewords, b.codewords));
        // A token that is a scaled codeword has the codeword's direction: the same point.
        const at::Tensor t = (c.slice(0, 4, 7) * 5.0).reshape({1, 3, 8});
        QVERIFY(at::allclose(a.project(t), a.codewords.slice(0, 4, 7), 1e-5, 1e-5));
    }

    void badSizesAreNamed() {
        const Codebook two = Codebook::fromTensor(at::randn({2, 8}));
        try {
            fitCodebookProjection(two);
            QFAIL("a codebook of two codewords was mapped");
        } catch (const OnceError& e) {
            QCOMPARE(QString::fromStdString(e.where().field), QStringLiteral("codebook"));
        }
        const CodebookProjection p = fitCodebookProjection(Codebook::fromTensor(at::randn({5, 8})));
        QVERIFY_THROWS_EXCEPTION(OnceError, p.project(at::randn({3, 7})));
    }

    void cancelStops() {
        CancelToken token;
        token.cancel();
        Progress progress({}, token);
        QVERIFY_THROWS_EXCEPTION(
            Cancelled, fitCodebookProjection(Codebook::fromTensor(at::randn({8, 4})), &progress));
    }
};

QTEST_GUILESS_MAIN(TestCodebookProjection)
#include "test_codebook_projection.moc"
