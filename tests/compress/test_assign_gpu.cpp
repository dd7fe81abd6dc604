// The CUDA path (gpu/: the "cuda" assignment backend and the segmented pooling kernel) against
// the CPU reference, the way llama.cpp tests its backends against each other. Runs wherever a
// GPU is present; elsewhere every GPU case says plainly that it skipped and why (QSKIP). The
// CUDA error mapping (gpu/cuda_check.h) needs no device and always runs where gpu/ is built.
#include <ATen/ATen.h>

#include <QtTest>

#include "codebook/codebook.h"
#include "compress/assign_backend.h"
#include "compress/compression.h"
#include "compress/device_compress.h"
#include "compress/pooling.h"
#include "support/test_support.h"
#include "util/device.h"
#include "util/error.h"

#ifdef ONCE_HAVE_GPU
#include "cuda_check.h"
#endif

using namespace once;

namespace {

// Why the GPU cases cannot run here, or empty when they can.
std::string whyNoGpu() {
#ifndef ONCE_HAVE_GPU
    return "built without gpu/ (no CUDA compiler at configure time)";
#else
    std::string why;
    if (!loadCudaRuntime(&why)) {
        return "LibTorch's CUDA libraries cannot be loaded: " + why;
    }
    if (!cudaDeviceAvailable()) {
        return "no CUDA device on this machine";
    }
    return {};
#endif
}

#define SKIP_WITHOUT_GPU()                                                         \
    do {                                                                           \
        const std::string why = whyNoGpu();                                        \
        if (!why.empty()) {                                                        \
            QSKIP(qPrintable(QString::fromStdString("GPU test skipped: " + why))); \
        }                                                                          \
    } while (0)

AssignOptions options(const std::string& device, const std::string& precision) {
    AssignOptions o;
    o.device = device;
    o.precision = precision;
    o.topL = 8;
    o.tileRows = 300;  // several tiles
    o.float32Kernel = "sgemm";
    return o;
}

// Tokens near codewords (clear margins), so that the GPU's own rounding cannot flip a list
// between the CPU and the GPU except between scores closer than `eps`.
struct Data {
    at::Tensor x;
    Codebook cb;
};
Data clusteredData(std::int64_t t, std::int64_t p, std::int64_t k, std::int64_t d,
                   at::ScalarType type) {
    const at::Tensor c = at::randn({k, d});
    // A skewed use of the codebook: codeword 0 takes about half of the tokens (the atomics hot
    // spot a scatter-add would have).
    const at::Tensor pick = at::where(at::rand({t * p}) < 0.5, at::zeros({t * p}, at::kLong),
                                      at::randint(0, k / 2, {t * p}));
    const at::Tensor x = (c.index_select(0, pick) + 0.2 * at::randn({t * p, d})).view({t, p, d});
    return {x.to(type), Codebook::fromTensor(c)};
}

// Lists equal up to rounding-level ties: position by position the scores agree within eps (so
// two ids can only trade places where their scores are that close), and such trades are rare:
// at most `share` of the lists (BF16 scores, 8 bits, tie far more often than F32 ones).
void compareLists(const Assignment& cpu, const Assignment& gpu, double eps, double share) {
    const at::Tensor ids = gpu.topIds.cpu(), sc = gpu.topScores.cpu();
    QVERIFY(test::maxAbsDiff(cpu.topScores, sc) <= eps);
    const double differ = (ids != cpu.topIds).any(1).to(at::kDouble).mean().item<double>();
    QVERIFY2(differ <= share, qPrintable(QString("%1 of the lists differ").arg(differ)));
    // The nearest codeword itself: the margins of the data leave no rounding-level tie.
    QVERIFY(at::equal(ids.select(1, 0), cpu.topIds.select(1, 0)));
}

}  // namespace

