#include "video/frame_stream.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>

#include "util/error.h"
#ifdef ONCE_HAVE_FFMPEG
#include "video/ffmpeg_source.h"
#endif

namespace once {

#ifdef ONCE_HAVE_FFMPEG
namespace {
// How far before a seek target to start again when the container's seek landed after it (Ogg
// and MPEG-PS seek by bisection and may overshoot); the last step decodes from the start.
constexpr double kSeekRetreats[] = {0.0, 1.0, 5.0, 30.0};
constexpr double kTimeTolerance = 1e-3;

struct FrameDeleter {
    void operator()(AVFrame* f) const { av_frame_free(&f); }
};
using FramePtr = std::unique_ptr<AVFrame, FrameDeleter>;
FramePtr newFrame() {
    FramePtr f(av_frame_alloc());
    if (!f) {
        throw std::bad_alloc();
    }
    return f;
}
}  // namespace

struct FrameStream::Impl {
    std::string path;
    VideoLimits limits;
    int maxWidth, maxHeight;
    std::unique_ptr<ffmpeg::Source> src;
    VideoInfo info;
    double stated = 0;
    int outWidth = 0, outHeight = 0;
    std::unique_ptr<ffmpeg::RgbConverter> rgb;
    std::int64_t index = 0;  ///< nominal index of the next decoded frame (frames without times)
    FramePtr cur = newFrame(), held = newFrame();
    bool primed = false;  ///< `cur` holds a decoded frame not yet looked at by next()
    double primedTime = 0;
    double target = -1;  ///< after seek(): next() returns the last frame at or before it

    /// The next decoded frame into `cur` with its time; false at the end.
    bool pull(double& time) {
        if (primed) {
            primed = false;
            time = primedTime;
            return true;
        }
        if (!src->decodeNext(cur.get())) {
            return false;
        }
        ffmpeg::checkFrameSize(cur->width, cur->height, limits, path);
        time = src->seconds(cur.get(), index++, info.fps);
        return true;
    }

    /// Decodes one frame and keeps it for the next pull(); false at the end.
    bool prime() {
        double t = 0;
        primed = false;
        if (!pull(t)) {
            return false;
        }
        primed = true;
        primedTime = t;
        return true;
    }

    void reopen() {
        src.reset();
        src = std::make_unique<ffmpeg::Source>(path, nullptr, limits);
        index = 0;
        primed = false;
    }

    void convert(const AVFrame* f, double time, PlaybackFrame& out) {
        if (!rgb) {
            // The first decoded frame fixes the size (decoders may pad, as Theora does).
            const double scale =
                std::min({1.0, double(maxWidth) / f->width, double(maxHeight) / f->height});
            outWidth = std::max(1, int(std::lround(f->width * scale)));
            outHeight = std::max(1, int(std::lround(f->height * scale)));
            rgb = std::make_unique<ffmpeg::RgbConverter>(outWidth, outHeight);
        }
        out.width = outWidth;
        out.height = outHeight;
        out.time = time;
        out.rgb.resize(std::size_t(outWidth) * std::size_t(outHeight) * 3);
        rgb->convert(f, out.rgb.data(), path);
    }
};

FrameStream::FrameStream(const std::string& path, int maxWidth, int maxHeight,
                         const VideoLimits& limits)
    : impl_(std::make_unique<Impl>()) {
    if (isFrameFolder(path)) {
        fail("a frame folder is shown frame by frame, not played", path, "path", "a video file",
             "a folder");
    }
    if (maxWidth < 1 || maxHeight < 1) {
        fail("the playback size must be positive", path, "size", "at least 1x1",
             std::to_string(maxWidth) + "x" + std::to_string(maxHeight));
    }
    impl_->path = path;
    impl_->limits = limits;
    impl_->maxWidth = maxWidth;
    impl_->maxHeight = maxHeight;
    impl_->src = std::make_unique<ffmpeg::Source>(path, nullptr, limits);
    impl_->info = impl_->src->info();
    impl_->stated = impl_->src->statedDuration();
    // The first frame fixes the stream's start time (seconds()), which seeks count from.
    if (!impl_->prime()) {
        fail("the video's first frame does not decode", path, "frames", "a decodable frame",
             "none (" + impl_->info.codec + ")");
    }
}

FrameStream::~FrameStream() = default;

const VideoInfo& FrameStream::info() const {
    return impl_->info;
}

double FrameStream::statedDuration() const {
    return impl_->stated;
}

int FrameStream::outputWidth() const {
    return impl_->outWidth;
}

int FrameStream::outputHeight() const {
    return impl_->outHeight;
}

void FrameStream::seek(double seconds) {
    Impl& d = *impl_;
    seconds = std::isfinite(seconds) ? std::max(0.0, seconds) : 0.0;
    d.target = seconds;
    for (double back : kSeekRetreats) {
        const double at = std::max(0.0, seconds - back);
        if (at <= 0.0 || !d.src->seek(at)) {
            break;  // from the start: reopened below
        }
        d.index = d.info.fps > 0 ? std::int64_t(std::llround(at * d.info.fps)) : 0;
        d.primed = false;
        if (d.prime() && d.primedTime <= seconds + kTimeTolerance) {
            return;  // landed at or before the target: next() decodes forward to it
        }
    }
    d.reopen();
    d.prime();
}

bool FrameStream::next(PlaybackFrame& frame) {
    Impl& d = *impl_;
    double t = 0;
    if (d.target < 0) {
        if (!d.pull(t)) {
            return false;
        }
        d.convert(d.cur.get(), t, frame);
        return true;
    }
    // After a seek: the last frame at or before the target, the next one kept for later.
    const double target = d.target;
    d.target = -1;
    bool haveHeld = false;
    double heldTime = 0;
    while (d.pull(t)) {
        if (t <= target + kTimeTolerance) {
            av_frame_unref(d.held.get());
            av_frame_move_ref(d.held.get(), d.cur.get());
            heldTime = t;
            haveHeld = true;
            continue;
        }
        if (!haveHeld) {  // the target lies before the first frame
            d.convert(d.cur.get(), t, frame);
            return true;
        }
        d.primed = true;  // `cur` comes next
        d.primedTime = t;
        break;
    }
    if (!haveHeld) {
        return false;
    }
    d.convert(d.held.get(), heldTime, frame);
    return true;
}

#else

struct FrameStream::Impl {
    VideoInfo info;
};

FrameStream::FrameStream(const std::string& path, int, int, const VideoLimits&) {
    fail("this build has no video decoding (configured with ONCE_WITH_FFMPEG=OFF)", path, "decoder",
         "a build with FFmpeg", "none");
}
FrameStream::~FrameStream() = default;
const VideoInfo& FrameStream::info() const {
    return impl_->info;
}
double FrameStream::statedDuration() const {
    return 0;
}
int FrameStream::outputWidth() const {
    return 0;
}
int FrameStream::outputHeight() const {
    return 0;
}
void FrameStream::seek(double) {}
bool FrameStream::next(PlaybackFrame&) {
    return false;
}

#endif

}  // namespace once
