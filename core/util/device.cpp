#include "util/device.h"

#include <ATen/Context.h>
#include <c10/core/CachingDeviceAllocator.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <vector>

#include "util/error.h"

namespace once {
namespace {

// Each device type the engine can use: LibTorch's library that registers its kernels and
// allocator, and the engine's own backend module (gpu/ for CUDA) that registers ours. A second
// backend (HIP, MPS) is one more line here and one folder like gpu/.
struct DeviceRuntime {
    c10::DeviceType type;
    const char* torchLibrary;
    const char* backendModule;
};
constexpr DeviceRuntime kRuntimes[] = {
    {c10::DeviceType::CUDA, "libtorch_cuda.so", "libonce_backend_cuda.so"},
};

struct RuntimeLoad {
    bool loaded = false;
    std::string why;        // why LibTorch's library could not be loaded
    std::string moduleWhy;  // why the engine's module is not in use (absent or failed)
};

// The folder of libonce_core.so: the backend modules are installed and built beside it.
std::string engineFolder() {
    if (const char* dir = std::getenv("ONCE_BACKEND_DIR"); dir && *dir) {
        return dir;
    }
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&engineFolder), &info) == 0 || !info.dli_fname) {
        return {};
    }
    return std::filesystem::path(info.dli_fname).parent_path().string();
}

RuntimeLoad loadRuntime(const DeviceRuntime& r) {
    RuntimeLoad s;
    // No at::hasCUDA() before this: ATen creates its CUDA hooks once, on the first call, and a
    // call made before libtorch_cuda is loaded would fix the CPU-only stub for the life of the
    // process (seen on the first GPU run: "no CUDA device is visible" on an H100). dlopen of a
    // library the program already links just returns it.
    // RTLD_GLOBAL: the kernels register themselves with the dispatcher of the already loaded
    // libtorch_cpu. The library is found through libonce_core's run path (the wheel's
    // torch/lib) and finds its runtime libraries through its own.
    if (dlopen(r.torchLibrary, RTLD_NOW | RTLD_GLOBAL) == nullptr) {
        const char* e = dlerror();
        s.why = e ? e : std::string(r.torchLibrary) + " could not be loaded";
        return s;
    }
    s.loaded = true;
    const std::filesystem::path module = std::filesystem::path(engineFolder()) / r.backendModule;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(module, ec)) {
        s.moduleWhy = module.string() + " is not there (built without its compiler)";
        return s;
    }
    // RTLD_LOCAL: the module only registers itself with the engine; nothing resolves into it.
    if (dlopen(module.c_str(), RTLD_NOW | RTLD_LOCAL) == nullptr) {
        const char* e = dlerror();
        s.moduleWhy = e ? e : module.string() + " could not be loaded";
    }
    return s;
}

const RuntimeLoad& runtimeLoad(c10::DeviceType type) {
    static const std::vector<RuntimeLoad> loads = [] {
        std::vector<RuntimeLoad> v;
        for (const DeviceRuntime& r : kRuntimes) {
            v.push_back(loadRuntime(r));
        }
        return v;
    }();
    for (std::size_t i = 0; i < std::size(kRuntimes); ++i) {
        if (kRuntimes[i].type == type) {
            return loads[i];
        }
    }
    static const RuntimeLoad none{false, "no runtime for this device type is built in", {}};
    return none;
}

}  // namespace

bool loadDeviceRuntime(c10::DeviceType type, std::string* why) {
    const RuntimeLoad& s = runtimeLoad(type);
    if (!s.loaded && why) {
        *why = s.why;
    }
    return s.loaded;
}

std::string deviceBackendProblem(c10::DeviceType type) {
    const RuntimeLoad& s = runtimeLoad(type);
    return s.loaded ? s.moduleWhy : s.why;
}

bool loadCudaRuntime(std::string* why) {
    return loadDeviceRuntime(c10::DeviceType::CUDA, why);
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

void synchronizeDevice(const at::Device& device) {
    if (!device.is_cpu()) {
        c10::impl::getDeviceGuardImpl(device.type())
            ->synchronizeDevice(device.index() < 0 ? 0 : device.index());
    }
}

namespace {
std::map<c10::DeviceType, std::function<std::string(int)>>& describers() {
    static std::map<c10::DeviceType, std::function<std::string(int)>> d;
    return d;
}
}  // namespace

void registerDeviceDescriber(c10::DeviceType type, std::function<std::string(int)> describe) {
    describers()[type] = std::move(describe);
}

std::string deviceDescription(const at::Device& device) {
    const auto it = describers().find(device.type());
    return it == describers().end() ? device.str()
                                    : it->second(device.index() < 0 ? 0 : device.index());
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