class TestAssignGpu : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        at::manual_seed(11);
        const std::string why = whyNoGpu();
        qInfo("%s", why.empty() ? "GPU present: running the GPU-vs-CPU comparisons"
                                : ("GPU comparisons will be skipped: " + why).c_str());
    }

    void cudaErrorsBecomeOnceErrors() {
#ifndef ONCE_HAVE_GPU
        QSKIP("built without gpu/ (no CUDA compiler at configure time)");
#else
        try {
            ONCE_CUDA_CHECK(cudaErrorInvalidValue);
            QFAIL("no error raised");
        } catch (const OnceError& e) {
            QCOMPARE(e.where().field, std::string("cudaErrorInvalidValue"));
            QCOMPARE(e.where().expected, std::string("cudaSuccess"));
            QVERIFY2(e.where().found.find("cudaErrorInvalidValue") != std::string::npos, e.what());
            QVERIFY2(e.where().file.find("test_assign_gpu.cpp:") != std::string::npos, e.what());
        }
        try {
            ONCE_CUBLAS_CHECK(CUBLAS_STATUS_NOT_INITIALIZED);
            QFAIL("no error raised");
        } catch (const OnceError& e) {
            QVERIFY2(e.where().found.find("CUBLAS_STATUS_NOT_INITIALIZED") != std::string::npos,
                     e.what());
        }
        ONCE_CUDA_CHECK(cudaSuccess);  // success passes silently
        QVERIFY(std::find(assignBackendNames().begin(), assignBackendNames().end(), "cuda") !=
                assignBackendNames().end());
#endif
    }

    void assignmentMatchesCpu_data() {
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<QString>("precision");
        QTest::newRow("F32 in, float32") << "F32"
                                         << "float32";
        QTest::newRow("BF16 in, bfloat16") << "BF16"
                                           << "bfloat16";
        QTest::newRow("F16 in, float32") << "F16"
                                         << "float32";
        QTest::newRow("BF16 in, float32") << "BF16"
                                          << "float32";
    }
    void assignmentMatchesCpu() {
        SKIP_WITHOUT_GPU();
        QFETCH(QString, dtype);
        QFETCH(QString, precision);
        const at::ScalarType type = dtype == "BF16"  ? at::kBFloat16
                                    : dtype == "F16" ? at::kHalf
                                                     : at::kFloat;
        const Data data = clusteredData(4, 300, 96, 64, type);
        const std::string prec = precision.toStdString();
        const at::Tensor gx = data.x.to(at::kCUDA);
        const Assignment cpu = assignTokens(data.x, data.cb, options("cpu", prec));
        const Assignment gpu = assignTokens(gx, data.cb, options("auto", prec));
        QCOMPARE(gpu.backend, std::string("cuda"));
        QVERIFY(gpu.topIds.is_cuda() && gpu.counts.is_cuda() && gpu.codewordSums.is_cuda());
        // BF16 scores keep 8 bits: neighbours within one BF16 step may swap between devices.
        compareLists(cpu, gpu, prec == "bfloat16" ? 1e-2 : 1e-5, prec == "bfloat16" ? 0.25 : 0.01);
        QVERIFY(test::maxAbsDiff(cpu.codewordSums, gpu.codewordSums.cpu()) <= 1e-3);
        // The tensor-op path on the same GPU: the same cuBLAS scores, so the very same lists.
        const Assignment aten = assignTokens(gx, data.cb, options("aten", prec));
        QVERIFY(at::equal(aten.topIds, gpu.topIds));
        QVERIFY(at::equal(aten.counts, gpu.counts));
        if (prec == "float32") {  // no rounding-level ties at these margins
            QVERIFY(at::equal(cpu.counts, gpu.counts.cpu()));
        }
    }

    void compressionMatchesCpu() {
        SKIP_WITHOUT_GPU();
        const Data data = clusteredData(8, 200, 128, 48, at::kBFloat16);
        const at::Tensor gx = data.x.to(at::kCUDA);
        const Assignment cpu = assignTokens(data.x, data.cb, options("cpu", "float32"));
        const Assignment gpu = assignTokens(gx, data.cb, options("auto", "float32"));
        QVERIFY(at::equal(cpu.topIds, gpu.topIds.cpu()));  // clear margins: no tie at all
        for (std::int64_t b : {1, 4, 16, 64, 1000}) {
            for (Variant v : {Variant::Full, Variant::NoReassign, Variant::MedoidOutput}) {
                CompressOptions o;
                o.budget = b;
                o.variant = v;
                const CompressionResult r = compressAssigned(data.x, cpu, data.cb, o);
                const CompressionResult g = compressAssigned(gx, gpu, data.cb, o);
                // Device results stay on the device (the host-only variants come back to host).
                QCOMPARE(g.tokens.is_cuda(), deviceCompressSupports(o));
                QCOMPARE(g.numOutputs, r.numOutputs);
                QCOMPARE(g.fallbackTokens, r.fallbackTokens);
                QVERIFY(at::equal(g.codewordIds.cpu(), r.codewordIds));
                QVERIFY(at::equal(g.groupSizes.cpu(), r.groupSizes));
                QVERIFY(at::equal(g.groupOfToken.cpu(), r.groupOfToken));
                QVERIFY(test::maxAbsDiff(g.tokens.cpu(), r.tokens) <= 1e-4);
            }
        }
    }

    void segmentedPoolingMatchesCpu() {
        SKIP_WITHOUT_GPU();
        // One group of 90 % of the tokens, dropped tokens (−1), empty groups.
        const std::int64_t n = 20000, d = 200, groups = 50;
        const at::Tensor x = at::randn({n, d}).to(at::kBFloat16);
        at::Tensor group = at::where(at::rand({n}) < 0.9, at::zeros({n}, at::kLong),
                                     at::randint(-1, groups - 10, {n}));
        at::Tensor means, sizes, gm, gs;
        std::vector<std::int64_t> g(group.data_ptr<std::int64_t>(),
                                    group.data_ptr<std::int64_t>() + n);
        poolGroups(x, g, groups, means, sizes);
        poolOnDevice(x.to(at::kCUDA), group.to(at::kCUDA), groups, gm, gs);
        QVERIFY(at::equal(gs.cpu(), sizes));
        QVERIFY(test::maxAbsDiff(gm.cpu(), means) <= 1e-4);
    }
};

QTEST_GUILESS_MAIN(TestAssignGpu)
#include "test_assign_gpu.moc"
