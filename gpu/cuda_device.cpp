// The CUDA device's name for reports (util/device.h: deviceDescription), registered when this
// module loads.
#include <cuda_runtime_api.h>

#include <string>

#include "util/device.h"

namespace once::gpu {
namespace {

const bool registered = [] {
    registerDeviceDescriber(c10::DeviceType::CUDA, [](int index) {
        cudaDeviceProp p{};
        if (cudaGetDeviceProperties(&p, index) != cudaSuccess) {
            return "cuda:" + std::to_string(index);
        }
        return std::string(p.name) + ", " + std::to_string(p.multiProcessorCount) + " SMs, " +
               std::to_string(p.totalGlobalMem >> 20) + " MiB";
    });
    return true;
}();

}  // namespace
}  // namespace once::gpu
