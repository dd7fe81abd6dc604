#include "util/device.h"

#include <ATen/Context.h>
#include <c10/core/CachingDeviceAllocator.h>
#include <dlfcn.h>

#include "util/error.h"

namespace once {
namespace {

struct CudaLoad {
    bool loaded = false;
    std::string why;
};

const CudaLoad& cudaLoad() {
    static const CudaLoad state = [] {
        CudaLoad s;
        if (at::hasCUDA()) {  // linked in by the program (e.g. a GPU build)
            s.loaded = true;
            return s;
        }
        // RTLD_GLOBAL: the CUDA kernels register themselves with the dispatcher of the already
        // loaded libtorch_cpu. The library is found through libonce_core's run path (the
        // wheel's torch/lib) and finds the CUDA runtime through its own.
        if (dlopen("libtorch_cuda.so", RTLD_NOW | RTLD_GLOBAL) == nullptr) {
            const char* e = dlerror();
            s.why = e ? e : "libtorch_cuda.so could not be loaded";
            return s;
        }
        s.loaded = true;
        return s;
    }();
    return state;
}

}  // namespace

bool loadCudaRuntime(std::string* why) {
    const CudaLoad& s = cudaLoad();
    if (!s.loaded && why) {
        *why = s.why;
    }
    return s.loaded;
}

bool cudaDeviceAvailable() {
    try {
        return loadCudaRuntime() && at::hasCUDA();
    } catch (const std::exception&) {
        return false;
    }
}

at::Device resolveDevice(const std::string& name, const std::string& field) {
    if (name == "auto") {
        return cudaDeviceAvailable() ? at::Device(at::kCUDA, 0) : at::Device(at::kCPU);
    }
    at::Device device(at::kCPU);
    try {
        device = at::Device(name);
    } catch (const std::exception&) {
        fail("unknown device", {}, field, "cpu, cuda, cuda:N or auto", name);
    }
    if (device.is_cpu()) {
        return device;
    }
    if (!device.is_cuda()) {
        fail("unsupported device", {}, field, "cpu, cuda, cuda:N or auto", name);
    }
    std::string why;
    if (!loadCudaRuntime(&why)) {
        fail("CUDA requested but LibTorch's CUDA libraries cannot be loaded (" + why + ")", {},
             field, "cpu or auto", name);
    }
    if (!at::hasCUDA()) {
        fail("CUDA requested but no CUDA device is visible (no GPU or no driver)", {}, field,
             "cpu or auto", name);
    }
    const auto count = static_cast<std::int64_t>(at::getNumGPUs());
    if (device.has_index() && device.index() >= count) {
        fail("no such CUDA device", {}, field, "cuda:0 … cuda:" + std::to_string(count - 1), name);
    }
    return device.has_index() ? device : at::Device(at::kCUDA, 0);
}

std::string resolveDeviceName(const std::string& name, const std::string& field) {
    return resolveDevice(name, field).str();
}

void resetDevicePeakMemory(const at::Device& device) {
    if (device.is_cuda()) {
        c10::getDeviceAllocator(at::kCUDA)->resetPeakStats(device.index());
    }
}

std::int64_t devicePeakReservedBytes(const at::Device& device) {
    if (!device.is_cuda()) {
        return -1;
    }
    const auto stats = c10::getDeviceAllocator(at::kCUDA)->getDeviceStats(device.index());
    const auto aggregate = static_cast<std::size_t>(c10::CachingAllocator::StatType::AGGREGATE);
    return stats.reserved_bytes[aggregate].peak;
}

std::int64_t devicePeakAllocatedBytes(const at::Device& device) {
    if (!device.is_cuda()) {
        return -1;
    }
    const auto stats = c10::getDeviceAllocator(at::kCUDA)->getDeviceStats(device.index());
    const auto aggregate = static_cast<std::size_t>(c10::CachingAllocator::StatType::AGGREGATE);
    return stats.allocated_bytes[aggregate].peak;
}

}  // namespace once
