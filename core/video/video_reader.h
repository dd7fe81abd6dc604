#pragma once
// Video input: any container/codec the system FFmpeg decodes, or a folder of numbered frames
// (JPEG/PNG, as MVBench ships).
//
// Frame counting (exact, decoder-based): frameCount is the number of frames the decoder
// returns for the best video stream, which is what iterating PyAV's container.decode(video=0)
// yields. Container metadata (nb_frames) is absent for MPEG-PS and Ogg and is not trusted:
// probeVideo counts demuxed packets (no decoding), and readFrames decodes the whole stream,
// so when the decoder returns a different number of frames than packets it re-samples with
// the decoded count (one extra pass, rare) and info.frameCount is the decoded count.
//
// Timestamps: seconds of the frame's best-effort timestamp relative to the stream's start
// (the first frame of a stream with a start offset, like MPEG-PS, is at 0). fps is the
// stream's average frame rate (PyAV average_rate), else its guessed rate.
//
// Size: probeVideo reports the container's frame size; readFrames returns frames at the size
// the decoder outputs (PyAV's to_ndarray), which a few decoders pad (Theora in newer FFmpeg).
//
// Frame folders: files *.jpg/*.jpeg/*.png sorted by the number in their name (natural order),
// all of one size; fps is kFrameFolderFps and frame i is at i / fps.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "util/progress.h"
#include "video/sampling_rule.h"

namespace once {

/// Frame rate assumed for frame folders (MVBench's frame-folder tasks use 3 FPS).
constexpr double kFrameFolderFps = 3.0;

/// Largest frame accepted by default, width x height (8192 x 8192, 8K video is 7680 x 4320):
/// checked on the container's size before decoding, given to the decoder as its max_pixels
/// and checked on every decoded frame, so a 16000 x 16000 image renamed .mp4 is refused before
/// its pixels are allocated.
constexpr std::int64_t kMaxFramePixels = std::int64_t(8192) * 8192;
/// Largest total of the sampled frames by default, T x H x W x 3 bytes (4 GiB).
constexpr std::int64_t kMaxDecodedBytes = std::int64_t(4) << 30;
/// Frame rates outside (0, kMaxVideoFps] in a container are treated as unknown (uniform
/// sampling still works; fps rules and windows then report the missing rate).
constexpr double kMaxVideoFps = 10000;

/// What one video may make the reader allocate; raise the fields for unusual inputs.
struct VideoLimits {
    std::int64_t maxFramePixels = kMaxFramePixels;    ///< width x height of one frame
    std::int64_t maxDecodedBytes = kMaxDecodedBytes;  ///< T x H x W x 3 of the sampled frames
};

struct VideoInfo {
    std::string path, codec, container;  ///< container "frames" and codec "jpeg"/"png" for folders
    int width = 0, height = 0;
    std::int64_t frameCount = 0;
    double fps = 0, duration = 0;  ///< duration = frameCount / fps
};

/// Opens the file (or folder) and counts its frames. Throws OnceError naming the file when it
/// is missing, not a video, has no video stream, an unsupported codec, no frames, more than
/// kMaxVideoFrames frames, or frames larger than limits.maxFramePixels.
VideoInfo probeVideo(const std::string& path, const VideoLimits& limits = {});

struct SampledFrames {
    at::Tensor rgb;  ///< uint8 [T, H, W, 3]
    std::vector<double> times;
    std::vector<std::int64_t> indices;
    VideoInfo info;
};

/// Decodes the frames `rule` selects (RGB24, BT.601/709 as the stream says, full size).
/// Besides probeVideo's errors, throws OnceError naming the file when the rule selects no frame
/// (a window past the end) or the sampled frames would exceed limits.maxDecodedBytes. Only the
/// file itself is read: a playlist or concat script naming other files is refused.
SampledFrames readFrames(const std::string& path, const SamplingRule& rule,
                         Progress* progress = nullptr, const VideoLimits& limits = {});

/// True when `path` is a folder (read as numbered frames).
bool isFrameFolder(const std::string& path);

}  // namespace once
