#pragma once
// FFmpeg back end of video_writer (ffmpeg_writer.cpp, built only with ONCE_WITH_FFMPEG): the
// writer's state and the steps that need FFmpeg. Internal to core/video: use video_writer.h.
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
}

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "util/atomic_file.h"
#include "video/video_writer.h"

struct SwsContext;

namespace once {

struct VideoWriter::Impl {
    std::string path, codec;
    bool gif = false;  ///< GIF, else MP4
    Mp4Codec mp4Codec = Mp4Codec::automatic;
    int width = 0, height = 0, outW = 0, outH = 0;  ///< frames given, frames in the file
    std::int64_t frames = 0;
    bool finished = false;
    std::unique_ptr<AtomicFile> file;
    AVFormatContext* fmt = nullptr;
    AVCodecContext* enc = nullptr;
    AVStream* st = nullptr;
    AVIOContext* io = nullptr;
    SwsContext* sws = nullptr;
    AVFrame* frame = nullptr;
    AVPacket* pkt = nullptr;
    std::vector<std::uint8_t> padded;  ///< an odd-sized frame with its last column/row repeated
    bool headerWritten = false;

    ~Impl();
    /// Opens the encoder, the muxer and the temporary file (path, gif and sizes set, checked).
    void open(double fps, OutputReplace replace);
    /// Converts and encodes one frame; counts it.
    void write(const std::uint8_t* pixels, WriterPixels layout, std::size_t stride);
    /// Flushes the encoder, writes the container's index, renames the file into place.
    void finish();

  private:
    [[noreturn]] void failed(const std::string& what, int rc, const std::string& field) const;
    static int writePacket(void* opaque, std::uint8_t* buf, int size);
    static std::int64_t seekPacket(void* opaque, std::int64_t offset, int whence);
    /// Opens the first of the candidate encoders that opens (for MP4: mp4Codec's, libx264 then
    /// mpeg4 for automatic).
    void openEncoder(AVRational rate);
    /// Sends `f` (null: the end) to the encoder and writes the packets it gives back.
    void encode(AVFrame* f);
    /// Quantises a frame to the fixed palette into the PAL8 frame.
    void toPalette(const std::uint8_t* src, int bpp, bool bgr, std::size_t stride);
};

}  // namespace once
