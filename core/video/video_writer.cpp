// VideoWriter: the format from the suffix and the checks of size, rate and frame count, made
// before FFmpeg is touched; the encoding itself is ffmpeg_writer.cpp's (none without FFmpeg).
#include "video/video_writer.h"

#include <algorithm>
#include <cctype>

#include "util/error.h"
#ifdef ONCE_HAVE_FFMPEG
#include "video/ffmpeg_writer.h"
#endif

namespace once {
namespace {
enum class Kind { mp4, gif, unknown };

Kind kindOf(const std::string& path) {
    const auto dot = path.rfind('.');
    std::string suffix = dot == std::string::npos ? std::string() : path.substr(dot + 1);
    std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return suffix == "mp4" ? Kind::mp4 : suffix == "gif" ? Kind::gif : Kind::unknown;
}
}  // namespace

#ifndef ONCE_HAVE_FFMPEG
struct VideoWriter::Impl {
    std::string path, codec;
    bool gif = false;
    Mp4Codec mp4Codec = Mp4Codec::automatic;
    int width = 0, height = 0, outW = 0, outH = 0;
    std::int64_t frames = 0;
    bool finished = false;

    void open(double, OutputReplace) {
        fail("this build has no FFmpeg: videos cannot be written", path, "build",
             "ONCE_WITH_FFMPEG", "off");
    }
    void write(const std::uint8_t*, WriterPixels, std::size_t) {}
    void finish() {}
};
#endif

bool isWritableVideoPath(const std::string& path) {
    return kindOf(path) != Kind::unknown;
}

VideoWriter::VideoWriter(const std::string& path, int width, int height, double fps,
                         OutputReplace replace, Mp4Codec mp4Codec)
    : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    m.path = path;
    const Kind kind = kindOf(path);
    if (kind == Kind::unknown) {
        fail("unknown video format: the file name must end in .mp4 or .gif", path, "suffix",
             ".mp4 or .gif", path.substr(std::min(path.size(), path.rfind('.'))));
    }
    if (width < 1 || height < 1 || width > kMaxWrittenSide || height > kMaxWrittenSide ||
        std::int64_t(width) * height > kMaxWrittenFramePixels) {
        fail("the frame size is outside what the writer takes", path, "size",
             "1 to " + std::to_string(kMaxWrittenSide) + " a side, at most " +
                 std::to_string(kMaxWrittenFramePixels) + " pixels",
             std::to_string(width) + "x" + std::to_string(height));
    }
    m.gif = kind == Kind::gif;
    m.mp4Codec = mp4Codec;
    const double maxFps = m.gif ? kMaxGifFps : kMaxWriterFps;
    if (!(fps > 0 && fps <= maxFps)) {
        fail("the frame rate is outside what the format takes", path, "fps",
             "above 0, at most " + std::to_string(int(maxFps)), std::to_string(fps));
    }
    m.width = width;
    m.height = height;
    // 4:2:0 halves the chroma planes: MP4 frames get an even size (the last column/row repeated).
    m.outW = m.gif ? width : (width + 1) / 2 * 2;
    m.outH = m.gif ? height : (height + 1) / 2 * 2;
    m.open(fps, replace);
}

VideoWriter::~VideoWriter() = default;

void VideoWriter::write(const std::uint8_t* pixels, WriterPixels layout, std::size_t stride) {
    Impl& m = *impl_;
    if (m.finished) {
        fail("a frame was written after the video was finished", m.path, "frames");
    }
    if (m.frames >= kMaxWrittenFrames) {
        fail("the clip has more frames than the writer takes", m.path, "frames",
             "at most " + std::to_string(kMaxWrittenFrames), std::to_string(m.frames + 1));
    }
    m.write(pixels, layout, stride);
}

void VideoWriter::finish() {
    Impl& m = *impl_;
    if (m.finished) {
        return;
    }
    if (m.frames == 0) {
        fail("the clip has no frames", m.path, "frames", "at least one frame", "none");
    }
    m.finish();
}

const std::string& VideoWriter::codec() const {
    return impl_->codec;
}
int VideoWriter::outputWidth() const {
    return impl_->outW;
}
int VideoWriter::outputHeight() const {
    return impl_->outH;
}
std::int64_t VideoWriter::framesWritten() const {
    return impl_->frames;
}
const std::string& VideoWriter::path() const {
    return impl_->path;
}

}  // namespace once
