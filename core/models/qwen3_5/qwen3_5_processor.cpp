#include "models/qwen3_5/qwen3_5_processor.h"

#include <ATen/ATen.h>

#include <cstdio>

#include "io/tensor_io.h"
#include "models/vision_ops.h"
#include "tokenizer/bpe_tokenizer.h"
#include "util/error.h"

namespace once {
namespace {

std::string trim(const std::string& s) {
    const char* ws = " \t\n\r\f\v";
    const std::size_t a = s.find_first_not_of(ws);
    if (a == std::string::npos) {
        return {};
    }
    return s.substr(a, s.find_last_not_of(ws) - a + 1);
}

std::string rtrim(const std::string& s) {
    const std::size_t e = s.find_last_not_of(" \t\n\r\f\v");
    return e == std::string::npos ? std::string() : s.substr(0, e + 1);
}

}  // namespace

Qwen3_5PixelValues qwen3_5Preprocess(const at::Tensor& frames, const Qwen3_5VideoSettings& s) {
    checkFrames(frames);
    const std::int64_t T = frames.size(0);
    if (T > kMaxQwen35Frames) {
        fail("too many frames for one video", {}, "frames",
             "at most " + std::to_string(kMaxQwen35Frames), std::to_string(T));
    }
    const auto [rh, rw] = qwen3_5SmartResize(T, frames.size(1), frames.size(2), s);
    at::Tensor x = frames.to(at::kCPU).permute({0, 3, 1, 2});
    if (x.size(2) != rh || x.size(3) != rw) {
        // torchvision's resize of uint8 tensors: PIL's antialiased bicubic, rounded to uint8.
        x = at::_upsample_bicubic2d_aa(x, {rh, rw}, /*align_corners=*/false);
    }
    at::Tensor v = x.to(at::kFloat);
    if (s.doNormalize) {
        // Fused as transformers does: (x - mean / r) / (std / r), in F32.
        auto scaled = [&](const std::array<double, 3>& c) {
            const at::Tensor t = at::tensor({float(c[0]), float(c[1]), float(c[2])}, at::kFloat);
            return (s.doRescale ? t * float(1.0 / s.rescaleFactor) : t).view({1, 3, 1, 1});
        };
        v = (v - scaled(s.mean)) / scaled(s.std);
    } else if (s.doRescale) {
        v = v * float(s.rescaleFactor);
    }
    // Temporal pairs: the last frame repeats to fill the last one.
    const std::int64_t tp = s.temporalPatchSize, p = s.patchSize, m = s.mergeSize;
    if (const std::int64_t pad = (tp - T % tp) % tp) {
        v = at::cat({v, v.narrow(0, T - 1, 1).expand({pad, 3, rh, rw})}, 0);
    }
    const std::int64_t gt = v.size(0) / tp, gh = rh / p, gw = rw / p;
    v = v.reshape({gt, tp, 3, gh / m, m, p, gw / m, m, p})
            .permute({0, 3, 6, 4, 7, 2, 1, 5, 8})
            .reshape({gt * gh * gw, 3 * tp * p * p})
            .contiguous();
    return {v, {gt, gh, gw}};
}

Qwen3_5VideoPrompt buildQwen3_5VideoPrompt(const BpeTokenizer& tok, const std::string& question,
                                           const std::vector<double>& timestamps,
                                           const Qwen3_5Grid& grid, std::int64_t merge,
                                           const std::string& system, Qwen3_5VideoLayout layout) {
    if (trim(question).empty()) {
        fail("the question is empty", {}, "question", "some text", "empty");
    }
    if (merge < 1 || grid.h % merge || grid.w % merge || grid.h < merge || grid.w < merge) {
        fail("the video grid does not fit the merge size", {}, "video_grid_thw",
             "h and w multiples of " + std::to_string(merge),
             std::to_string(grid.h) + " x " + std::to_string(grid.w));
    }
    if (std::int64_t(timestamps.size()) != grid.t) {
        fail("one timestamp per temporal group is needed", {}, "timestamps", std::to_string(grid.t),
             std::to_string(timestamps.size()));
    }
    Qwen3_5VideoPrompt out;
    for (const char* t :
         {"<|im_start|>", "<|im_end|>", "<|vision_start|>", "<|vision_end|>", "<|video_pad|>"}) {
        tok.requireTokenId(t);  // throws naming the tokenizer file
    }
    out.videoTokenId = tok.requireTokenId("<|video_pad|>");
    out.tokensPerGroup = (grid.h / merge) * (grid.w / merge);
    std::string video;
    std::string pads;
    pads.reserve(std::size_t(out.tokensPerGroup) * 13);
    for (std::int64_t i = 0; i < out.tokensPerGroup; ++i) {
        pads += "<|video_pad|>";
    }
    for (double t : timestamps) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "<%.1f seconds>", t);
        video += buf;
        video += "<|vision_start|>" + pads + "<|vision_end|>";
    }
    if (layout == Qwen3_5VideoLayout::Transformers5) {
        video = "<|vision_start|>" + video + "<|vision_end|>";
    }
    std::string text;
    if (!trim(system).empty()) {
        text += "<|im_start|>system\n" + trim(system) + "<|im_end|>\n";
    }
    // The template trims the rendered content (video first): the question's trailing
    // whitespace goes, its leading whitespace stays.
    text += "<|im_start|>user\n" + video + rtrim(question) + "<|im_end|>\n";
    text += "<|im_start|>assistant\n<think>\n\n</think>\n\n";
    out.ids = tok.encode(text);
    out.text = std::move(text);
    for (std::size_t i = 0; i < out.ids.size(); ++i) {
        if (out.ids[i] == out.videoTokenId && (i == 0 || out.ids[i - 1] != out.videoTokenId)) {
            out.groupStarts.push_back(std::int64_t(i));
        }
    }
    if (std::int64_t(out.groupStarts.size()) != grid.t) {
        // The question itself spelled "<|video_pad|>": refuse rather than misplace the video.
        fail("the question contains video placeholder tokens", {}, "question", "no <|video_pad|>",
             std::to_string(out.groupStarts.size() - grid.t) + " extra");
    }
    return out;
}

}  // namespace once
