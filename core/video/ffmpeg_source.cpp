// The video stream of an opened container (ffmpeg_container.h) and the RGB conversion shared by
// core/video's FFmpeg decoders. Every FFmpeg failure becomes a OnceError naming the file.
#include "video/ffmpeg_source.h"

extern "C" {
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <cmath>
#include <cstring>

#include "util/error.h"

namespace once::ffmpeg {

std::string sizeText(std::int64_t w, std::int64_t h) {
    return std::to_string(w) + "x" + std::to_string(h);
}

// Refuses a frame size that is not positive or above limits.maxFramePixels.
void checkFrameSize(std::int64_t w, std::int64_t h, const VideoLimits& limits,
                    const std::string& path) {
    if (w <= 0 || h <= 0) {
        fail("the video has frames without a size", path, "size", "width and height > 0",
             sizeText(w, h));
    }
    if (w > limits.maxFramePixels / h) {
        fail("the video's frames are too large", path, "size",
             "at most " + std::to_string(limits.maxFramePixels) +
                 " pixels a frame (VideoLimits::maxFramePixels)",
             sizeText(w, h));
    }
}

// Refuses `frames` frames of w x h RGB24 above limits.maxDecodedBytes (w * h is already
// bounded by maxFramePixels, so the product cannot overflow for any sane frame count).
void checkDecodedBytes(std::int64_t frames, std::int64_t w, std::int64_t h,
                       const VideoLimits& limits, const std::string& path) {
    const std::int64_t frameBytes = w * h * 3;
    if (frames > 0 && frameBytes > 0 && frames > limits.maxDecodedBytes / frameBytes) {
        fail("the sampled frames would not fit the decoding limit", path, "sampling",
             "at most " + std::to_string(limits.maxDecodedBytes) +
                 " bytes of frames (VideoLimits::maxDecodedBytes)",
             std::to_string(frames) + " frames of " + sizeText(w, h) + " = " +
                 std::to_string(double(frames) * double(frameBytes) / double(1 << 30)) + " GiB");
    }
}

Source::Source(const std::string& path, Progress* progress, const VideoLimits& limits)
    : path_(path), limits_(limits) {
    try {
        open(path, progress);
    } catch (...) {
        avcodec_free_context(&dec_);
        throw;
    }
}

Source::~Source() {
    avcodec_free_context(&dec_);
}

void Source::open(const std::string& path, Progress* progress) {
    container_ = std::make_unique<Container>(path, progress, limits_.maxFramePixels);
    fmt_ = container_->get();
    const AVCodec* codec = nullptr;
    stream_ = av_find_best_stream(fmt_, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (stream_ == AVERROR_STREAM_NOT_FOUND) {
        fail("the file has no video stream", path, "stream", "a video stream",
             std::to_string(fmt_->nb_streams) + " stream(s), none video");
    }
    if (stream_ < 0 || !codec) {
        AVCodecID id = AV_CODEC_ID_NONE;
        for (unsigned i = 0; i < fmt_->nb_streams; ++i) {
            if (fmt_->streams[i]->codecpar->codec_type == AVMEDIA_TYPE_VIDEO) {
                id = fmt_->streams[i]->codecpar->codec_id;
                break;
            }
        }
        std::string name = avcodec_get_name(id);
        if (id == AV_CODEC_ID_NONE) {
            AVStream* s = fmt_->streams[0];
            char tag[AV_FOURCC_MAX_STRING_SIZE] = {};
            av_fourcc_make_string(tag, s->codecpar->codec_tag);
            name = std::string("unknown (tag ") + tag + ")";
        }
        fail("unsupported video codec: no decoder in this FFmpeg", path, "codec",
             "a codec the system FFmpeg decodes", name);
    }
    st_ = fmt_->streams[stream_];
    const int w = st_->codecpar->width, h = st_->codecpar->height;
    if (w <= 0 || h <= 0) {
        // Also what a frame above the pixel limit leaves: the probing decoder refused it.
        fail("the video stream has no frame size (or frames above the size limit)", path, "size",
             "width and height > 0, at most " + std::to_string(limits_.maxFramePixels) + " pixels",
             sizeText(w, h));
    }
    checkFrameSize(w, h, limits_, path);
    dec_ = avcodec_alloc_context3(codec);
    if (!dec_ || avcodec_parameters_to_context(dec_, st_->codecpar) < 0) {
        fail("cannot set up the video decoder", path, "codec", "a decoder context", codec->name);
    }
    dec_->thread_count = 0;
    dec_->max_pixels = limits_.maxFramePixels;
    const int rc = avcodec_open2(dec_, codec, nullptr);
    if (rc < 0) {
        fail("cannot open the video decoder (" + avError(rc) + ")", path, "codec",
             "an openable decoder", codec->name);
    }
    for (unsigned i = 0; i < fmt_->nb_streams; ++i) {
        if (int(i) != stream_) {
            fmt_->streams[i]->discard = AVDISCARD_ALL;
        }
    }
}

VideoInfo Source::info() const {
    VideoInfo v;
    v.path = path_;
    v.container = fmt_->iformat->name;
    v.codec = avcodec_get_name(st_->codecpar->codec_id);
    v.width = st_->codecpar->width;
    v.height = st_->codecpar->height;
    AVRational rate = st_->avg_frame_rate;
    if (rate.num <= 0 || rate.den <= 0) {
        rate = av_guess_frame_rate(fmt_, st_, nullptr);
    }
    v.fps = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : 0;
    if (!(v.fps > 0 && v.fps <= kMaxVideoFps)) {
        v.fps = 0;  // absent or implausible: unknown
    }
    return v;
}

bool Source::nextPacket(AVPacket* pkt) {
    while (true) {
        int rc = av_read_frame(fmt_, pkt);
        if (rc < 0) {
            return false;
        }
        if (pkt->stream_index == stream_) {
            return true;
        }
        av_packet_unref(pkt);
    }
}

bool Source::decodeNext(AVFrame* frame) {
    av_frame_unref(frame);
    AVPacket* pkt = av_packet_alloc();
    bool got = false;
    while (true) {
        const int rc = avcodec_receive_frame(dec_, frame);
        if (rc == 0) {
            got = true;
            break;
        }
        if (rc != AVERROR(EAGAIN) || flushed_) {
            break;  // the end of the stream (or a decoder that gave up: the end as well)
        }
        if (nextPacket(pkt)) {
            // Undecodable packets (corruption) are skipped, as FFmpeg's tools do.
            avcodec_send_packet(dec_, pkt);
            av_packet_unref(pkt);
        } else {
            avcodec_send_packet(dec_, nullptr);
            flushed_ = true;
        }
    }
    av_packet_free(&pkt);
    return got;
}

bool Source::seek(double seconds) {
    const double base = av_q2d(st_->time_base);
    if (!(base > 0) || !std::isfinite(seconds)) {
        return false;
    }
    const std::int64_t start = start_ != AV_NOPTS_VALUE            ? start_
                               : st_->start_time != AV_NOPTS_VALUE ? st_->start_time
                                                                   : 0;
    const double ts = double(start) + std::max(0.0, seconds) / base;
    if (!(std::abs(ts) < 9e18)) {
        return false;
    }
    if (av_seek_frame(fmt_, stream_, std::int64_t(ts), AVSEEK_FLAG_BACKWARD) < 0) {
        return false;
    }
    avcodec_flush_buffers(dec_);
    flushed_ = false;
    return true;
}

double Source::statedDuration() const {
    if (st_->duration != AV_NOPTS_VALUE && st_->duration > 0) {
        const double d = double(st_->duration) * av_q2d(st_->time_base);
        if (std::isfinite(d) && d > 0) {
            return d;
        }
    }
    if (fmt_->duration != AV_NOPTS_VALUE && fmt_->duration > 0) {
        return double(fmt_->duration) / AV_TIME_BASE;
    }
    return 0;
}

double Source::seconds(const AVFrame* f, std::int64_t index, double fps) {
    std::int64_t ts = f->best_effort_timestamp;
    if (ts == AV_NOPTS_VALUE) {
        ts = f->pts;
    }
    const double nominal = fps > 0 ? double(index) / fps : 0;
    if (ts == AV_NOPTS_VALUE) {
        return nominal;
    }
    if (start_ == AV_NOPTS_VALUE) {
        start_ = st_->start_time != AV_NOPTS_VALUE ? st_->start_time : ts;
    }
    // In double: hostile timestamps (INT64_MIN against a large start) must not overflow,
    // and a zero time base must not give NaN or Inf times downstream (timeline bins).
    const double t = (double(ts) - double(start_)) * av_q2d(st_->time_base);
    return std::isfinite(t) ? t : nominal;
}

RgbConverter::~RgbConverter() {
    sws_freeContext(ctx_);
}

void RgbConverter::convert(const AVFrame* f, std::uint8_t* out, const std::string& path) {
    ctx_ = sws_getCachedContext(ctx_, f->width, f->height, AVPixelFormat(f->format), w_, h_,
                                AV_PIX_FMT_RGB24, SWS_BILINEAR, nullptr, nullptr, nullptr);
    if (!ctx_) {
        fail("cannot convert the decoded frames to RGB", path, "pixel format",
             "a format swscale converts",
             av_get_pix_fmt_name(AVPixelFormat(f->format))
                 ? av_get_pix_fmt_name(AVPixelFormat(f->format))
                 : "unknown");
    }
    const int full = f->color_range == AVCOL_RANGE_JPEG ? 1 : 0;
    const int* coeffs = sws_getCoefficients(int(f->colorspace));
    int* inv = nullptr;
    int* tab = nullptr;
    int srcRange = 0, dstRange = 0, brightness = 0, contrast = 0, saturation = 0;
    if (sws_getColorspaceDetails(ctx_, &inv, &srcRange, &tab, &dstRange, &brightness, &contrast,
                                 &saturation) >= 0) {
        // YUV-J formats are full range by definition; keep what swscale chose for them.
        sws_setColorspaceDetails(ctx_, coeffs, srcRange || full, coeffs, 1, brightness, contrast,
                                 saturation);
    }
    // swscale's SIMD paths may write past the end of a packed RGB row, so convert into a
    // padded scratch image and copy the rows out.
    const int stride = (w_ * 3 + 63) / 64 * 64 + 64;
    scratch_.resize(std::size_t(stride) * std::size_t(h_ + 2));
    std::uint8_t* dst[4] = {scratch_.data(), nullptr, nullptr, nullptr};
    int strides[4] = {stride, 0, 0, 0};
    sws_scale(ctx_, f->data, f->linesize, 0, f->height, dst, strides);
    for (int y = 0; y < h_; ++y) {
        std::memcpy(out + std::size_t(y) * std::size_t(w_) * 3,
                    scratch_.data() + std::size_t(y) * std::size_t(stride), std::size_t(w_) * 3);
    }
}

}  // namespace once::ffmpeg
