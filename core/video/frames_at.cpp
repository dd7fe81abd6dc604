#include "video/frames_at.h"

#include <ATen/ATen.h>

#include "util/error.h"
#include "util/work_counters.h"
#ifdef ONCE_HAVE_FFMPEG
#include "video/ffmpeg_decoder.h"
#endif

namespace once {

SampledFrames readFramesAt(const std::string& path, const std::vector<std::int64_t>& indices,
                           Progress* progress, const VideoLimits& limits) {
    SampledFrames out;
    out.info = probeVideo(path, limits);
    for (std::size_t i = 0; i < indices.size(); ++i) {
        if (indices[i] < 0 || indices[i] >= out.info.frameCount ||
            (i > 0 && indices[i] <= indices[i - 1])) {
            fail("frame numbers must be ascending, distinct and inside the video", path,
                 "frame index", "0.." + std::to_string(out.info.frameCount - 1) + ", ascending",
                 std::to_string(indices[i]));
        }
    }
    const std::int64_t frameBytes = std::int64_t(out.info.width) * out.info.height * 3;
    if (frameBytes > 0 && std::int64_t(indices.size()) > limits.maxDecodedBytes / frameBytes) {
        fail("the frames asked for would not fit the decoding limit", path, "frames",
             "at most " + std::to_string(limits.maxDecodedBytes) +
                 " bytes of frames (VideoLimits::maxDecodedBytes)",
             std::to_string(indices.size()) + " frames of " + std::to_string(out.info.width) + "x" +
                 std::to_string(out.info.height));
    }
    out.indices = indices;
    if (indices.empty()) {
        out.rgb = at::empty({0, out.info.height, out.info.width, 3}, at::kByte);
        return out;
    }
    if (isFrameFolder(path)) {
        // One image per frame: a one-frame window at the frame's nominal time i / fps.
        std::vector<at::Tensor> frames;
        for (std::int64_t i : indices) {
            SamplingRule one;
            one.count = 1;
            one.start = one.end = double(i) / out.info.fps;
            SampledFrames f = readFrames(path, one, nullptr, limits);
            if (f.indices.size() != 1 || f.indices.front() != i) {
                fail("a frame of the folder could not be read", path, "frame index",
                     std::to_string(i), f.indices.empty() ? "none" : std::to_string(f.indices[0]));
            }
            frames.push_back(f.rgb[0]);
            out.times.push_back(f.times.front());
        }
        out.rgb = at::stack(frames);
        return out;
    }
#ifdef ONCE_HAVE_FFMPEG
    countWork(workCounters().decodes);
    auto decoded = ffmpeg::decodeFrames(path, out.info, indices, progress, limits);
    if (decoded.decodedFrames <= indices.back()) {
        fail("the decoder returned fewer frames than the video holds", path, "frames",
             "at least " + std::to_string(indices.back() + 1),
             std::to_string(decoded.decodedFrames));
    }
    out.rgb = decoded.rgb;
    out.times = std::move(decoded.times);
    if (decoded.width > 0) {
        out.info.width = decoded.width;
        out.info.height = decoded.height;
    }
    return out;
#else
    (void)progress;
    fail("this build has no video decoding (configured with ONCE_WITH_FFMPEG=OFF)", path, "decoder",
         "a build with FFmpeg", "none");
#endif
}

}  // namespace once
