#pragma once
// The hot path of step 1 behind a small interface, so a GPU implementation (gpu/) can replace
// the CPU one (assign_cpu.cpp, the reference the tests compare against) without edits here —
// the way faiss's GPU indexes implement its CPU index interface.
//
// Backends built in: "cpu" (the reference, host memory), "aten" (tensor operations on the
// features' own device: compress/device_compress.h), and "cuda" when gpu/ is built (its kernels;
// registered by gpu/cuda_assign_backend.cpp). Each registers itself with a static registrar.
//
// Where the data lives:
// - inputs: X [N, D] on any device, any float dtype; the normalised codebook [K, D] F32 on any
//   device (a backend moves what it needs, once);
// - outputs: every tensor the backend puts into the Assignment (topIds, topScores, counts and
//   the per-codeword sums codewordSums) lives on outputDevice(X): host memory for "cpu", X's
//   device for "aten", the GPU for "cuda". Steps 2–5 then run where those lists are
//   (compressAssigned: the host path for CPU lists, compress/device_compress.h otherwise).
#include <ATen/core/Tensor.h>

#include <functional>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "compress/assignment.h"

namespace once {

class AssignBackend {
  public:
    virtual ~AssignBackend() = default;
    virtual std::string name() const = 0;
    /// True when this backend can run here (a GPU backend checks for a device).
    virtual bool available() const = 0;
    /// The device type whose tensors this backend is built for ("auto" picks it for features
    /// there), or none for a backend that runs on any device ("aten").
    virtual std::optional<c10::DeviceType> servedDevice() const { return std::nullopt; }
    /// The device of the outputs for features on `features.device()`.
    virtual at::Device outputDevice(const at::Tensor& features) const {
        (void)features;
        return at::Device(at::kCPU);
    }
    /// X [N, D] (any float dtype), codebook normalised rows Cn [K, D] float32; options give
    /// L, the tile size and the precision. Fills topIds/topScores [N, L], counts [K] and, where
    /// it can do so without another pass over X, codewordSums [K, D] of `out`, all on
    /// outputDevice(X) (assignTokens computes the sums there when a backend leaves them out).
    virtual void assign(const at::Tensor& x, const at::Tensor& normalizedCodebook,
                        const AssignOptions& options, Assignment& out,
                        Progress* progress) const = 0;
};

using AssignBackendFactory = std::function<std::unique_ptr<AssignBackend>()>;

/// Registers a backend under a name ("cpu", "aten", "cuda"). Called by static registrars.
void registerAssignBackend(const std::string& name, AssignBackendFactory factory);
/// The backend of a name ("cpu", "aten", "cuda", …). Throws OnceError for a name not built in
/// or a backend that cannot run here.
std::unique_ptr<AssignBackend> makeAssignBackend(const std::string& device);
/// The backend name for features on `features`' device and a requested name: "auto" follows
/// the features through the registry (CPU tensors: "cpu", the reference; a device tensor: the
/// available backend registered for that device type, after loading the device's module, e.g.
/// "cuda"; else "aten"), any other name is returned as it is.
std::string resolveAssignBackend(const std::string& device, const at::Tensor& features);
std::vector<std::string> assignBackendNames();

}  // namespace once
