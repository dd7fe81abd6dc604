#pragma once
// The FFmpeg pieces shared by core/video's decoders (internal to core/video; only ffmpeg_*.cpp
// and frame_stream.cpp include it): one opened container with the decoder of its best video
// stream, read only from the file itself, and the conversion of decoded frames to RGB24.
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
}

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "util/progress.h"
#include "video/ffmpeg_container.h"
#include "video/video_reader.h"

struct SwsContext;

namespace once::ffmpeg {

/// "WxH".
std::string sizeText(std::int64_t w, std::int64_t h);
/// Refuses a frame size that is not positive or above limits.maxFramePixels.
void checkFrameSize(std::int64_t w, std::int64_t h, const VideoLimits& limits,
                    const std::string& path);
/// Refuses `frames` frames of w x h RGB24 above limits.maxDecodedBytes.
void checkDecodedBytes(std::int64_t frames, std::int64_t w, std::int64_t h,
                       const VideoLimits& limits, const std::string& path);

/// An opened container with the decoder of its best video stream.
class Source {
  public:
    /// Opens `path`; throws OnceError naming the file (see video_reader.h's probeVideo).
    Source(const std::string& path, Progress* progress, const VideoLimits& limits);
    ~Source();
    Source(const Source&) = delete;
    Source& operator=(const Source&) = delete;

    VideoInfo info() const;

    /// Reads the next packet of the video stream; false at the end of the file. A read error
    /// after some packets counts as the end (truncated files decode what they hold).
    bool nextPacket(AVPacket* pkt);

    /// Decodes the whole stream, calling onFrame(frame) for each decoded frame in order.
    template <class F>
    void decodeAll(F&& onFrame) {
        AVPacket* pkt = av_packet_alloc();
        AVFrame* frame = av_frame_alloc();
        auto drain = [&]() {
            while (avcodec_receive_frame(dec_, frame) == 0) {
                onFrame(frame);
                av_frame_unref(frame);
            }
        };
        try {
            bool more = true;
            while (more) {
                more = nextPacket(pkt);
                // Undecodable packets (corruption) are skipped, as FFmpeg's tools do.
                avcodec_send_packet(dec_, more ? pkt : nullptr);
                if (more) {
                    av_packet_unref(pkt);
                }
                drain();
            }
        } catch (...) {
            av_frame_free(&frame);
            av_packet_free(&pkt);
            throw;
        }
        av_frame_free(&frame);
        av_packet_free(&pkt);
    }

    /// The next decoded frame in display order into `frame` (unreferenced first); false at the
    /// end of the stream. For playback, where decodeAll's one pass does not fit.
    bool decodeNext(AVFrame* frame);
    /// Moves to the key frame at or before `seconds` (stream time, as seconds() counts) and
    /// empties the decoder; false when the container cannot seek (the caller reopens).
    bool seek(double seconds);
    /// The stream's duration in seconds as the container states it (0 when unknown).
    double statedDuration() const;

    /// Seconds of `f` from the stream's start (its nominal index / fps without a timestamp).
    double seconds(const AVFrame* f, std::int64_t index, double fps);

    const std::string& path() const { return path_; }
    const VideoLimits& limits() const { return limits_; }

  private:
    void open(const std::string& path, Progress* progress);

    std::string path_;
    VideoLimits limits_;
    std::unique_ptr<Container> container_;
    AVFormatContext* fmt_ = nullptr;  ///< container_'s
    AVCodecContext* dec_ = nullptr;
    AVStream* st_ = nullptr;
    int stream_ = -1;
    std::int64_t start_ = AV_NOPTS_VALUE;
    bool flushed_ = false;  ///< decodeNext has sent the end of the stream to the decoder
};

/// Converts decoded frames to packed RGB24 of one fixed size (bilinear, the frame's own YUV
/// matrix and range, as PyAV's to_ndarray("rgb24") does).
class RgbConverter {
  public:
    RgbConverter(int width, int height) : w_(width), h_(height) {}
    ~RgbConverter();
    RgbConverter(const RgbConverter&) = delete;
    RgbConverter& operator=(const RgbConverter&) = delete;

    /// Writes `f` as width x height x 3 bytes to `out`; throws OnceError naming `path` for a
    /// pixel format swscale does not convert.
    void convert(const AVFrame* f, std::uint8_t* out, const std::string& path);

  private:
    int w_, h_;
    SwsContext* ctx_ = nullptr;
    std::vector<std::uint8_t> scratch_;
};

}  // namespace once::ffmpeg
