#include "util/machine_info.h"

#include <ATen/Parallel.h>
#include <torch/version.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace once {
namespace {

/// The value of the first "key : value" line of /proc/cpuinfo whose key is one of `keys`.
std::string cpuinfoValue(const std::vector<std::string>& keys) {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) {
            continue;
        }
        std::string key = line.substr(0, colon);
        key.erase(key.find_last_not_of(" \t") + 1);
        if (std::find(keys.begin(), keys.end(), key) != keys.end()) {
            const auto start = line.find_first_not_of(" \t", colon + 1);
            return start == std::string::npos ? std::string() : line.substr(start);
        }
    }
    return {};
}

/// The GPU's model name as the NVIDIA driver lists it (/proc/driver/nvidia/gpus/*/information,
/// "Model: NVIDIA H100 80GB HBM3"), in bus order; `index` picks one. Empty when not found.
std::string nvidiaModel(int index) {
    std::vector<std::filesystem::path> gpus;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/proc/driver/nvidia/gpus", ec)) {
        gpus.push_back(e.path());
    }
    std::sort(gpus.begin(), gpus.end());
    if (index < 0 || std::size_t(index) >= gpus.size()) {
        return {};
    }
    std::ifstream in(gpus[std::size_t(index)] / "information");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("Model:", 0) == 0) {
            const auto start = line.find_first_not_of(" \t", 6);
            return start == std::string::npos ? std::string() : line.substr(start);
        }
    }
    return {};
}

}  // namespace

MachineInfo describeMachine(const at::Device& device) {
    MachineInfo m;
    if (std::string model = cpuinfoValue({"model name", "Model", "Hardware"}); !model.empty()) {
        m.cpuModel = model;
    }
    std::istringstream flags(" " + cpuinfoValue({"flags", "Features"}) + " ");
    std::vector<std::string> present;
    for (std::string f; flags >> f;) {
        present.push_back(f);
    }
    for (const char* f :
         {"avx2", "fma", "avx512f", "avx512_bf16", "avx512_fp16", "amx_tile", "amx_bf16", "asimd"}) {
        if (std::find(present.begin(), present.end(), f) != present.end()) {
            m.cpuFlags.emplace_back(f);
        }
    }
    m.logicalCpus = int(std::thread::hardware_concurrency());
    m.threads = at::get_num_threads();
    m.device = device.str();
    if (device.is_cuda()) {
        m.gpuName = nvidiaModel(device.has_index() ? device.index() : 0);
        if (m.gpuName.empty()) {
            m.gpuName = "unknown";
        }
    }
    m.torchVersion = TORCH_VERSION;
    return m;
}

}  // namespace once
