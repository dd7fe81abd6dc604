// Every assignment backend and pooling kernel, and a device module's decoder kernels, against the
// CPU reference (support/backend_check.h, support/decoder_kernel_check.h; llama.cpp's
// test-backend-ops): ctest runs this program once per backend the build registers
// (compress_test_backends_aten, compress_test_backends_cuda, …; ONCE_TEST_BACKEND names it), and
// a backend that cannot run on this machine — its module is not built, or there is no GPU —
// is reported by ctest as skipped, with the reason, never as passed.
#include <ATen/ATen.h>

#include <QtTest>
#include <cstdlib>

#include "compress/assign_backend.h"
#include "models/decoder_kernels.h"
#include "support/backend_check.h"
#include "support/decoder_kernel_check.h"
#include "util/device.h"

using namespace once;

class TestBackends : public QObject {
    Q_OBJECT
    std::string backend_, device_, why_;

  private slots:
    void initTestCase() {
        const char* name = std::getenv("ONCE_TEST_BACKEND");
        QVERIFY2(name && *name, "ONCE_TEST_BACKEND names the backend (tests/CMakeLists.txt)");
        backend_ = name;
        device_ = test::backendDevice(backend_, &why_);
        qInfo("backend %s: %s", backend_.c_str(),
              device_.empty() ? ("skipped: " + why_).c_str() : ("on " + device_).c_str());
    }

    void matchesTheCpuReference() {
        if (device_.empty()) {
            QSKIP(qPrintable(QString::fromStdString(why_)));
        }
        int failed = 0;
        for (const test::BackendCheck& c : test::checkAssignBackend(backend_, device_)) {
            qInfo("%s %s: %s", c.passed ? "PASS" : "FAIL", c.what.c_str(), c.detail.c_str());
            failed += c.passed ? 0 : 1;
        }
        QCOMPARE(failed, 0);
    }

    void decoderKernelsMatchTheReference() {
        // The decoder layer's kernels belong to a device's module, not to an assignment backend:
        // they are checked in the run of that module's backend ("cuda"), not in "aten"'s.
        if (backend_ == "aten") {
            return;
        }
        if (device_.empty()) {
            QSKIP(qPrintable(QString::fromStdString(why_)));
        }
        const at::Device device(device_);
        QVERIFY2(hasDeviceDecoderKernels(device),
                 "the device's module registers its decoder kernels (models/decoder_kernels.h)");
        int failed = 0;
        for (const test::BackendCheck& c :
             test::checkDecoderKernels(decoderKernels(device), device_)) {
            qInfo("%s %s: %s", c.passed ? "PASS" : "FAIL", c.what.c_str(), c.detail.c_str());
            failed += c.passed ? 0 : 1;
        }
        QCOMPARE(failed, 0);
    }

    void autoPicksTheDevicesOwnBackend() {
        // "auto" follows the features through the registry: CPU tensors take the reference,
        // a device's tensors the backend registered for that device type, else "aten".
        const at::Tensor x = at::randn({4, 8});
        QCOMPARE(resolveAssignBackend("auto", x), std::string("cpu"));
        if (device_.empty() || device_ == "cpu") {
            return;
        }
        const std::string picked = resolveAssignBackend("auto", x.to(at::Device(device_)));
        if (backend_ == "aten") {
            QVERIFY(!picked.empty());
        } else {
            QCOMPARE(picked, backend_);
        }
    }
};

QTEST_GUILESS_MAIN(TestBackends)
#include "test_backends.moc"
