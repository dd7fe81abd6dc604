#include "models/llava_ov/llava_projector.h"

#include <ATen/ATen.h>

#include "models/hf_checkpoint.h"
#include "models/llava_ov/siglip_vision.h"
#include "models/vision_ops.h"

namespace once {

LlavaProjector LlavaProjector::load(const HfCheckpoint& ck, std::int64_t inDim, std::int64_t outDim,
                                    const std::string& activation, at::ScalarType dtype,
                                    const std::string& device) {
    LlavaProjector p;
    p.activation_ = activation;
    p.file_ = ck.file("config.json");
    // transformers ≥ 5 saves `multi_modal_projector.*`, 4.x `model.multi_modal_projector.*`,
    // LLaVA-NeXT `model.mm_projector.0/2.*`.
    const std::string first = ck.firstPresent(
        {"multi_modal_projector.linear_1.weight", "model.multi_modal_projector.linear_1.weight",
         "model.mm_projector.0.weight", "mm_projector.0.weight"});
    const std::string base = first.substr(0, first.size() - std::string("0.weight").size());
    std::string l1, l2;
    if (first.find("multi_modal_projector") != std::string::npos) {
        const std::string root =
            first.substr(0, first.size() - std::string("linear_1.weight").size());
        l1 = root + "linear_1.";
        l2 = root + "linear_2.";
        p.layout_ = "hf";
    } else {
        l1 = base + "0.";
        l2 = base + "2.";
        p.layout_ = "mm_projector";
    }
    const at::TensorOptions to = at::TensorOptions().dtype(dtype).device(at::Device(device));
    p.w1_ = ck.get(l1 + "weight", {outDim, inDim}).to(to).contiguous();
    p.w2_ = ck.get(l2 + "weight", {outDim, outDim}).to(to).contiguous();
    if (ck.has(l1 + "bias") || ck.has(l2 + "bias")) {
        p.b1_ = ck.get(l1 + "bias", {outDim}).to(to).contiguous();
        p.b2_ = ck.get(l2 + "bias", {outDim}).to(to).contiguous();
    }
    return p;
}

at::Tensor LlavaProjector::forward(const at::Tensor& x) const {
    at::Tensor h = at::linear(x, w1_, b1_);
    h = applyHfActivation(h, activation_, file_, "projector_hidden_act");
    return at::linear(h, w2_, b2_);
}

}  // namespace once
