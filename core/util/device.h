#pragma once
// Where tensors run: "cpu", "cuda", "cuda:N" or "auto" (CUDA when a device is present, else
// the CPU), resolved in one place for the CLI, the GUI and the library.
//
// The build links only LibTorch's CPU libraries (cmake/LibTorch.cmake). Its CUDA half
// (libtorch_cuda.so, shipped in the same wheel) registers the CUDA kernels and allocator when it
// is loaded, so it is loaded here on the first request for a CUDA device, followed by the
// engine's CUDA module (gpu/): programs that never ask for one never pay for loading either,
// and a machine without them gets a clear error.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <string>

namespace once {

/// Loads, once, LibTorch's library for a device type (libtorch_cuda.so) and then the engine's
/// own backend module for it from beside libonce_core.so (libonce_backend_cuda.so, built from
/// gpu/; ONCE_BACKEND_DIR names another folder), whose registrars add its kernels to core's
/// registries. False, with the loader's reason in `why` when given, when LibTorch's library
/// cannot be loaded; a missing or broken module leaves the device usable through ATen
/// operations (deviceBackendProblem says why).
bool loadDeviceRuntime(c10::DeviceType type, std::string* why = nullptr);
/// Why the engine's module for a device type is not in use ("" when it is loaded).
std::string deviceBackendProblem(c10::DeviceType type);
/// loadDeviceRuntime for CUDA.
bool loadCudaRuntime(std::string* why = nullptr);
/// True when LibTorch's CUDA libraries are loaded and at least one CUDA device is visible.
bool cudaDeviceAvailable();
/// Parses a device name ("auto" picks CUDA when available). Throws OnceError naming `field`
/// for an unknown name, or a CUDA device that cannot be used here (and why).
at::Device resolveDevice(const std::string& name, const std::string& field = "device");
/// The same, as the canonical string ("cpu", "cuda:0").
std::string resolveDeviceName(const std::string& name, const std::string& field = "device");

/// Waits for the work queued on a device (no-op on the CPU): timings then measure the work,
/// not its launch.
void synchronizeDevice(const at::Device& device);
/// A device's name for reports ("NVIDIA H100 80GB HBM3, 132 SMs"; "cpu"), as its backend
/// module describes it (registerDeviceDescriber), else the device string.
std::string deviceDescription(const at::Device& device);
void registerDeviceDescriber(c10::DeviceType type, std::function<std::string(int index)> describe);

/// Resets the peak of reserved device memory (CUDA caching allocator); no-op on the CPU.
void resetDevicePeakMemory(const at::Device& device);
/// Peak reserved device memory in bytes since the last reset, or −1 on the CPU.
std::int64_t devicePeakReservedBytes(const at::Device& device);
/// Peak device memory held by tensors (allocated, not merely cached) in bytes since the last
/// reset, or −1 on the CPU.
std::int64_t devicePeakAllocatedBytes(const at::Device& device);

}  // namespace once
