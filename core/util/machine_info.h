#pragma once
// What a measurement ran on, for benchmark reports (`once bench`): the CPU (model and the vector
// extensions that decide which kernels run), the GPU when the device is one, threads and the
// LibTorch version. Read from /proc on Linux; "unknown" elsewhere.
#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

namespace once {

struct MachineInfo {
    std::string cpuModel = "unknown";
    /// Those of avx2, fma, avx512f, avx512_bf16, avx512_fp16, amx_tile, amx_bf16 (x86) and
    /// asimd (Arm) the CPU reports, in that order.
    std::vector<std::string> cpuFlags;
    int logicalCpus = 0;  ///< hardware threads of the machine
    int threads = 0;      ///< intra-op threads LibTorch uses (at::get_num_threads)
    std::string device;   ///< "cpu", "cuda:0"
    std::string gpuName;  ///< empty on the CPU; util/device.h deviceDescription otherwise
    std::string torchVersion;
};

/// The machine as seen now, for work on `device`.
MachineInfo describeMachine(const at::Device& device);

}  // namespace once
