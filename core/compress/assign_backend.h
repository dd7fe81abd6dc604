#pragma once
// The hot path of step 1 behind a small interface, so a GPU implementation (gpu/) can replace
// the CPU one (assign_cpu.cpp, the reference the tests compare against) without edits here.
#include <ATen/core/Tensor.h>

#include <functional>
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
    /// X [N, D] (any float dtype), codebook normalised rows Cn [K, D] float32; options give
    /// L, the tile size and the precision. Fills topIds/topScores [N, L] and counts [K] of `out`.
    virtual void assign(const at::Tensor& x, const at::Tensor& normalizedCodebook,
                        const AssignOptions& options, Assignment& out,
                        Progress* progress) const = 0;
};

using AssignBackendFactory = std::function<std::unique_ptr<AssignBackend>()>;

/// Registers a backend under a name ("cpu", "cuda"). Called by static registrars.
void registerAssignBackend(const std::string& name, AssignBackendFactory factory);
/// The backend for a device name; "auto" picks the first available non-CPU one, else CPU.
std::unique_ptr<AssignBackend> makeAssignBackend(const std::string& device);
std::vector<std::string> assignBackendNames();

}  // namespace once
