// The device-resident step 1 as an assignment backend ("aten"): tensor operations on the
// features' own device (compress/device_compress.h). It is what a CUDA tensor uses when the
// gpu/ kernels are not built in, and what CI runs on CPU tensors to check that path against the
// CPU reference ("cpu", assign_cpu.cpp).
#include <ATen/ATen.h>

#include "compress/assign_backend.h"
#include "compress/device_compress.h"

namespace once {
namespace {

class AtenAssignBackend final : public AssignBackend {
  public:
    std::string name() const override { return "aten"; }
    bool available() const override { return true; }
    at::Device outputDevice(const at::Tensor& features) const override { return features.device(); }
    void assign(const at::Tensor& x, const at::Tensor& cn, const AssignOptions& options,
                Assignment& out, Progress* progress) const override {
        if (progress) {
            progress->begin("assign", double(x.size(0)));
            progress->throwIfCancelled();
        }
        assignOnDevice(x, cn, options, out);
        if (progress) {
            progress->update(double(x.size(0)));
        }
    }
};

const bool registered = [] {
    registerAssignBackend("aten", [] { return std::make_unique<AtenAssignBackend>(); });
    return true;
}();

}  // namespace
}  // namespace once
