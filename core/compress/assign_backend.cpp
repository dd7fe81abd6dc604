#include "compress/assign_backend.h"

#include <ATen/core/Tensor.h>

#include <map>

#include "util/device.h"
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
    const c10::DeviceType type = features.device().type();
    if (type == c10::DeviceType::CPU) {
        return "cpu";
    }
    loadDeviceRuntime(type);  // its module registers the device's own backend, when built
    for (const auto& [name, factory] : registry()) {
        const auto b = factory();
        if (b->servedDevice() == type && b->available()) {
            return name;
        }
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
