#pragma once
// Sequential decoding for playback: the frames of a video in display order from any point, each
// converted to RGB at a size bounded for display, one at a time. readFrames (video_reader.h)
// samples frames for the encoder and holds them all; a player needs every frame, from wherever
// the playhead is, and only a few at once (the studio's player keeps those around its cursor,
// widgets/player/playback_buffer.h). Frame times are readFrames' times, so a played frame and a
// sampled frame with the same time are the same picture.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "video/video_reader.h"

namespace once {

/// One decoded frame for display.
struct PlaybackFrame {
    std::vector<std::uint8_t> rgb;  ///< packed RGB24, width x height x 3 bytes
    int width = 0, height = 0;
    double time = 0;  ///< seconds from the stream's start (readFrames' frame times)
};

class FrameStream {
  public:
    /// Opens the video file `path`. Frames come scaled (aspect kept, never enlarged) to fit
    /// maxWidth x maxHeight. Throws OnceError naming the file as probeVideo does (missing,
    /// not a video, no video stream, frames over limits.maxFramePixels), also for a frame
    /// folder (frames to show one by one, not a stream to play) and for a video whose first
    /// frame does not decode.
    FrameStream(const std::string& path, int maxWidth, int maxHeight,
                const VideoLimits& limits = {});
    ~FrameStream();
    FrameStream(const FrameStream&) = delete;
    FrameStream& operator=(const FrameStream&) = delete;

    /// Container, codec, the stream's frame size and rate (frameCount is not counted: 0).
    const VideoInfo& info() const;
    /// The duration the container states, else 0; the last frame's time tells the truth.
    double statedDuration() const;
    /// Size of the frames next() returns.
    int outputWidth() const;
    int outputHeight() const;

    /// Positions the stream so that next() returns the last frame at or before `seconds`
    /// (the first frame for a time before it), then the frames after it in order.
    void seek(double seconds);
    /// The next frame in display order into `frame`; false at the end of the stream.
    bool next(PlaybackFrame& frame);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace once
