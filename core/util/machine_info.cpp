#include "util/machine_info.h"

#include <ATen/Parallel.h>
#include <torch/version.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

#include "util/device.h"

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
    for (const char* f : {"avx2", "fma", "avx512f", "avx512_bf16", "avx512_fp16", "amx_tile",
                          "amx_bf16", "asimd"}) {
        if (std::find(present.begin(), present.end(), f) != present.end()) {
            m.cpuFlags.emplace_back(f);
        }
    }
    m.logicalCpus = int(std::thread::hardware_concurrency());
    m.threads = at::get_num_threads();
    m.device = device.str();
    if (!device.is_cpu()) {
        m.gpuName = deviceDescription(device);  // the backend module's name, else "cuda:N"
    }
    m.torchVersion = TORCH_VERSION;
    return m;
}

}  // namespace once
