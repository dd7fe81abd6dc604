#pragma once
// Capturing a fixed-shape step once and replaying it (CUDA graphs), behind a seam so that core
// needs no CUDA header: a device's backend module (gpu/step_graph_cuda.cpp) registers how its
// device captures; elsewhere there is none and the caller runs the step eagerly.
//
// Why: a decoding step of a 7B decoder is ~1,500 small kernels. Launched one by one from the host
// they cost more than the GPU's work (measured on an H100: 13.5 ms a token against a 5 ms
// weight-reading bound; 0.5B: 10.5 ms against 0.3 ms). A captured graph launches them in one
// call.
#include <ATen/core/Tensor.h>

#include <functional>
#include <memory>

namespace once {

/// A captured step: replay() runs it again on the device's current stream, reading the same
/// input tensors and writing the same output tensors (their addresses were captured).
class StepGraph {
  public:
    virtual ~StepGraph() = default;
    virtual void replay() = 0;
};

/// How a device captures: runs `step` once eagerly (a warm-up that lazily creates library
/// handles and workspaces outside the capture, and whose outputs are those of the step), then
/// records it. Throws OnceError when the step cannot be captured.
using StepGraphCapture = std::function<std::unique_ptr<StepGraph>(
    const at::Device& device, const std::function<void()>& step)>;

void registerStepGraphCapture(c10::DeviceType type, StepGraphCapture capture);
/// True when `device`'s backend module registered a capture (after loadDeviceRuntime).
bool canCaptureStepGraph(const at::Device& device);
/// Captures `step` on `device` (see StepGraphCapture); throws OnceError where the device has no
/// capture.
std::unique_ptr<StepGraph> captureStepGraph(const at::Device& device,
                                            const std::function<void()>& step);

}  // namespace once
