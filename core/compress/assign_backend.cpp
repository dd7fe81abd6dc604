#include "compress/assign_backend.h"

#include <ATen/core/Tensor.h>

#include <map>

#include "util/error.h"

namespace once {
namespace {
std::map<std::string, AssignBackendFactory>& registry() {
    static std::map<std::string, AssignBackendFactory> r;
    return r;
}
}  // namespace

void registerAssignBackend(const std::string& name, AssignBackendFactory factory) {
    registry()[name] = std::move(factory);
}

std::unique_ptr<AssignBackend> makeAssignBackend(const std::string& device) {
    if (device == "auto") {
        for (const auto& [name, factory] : registry()) {
            if (name != "cpu" && name != "aten") {
                auto b = factory();
                if (b->available()) {
                    return b;
                }
            }
        }
        return makeAssignBackend("cpu");
    }
    auto it = registry().find(device);
    if (it == registry().end()) {
        std::string names;
        for (const auto& [n, _] : registry()) {
            names += (names.empty() ? "" : ", ") + n;
        }
        fail("no assignment backend for this device (not built in)", {}, "device",
             "one of: auto, " + names, device);
    }
    auto b = it->second();
    if (!b->available()) {
        fail("assignment backend is built in but cannot run here", {}, "device",
             "an available device", device);
    }
    return b;
}

std::string resolveAssignBackend(const std::string& device, const at::Tensor& features) {
    if (device != "auto") {
        return device;
    }
    if (features.device().is_cpu()) {
        return "cpu";
    }
    auto it = registry().find("cuda");
    if (features.device().is_cuda() && it != registry().end() && it->second()->available()) {
        return "cuda";
    }
    return "aten";
}

std::vector<std::string> assignBackendNames() {
    std::vector<std::string> out;
    for (const auto& [n, _] : registry()) {
        out.push_back(n);
    }
    return out;
}

}  // namespace once
