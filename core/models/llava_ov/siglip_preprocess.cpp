#include "models/llava_ov/siglip_preprocess.h"

#include <ATen/ATen.h>

#include "io/tensor_io.h"
#include "models/vision_ops.h"
#include "util/error.h"

namespace once {

at::Tensor siglipPreprocess(const at::Tensor& frames, const SiglipPreprocessConfig& c) {
    checkFrames(frames);
    if (frames.size(0) == 0) {
        return at::empty({0, 3, c.height, c.width}, at::kFloat);
    }
    // [T, 3, H, W] as a channels-last view: the layout the uint8 kernel works in.
    at::Tensor x = frames.to(at::kCPU).permute({0, 3, 1, 2});
    if (x.size(2) != c.height || x.size(3) != c.width) {
        // torchvision skips equal sizes too; the antialiased kernel is PIL's bicubic (a = -0.5)
        // with rounding back to uint8, so the result matches the Hugging Face processor.
        x = at::_upsample_bicubic2d_aa(x, {c.height, c.width}, /*align_corners=*/false);
    }
    // Hugging Face fuses rescale and normalise, in float32: (x - mean·(1/r)) / (std·(1/r)).
    auto scaled = [&](const std::array<double, 3>& v) {
        const at::Tensor t = at::tensor({float(v[0]), float(v[1]), float(v[2])}, at::kFloat);
        return (t * float(1.0 / c.rescaleFactor)).view({1, 3, 1, 1});
    };
    const at::Tensor mean = scaled(c.mean), sd = scaled(c.std);
    return ((x.to(at::kFloat) - mean) / sd).contiguous();
}

}  // namespace once
