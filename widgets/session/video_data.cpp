#include "session/video_data.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>

namespace once::studio {

namespace {

/// Frames per feature frame: Qwen3.5's encoder merges temporal pairs (EncodedVideo::
/// temporalPatchSize); every other encoder has one feature frame per frame.
int framesPerFeatureFrame(const VideoData& video, std::int64_t frames) {
    const int k = video.temporalPatchSize;
    if (video.numFrames() <= 0 || frames <= video.numFrames()) {
        return 1;
    }
    // Only when the counts agree (ceil(frames / k) feature frames, the last pair padded).
    return k > 1 && k <= once::kMaxTemporalPatchSize && (frames + k - 1) / k == video.numFrames()
               ? k
               : 1;
}

}  // namespace

void attachFrames(VideoData& video, const at::Tensor& rgb, int maxSide) {
    video.frames.clear();
    video.patchColours.clear();
    if (!rgb.defined() || rgb.dim() != 4 || rgb.size(3) != 3 || rgb.size(0) == 0) {
        return;
    }
    at::Tensor frames = rgb.to(at::kByte).contiguous();
    // A feature frame of a temporal pair is drawn on the pair's first frame, and its cells
    // take the mean colour of both frames (the last frame repeats to fill the last pair, as
    // the encoder does).
    const int k = framesPerFeatureFrame(video, frames.size(0));
    if (k > 1) {
        const std::int64_t pad = (k - frames.size(0) % k) % k;
        if (pad > 0) {
            frames = at::cat({frames, frames.narrow(0, frames.size(0) - 1, 1)
                                          .expand({pad, frames.size(1), frames.size(2), 3})})
                         .contiguous();
        }
    }
    const int t = static_cast<int>(frames.size(0)) / k;
    const int h = static_cast<int>(frames.size(1));
    const int w = static_cast<int>(frames.size(2));
    video.frames.reserve(t);
    for (int i = 0; i < t; ++i) {
        const at::Tensor f = frames[std::int64_t(i) * k].contiguous();
        QImage image(f.data_ptr<std::uint8_t>(), w, h, 3 * w, QImage::Format_RGB888);
        image = image.copy();  // own the pixels: the tensor goes away
        if (std::max(w, h) > maxSide) {
            image = image.scaled(maxSide, maxSide, Qt::KeepAspectRatio, Qt::SmoothTransformation);
        }
        video.frames.push_back(image.convertToFormat(QImage::Format_RGB32));
    }
    if (video.gridH <= 0 || video.gridW <= 0) {
        return;
    }
    // Mean colour per patch region: one adaptive average pool over all frames at once.
    const at::Tensor chw = frames.permute({0, 3, 1, 2}).to(at::kFloat);
    at::Tensor pooled = at::adaptive_avg_pool2d(chw, {video.gridH, video.gridW});
    if (k > 1) {
        pooled = pooled.view({t, k, 3, video.gridH, video.gridW}).mean(1);
    }
    pooled = pooled.permute({0, 2, 3, 1})
                 .reshape({-1, 3})
                 .round()
                 .clamp(0, 255)
                 .to(at::kInt)
                 .contiguous();
    const auto* p = pooled.data_ptr<int>();
    video.patchColours.resize(pooled.size(0));
    for (std::size_t i = 0; i < video.patchColours.size(); ++i) {
        video.patchColours[i] = qRgb(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    }
}

}  // namespace once::studio
