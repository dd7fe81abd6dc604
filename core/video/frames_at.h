#pragma once
// Decoding chosen frames of a video by their frame numbers, where readFrames (video_reader.h)
// samples by a rule: the codebook's exemplars name the frames their patches come from
// (train/exemplar_pixels.h). A video file is decoded in one pass for all the frames asked for;
// a frame folder reads only the images asked for.
#include <cstdint>
#include <string>
#include <vector>

#include "video/video_reader.h"

namespace once {

/// The frames `indices` (ascending, distinct, each in 0..frameCount-1 of probeVideo) of the
/// video file or frame folder `path`: rgb [indices.size(), H, W, 3], their times and the
/// video's info. Throws OnceError naming the file: probeVideo's errors, indices out of order or
/// range, frames over limits.maxDecodedBytes (checked before decoding), a frame the decoder
/// did not return.
SampledFrames readFramesAt(const std::string& path, const std::vector<std::int64_t>& indices,
                           Progress* progress = nullptr, const VideoLimits& limits = {});

}  // namespace once
