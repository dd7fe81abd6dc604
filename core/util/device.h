#pragma once
// Where tensors run: "cpu", "cuda", "cuda:N" or "auto" (CUDA when a device is present, else
// the CPU), resolved in one place for the CLI, the GUI and the library.
//
// The build links only LibTorch's CPU libraries (cmake/LibTorch.cmake). Its CUDA half
// (libtorch_cuda.so, shipped in the same wheel) registers the CUDA kernels and allocator when it
// is loaded, so it is loaded here on the first request for a CUDA device: programs that never
// ask for one never pay for loading it, and a machine without it gets a clear error.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

namespace once {

/// Loads LibTorch's CUDA libraries once (no-op when already loaded). False, with the loader's
/// reason in `why` when given, when they cannot be loaded.
bool loadCudaRuntime(std::string* why = nullptr);
/// True when LibTorch's CUDA libraries are loaded and at least one CUDA device is visible.
bool cudaDeviceAvailable();
/// Parses a device name ("auto" picks CUDA when available). Throws OnceError naming `field`
/// for an unknown name, or a CUDA device that cannot be used here (and why).
at::Device resolveDevice(const std::string& name, const std::string& field = "device");
/// The same, as the canonical string ("cpu", "cuda:0").
std::string resolveDeviceName(const std::string& name, const std::string& field = "device");

/// Resets the peak of reserved device memory (CUDA caching allocator); no-op on the CPU.
void resetDevicePeakMemory(const at::Device& device);
/// Peak reserved device memory in bytes since the last reset, or −1 on the CPU.
std::int64_t devicePeakReservedBytes(const at::Device& device);
/// Peak device memory held by tensors (allocated, not merely cached) in bytes since the last
/// reset, or −1 on the CPU.
std::int64_t devicePeakAllocatedBytes(const at::Device& device);

}  // namespace once
