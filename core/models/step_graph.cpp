#include "models/step_graph.h"

#include <map>

#include "util/device.h"
#include "util/error.h"

namespace once {
namespace {
std::map<c10::DeviceType, StepGraphCapture>& captures() {
    static std::map<c10::DeviceType, StepGraphCapture> c;
    return c;
}
}  // namespace

void registerStepGraphCapture(c10::DeviceType type, StepGraphCapture capture) {
    captures()[type] = std::move(capture);
}

bool canCaptureStepGraph(const at::Device& device) {
    if (device.is_cpu()) {
        return false;
    }
    loadDeviceRuntime(device.type());  // its module registers the capture, when built
    return captures().count(device.type()) > 0;
}

std::unique_ptr<StepGraph> captureStepGraph(const at::Device& device,
                                            const std::function<void()>& step) {
    if (!canCaptureStepGraph(device)) {
        fail("this device cannot capture a step graph", {}, "device",
             "a device whose backend module captures (CUDA)", device.str());
    }
    return captures().at(device.type())(device, step);
}

}  // namespace once
