// CUDA graphs for models/step_graph.h: a fixed-shape step (a decoding step of
// models/qwen2/qwen2_static_decode.h) is warmed up and captured on a side stream, then replayed on
// the caller's current stream, so that the inputs it writes in place before each replay are ordered
// before the captured kernels.
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include "models/step_graph.h"

namespace once::gpu {
namespace {

class CudaStepGraph final : public StepGraph {
  public:
    CudaStepGraph(const at::Device& device, const std::function<void()>& step) {
        const c10::cuda::CUDAGuard guard(device.index() < 0 ? 0 : device.index());
        // Capture needs a stream other than the legacy default one; it must also see the work
        // already queued (the prefill, the inputs just written).
        c10::cuda::device_synchronize();
        const c10::cuda::CUDAStream stream = c10::cuda::getStreamFromPool();
        const c10::cuda::CUDAStreamGuard onStream(stream);
        // Warm-up outside the capture: cuBLAS handles and workspaces for this stream are made
        // here, not inside the graph. Its outputs are the step's (the step is idempotent).
        step();
        stream.synchronize();
        // Thread-local capture: another thread's CUDA work (a studio view, say) does not
        // invalidate it.
        graph_.capture_begin({0, 0}, cudaStreamCaptureModeThreadLocal);
        try {
            step();
        } catch (...) {
            try {
                graph_.capture_end();  // leave the stream usable before the error travels up
            } catch (...) {
            }
            throw;
        }
        graph_.capture_end();
        stream.synchronize();
    }
    void replay() override { graph_.replay(); }

  private:
    at::cuda::CUDAGraph graph_;
};

const bool registered = [] {
    registerStepGraphCapture(
        c10::DeviceType::CUDA, [](const at::Device& device, const std::function<void()>& step) {
            return std::unique_ptr<StepGraph>(std::make_unique<CudaStepGraph>(device, step));
        });
    return true;
}();

}  // namespace
}  // namespace once::gpu
