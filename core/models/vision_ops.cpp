#include "models/vision_ops.h"

#include <ATen/ATen.h>

#include "io/tensor_io.h"
#include "util/error.h"

namespace once {

void checkFrames(const at::Tensor& frames) {
    if (!frames.defined() || frames.dim() != 4 || frames.size(3) != 3 ||
        frames.scalar_type() != at::kByte) {
        fail("frames must be uint8 RGB [T, H, W, 3]", {}, "frames", "uint8 [T, H, W, 3]",
             frames.defined() ? std::string(c10::toString(frames.scalar_type())) + " " +
                                    shapeString(frames.sizes())
                              : "undefined");
    }
}

at::Tensor applyHfActivation(const at::Tensor& x, const std::string& name, const std::string& file,
                             const std::string& field) {
    if (name == "gelu") {
        return at::gelu(x);  // exact (erf) GELU, as torch.nn.GELU()
    }
    if (name == "gelu_pytorch_tanh" || name == "gelu_new" || name == "gelu_fast") {
        return at::gelu(x, "tanh");  // all three are the tanh approximation
    }
    if (name == "quick_gelu") {
        return x * at::sigmoid(x * 1.702);
    }
    fail("unsupported activation", file, field, "gelu, gelu_pytorch_tanh, gelu_new, quick_gelu",
         name);
}

}  // namespace once
