#pragma once
// FFmpeg back end of video_reader (implemented in ffmpeg_decoder.cpp, built only with
// ONCE_WITH_FFMPEG). Internal to core/video: use video_reader.h.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "util/progress.h"
#include "video/video_reader.h"

namespace once::ffmpeg {

/// Opens the file, checks it has a decodable video stream and counts its packets.
VideoInfo probe(const std::string& path, Progress* progress, const VideoLimits& limits);

struct Decoded {
    at::Tensor rgb;                  ///< uint8 [indices.size(), H, W, 3]
    std::vector<double> times;       ///< per requested index
    std::int64_t decodedFrames = 0;  ///< frames the decoder returned in total
    int width = 0, height = 0;       ///< size of the decoded frames (0 when none decoded)
};

/// Decodes the whole stream and keeps the frames at `indices` (ascending, repeats allowed).
/// Indices past the decoded count leave their slot unfilled; callers compare decodedFrames.
/// Throws OnceError when a frame exceeds limits.maxFramePixels or the frames at `indices`
/// limits.maxDecodedBytes, before allocating them.
Decoded decodeFrames(const std::string& path, const VideoInfo& info,
                     const std::vector<std::int64_t>& indices, Progress* progress,
                     const VideoLimits& limits);

/// Decodes the first frame of an image file (JPEG, PNG, anything FFmpeg reads) to RGB24.
at::Tensor decodeImage(const std::string& path, const VideoLimits& limits);

}  // namespace once::ffmpeg
