// The safe opening of one container file shared by core/video's FFmpeg readers. Every FFmpeg
// failure becomes a OnceError naming the file; the interrupt callback lets a cancelled Progress
// stop blocking reads.
#include "video/ffmpeg_container.h"

extern "C" {
#include <libavutil/log.h>
}

#include <filesystem>
#include <vector>

#include "util/error.h"
#include "util/json_file.h"
#include "util/regular_file.h"

namespace once::ffmpeg {
namespace {
int interruptCallback(void* opaque) {
    auto* progress = static_cast<Progress*>(opaque);
    return progress && progress->cancelled() ? 1 : 0;
}
}  // namespace

std::string avError(int code) {
    char buf[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, buf, sizeof buf);
    return buf;
}

Container::Container(const std::string& path, Progress* progress, std::int64_t maxFramePixels)
    : url_("file:" + path) {
    try {
        open(path, progress, maxFramePixels);
    } catch (...) {
        avformat_close_input(&fmt_);
        throw;
    }
}

Container::~Container() {
    avformat_close_input(&fmt_);
}

void Container::open(const std::string& path, Progress* progress, std::int64_t maxFramePixels) {
    // FFmpeg's own log lines would duplicate our errors on stderr.
    av_log_set_level(AV_LOG_QUIET);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        fail("video file not found", path, "path", "an existing file", "nothing");
    }
    if (std::filesystem::is_directory(path, ec)) {
        fail("expected a video file, found a folder", path, "path", "a file", "a folder");
    }
    // FFmpeg opens the name itself, blocking on a FIFO: refuse what is not a regular file
    // first (util/regular_file.h).
    requireRegularFile(path, "path");
    // Only this file is read, always as a local file ("file:" so that a name like
    // "concat:a|b" is not a protocol). Demuxers that open further resources are refused
    // by name before they start (concat and IMF open theirs in nested contexts that our
    // io_open does not see); the rest (HLS, DASH, image sequences) go through io_open,
    // which refuses every URL but this one.
    const AVInputFormat* format = probeFormat(path, progress);
    fmt_ = avformat_alloc_context();
    if (!fmt_) {
        fail("out of memory opening the video", path, "container", "memory", "none");
    }
    fmt_->interrupt_callback.callback = interruptCallback;
    fmt_->interrupt_callback.opaque = progress;
    fmt_->opaque = this;
    fmt_->io_open = &Container::ioOpen;
    AVDictionary* opts = nullptr;
    av_dict_set(&opts, "protocol_whitelist", "file", 0);
    int rc = avformat_open_input(&fmt_, url_.c_str(), format, &opts);
    av_dict_free(&opts);
    if (rc < 0) {
        fmt_ = nullptr;  // freed by avformat_open_input on failure
        if (progress) {
            progress->throwIfCancelled();  // the interrupt callback stopped the open
        }
        refusedOther(path);
        fail("not a video FFmpeg can read (" + avError(rc) + ")", path, "container",
             "a video container", "unreadable data");
    }
    // Stream probing decodes a first frame: the decoders it opens refuse frames above
    // the pixel limit before allocating them.
    std::vector<AVDictionary*> streamOpts(fmt_->nb_streams, nullptr);
    const std::string maxPixels = std::to_string(maxFramePixels);
    for (auto& d : streamOpts) {
        av_dict_set(&d, "max_pixels", maxPixels.c_str(), 0);
    }
    rc = avformat_find_stream_info(fmt_, streamOpts.empty() ? nullptr : streamOpts.data());
    for (auto& d : streamOpts) {
        av_dict_free(&d);
    }
    if (rc < 0 && progress) {
        progress->throwIfCancelled();
    }
    refusedOther(path);
    if (rc < 0) {
        fail("cannot read the stream information (" + avError(rc) + ")", path, "container",
             "a readable video stream", avError(rc));
    }
}

int Container::ioOpen(AVFormatContext* s, AVIOContext** pb, const char* url, int flags,
                      AVDictionary** options) {
    auto* self = static_cast<Container*>(s->opaque);
    if (!self || !url || self->url_ != url || (flags & AVIO_FLAG_WRITE)) {
        if (self && self->refused_.empty()) {
            self->refused_ = url ? url : "(null)";
        }
        return AVERROR(EPERM);
    }
    return avio_open2(pb, url, flags, &s->interrupt_callback, options);
}

const AVInputFormat* Container::probeFormat(const std::string& path, Progress* progress) {
    AVIOInterruptCB cb{interruptCallback, progress};
    AVIOContext* pb = nullptr;
    int rc = avio_open2(&pb, url_.c_str(), AVIO_FLAG_READ, &cb, nullptr);
    if (rc < 0) {
        fail("cannot open the video (" + avError(rc) + ")", path, "path", "a readable file",
             avError(rc));
    }
    const AVInputFormat* format = nullptr;
    rc = av_probe_input_buffer2(pb, &format, url_.c_str(), nullptr, 0, 0);
    avio_closep(&pb);
    if (rc < 0 || !format) {
        if (progress) {
            progress->throwIfCancelled();
        }
        fail("not a video FFmpeg can read (" + avError(rc) + ")", path, "container",
             "a video container", "unreadable data");
    }
    static const char* const kReferencing[] = {
        "concat", "hls",  "applehttp", "dash",        "imf", "webm_dash_manifest",
        "sdp",    "rtsp", "avisynth",  "vapoursynth", "tee"};
    const std::string name = format->name ? format->name : "";
    for (const char* r : kReferencing) {
        if (name == r) {
            fail(
                "the file is a playlist or script that refers to other files, which are "
                "not read",
                path, "container", "a self-contained video file", name);
        }
    }
    return format;
}

void Container::refusedOther(const std::string& path) const {
    if (!refused_.empty()) {
        fail("the file refers to another file or URL, which is not read", path, "container",
             "a self-contained video file", printableExcerpt(refused_, 200));
    }
}

}  // namespace once::ffmpeg
