// Device names resolve in one place (util/device.h): cpu, cuda[:N] and auto. LibTorch's CUDA
// half is loaded on first request; without a GPU "auto" is the CPU and "cuda" is a clear error
// naming the field. With a GPU (the device machine) the same tests check the CUDA side: auto is
// cuda:0 and the peak of reserved memory follows an allocation.
#include <ATen/ATen.h>

#include <QtTest>

#include "util/device.h"
#include "util/error.h"

using namespace once;

class TestDevice : public QObject {
    Q_OBJECT
  private slots:
    void cpuAndUnknownNames() {
        QCOMPARE(resolveDeviceName("cpu"), std::string("cpu"));
        QCOMPARE(devicePeakReservedBytes(at::Device(at::kCPU)), std::int64_t{-1});
        try {
            resolveDevice("tpu:3", "encoder device");
            QFAIL("an unknown device was accepted");
        } catch (const OnceError& e) {
            QCOMPARE(e.where().field, std::string("encoder device"));
            QCOMPARE(e.where().found, std::string("tpu:3"));
        }
    }

    void cudaRuntimeLoadsFromTheWheel() {
        // The PyPI torch wheel ships libtorch_cuda.so; loading it needs no GPU.
        std::string why;
        QVERIFY2(loadCudaRuntime(&why), why.c_str());
        QVERIFY(loadCudaRuntime());  // once, then cached
    }

    void autoAndCudaFollowTheMachine() {
        if (!cudaDeviceAvailable()) {
            QCOMPARE(resolveDeviceName("auto"), std::string("cpu"));
            try {
                resolveDevice("cuda");
                QFAIL("cuda was accepted without a CUDA device");
            } catch (const OnceError& e) {
                QVERIFY2(std::string(e.what()).find("CUDA") != std::string::npos, e.what());
                QCOMPARE(e.where().field, std::string("device"));
                QCOMPARE(e.where().found, std::string("cuda"));
            }
            return;
        }
        QCOMPARE(resolveDeviceName("auto"), std::string("cuda:0"));
        QCOMPARE(resolveDeviceName("cuda"), std::string("cuda:0"));
        const at::Device gpu = resolveDevice("cuda:0");
        resetDevicePeakMemory(gpu);
        at::Tensor t = at::ones({64, 1024, 1024}, at::TensorOptions().device(gpu));  // 256 MiB
        QVERIFY(devicePeakReservedBytes(gpu) >= std::int64_t{256} << 20);
        try {
            resolveDevice("cuda:" + std::to_string(at::getNumGPUs()));
            QFAIL("a CUDA index past the last device was accepted");
        } catch (const OnceError& e) {
            QCOMPARE(e.where().field, std::string("device"));
        }
    }
};

QTEST_APPLESS_MAIN(TestDevice)
#include "test_device.moc"
