// FFmpeg back end of audio_stream.h (built only with ONCE_WITH_FFMPEG; audio_stream.cpp is the
// stand-in without it): the best audio stream of an opened container (ffmpeg_container.h),
// decoded and converted by libswresample.
#include <algorithm>
#include <cmath>
#include <new>

#include "util/error.h"
#include "video/audio_stream.h"
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/channel_layout.h>
#include <libswresample/swresample.h>
}

#include "video/ffmpeg_container.h"
#include "video/video_reader.h"

namespace once {
namespace {
// Where to seek before a target: a little before it, so that the decoder (AAC and MP3 frames
// overlap their predecessors) and the resampler are warmed up when the target's samples come, and
// further back when the container's seek landed after it (Ogg seeks by bisection and may
// overshoot), as FrameStream does; the last step reopens the file.
constexpr double kSeekRetreats[] = {0.25, 1.0, 5.0, 30.0};
constexpr double kTimeTolerance = 1e-3;

struct CodecDeleter {
    void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct SwrDeleter {
    void operator()(SwrContext* s) const { swr_free(&s); }
};
struct FrameDeleter {
    void operator()(AVFrame* f) const { av_frame_free(&f); }
};
struct PacketDeleter {
    void operator()(AVPacket* p) const { av_packet_free(&p); }
};

template <class T, class D>
std::unique_ptr<T, D> owned(T* p) {
    if (!p) {
        throw std::bad_alloc();
    }
    return std::unique_ptr<T, D>(p);
}

/// Refuses a channel count or rate outside the limits (of the stream, a frame or the output).
void checkShape(int channels, int rate, const std::string& path, const std::string& what) {
    if (channels < 1 || channels > kMaxAudioChannels) {
        fail("the " + what + " has an unsupported channel count", path, "audio channels",
             "1 to " + std::to_string(kMaxAudioChannels), std::to_string(channels));
    }
    if (rate < kMinAudioRate || rate > kMaxAudioRate) {
        fail("the " + what + " has an unsupported sample rate", path, "audio sample rate",
             std::to_string(kMinAudioRate) + " to " + std::to_string(kMaxAudioRate) + " Hz",
             std::to_string(rate) + " Hz");
    }
}
}  // namespace

struct AudioStream::Impl {
    std::string path;
    AudioFormat out;
    AudioInfo info;
    std::unique_ptr<ffmpeg::Container> container;
    AVStream* st = nullptr;
    int stream = -1;
    double clock0 = 0;  ///< seconds of the video's start in the audio stream's time
    std::unique_ptr<AVCodecContext, CodecDeleter> dec;
    std::unique_ptr<SwrContext, SwrDeleter> swr;
    int swrFormat = -1, swrRate = 0, swrChannels = 0;  ///< the converter's input
    std::unique_ptr<AVFrame, FrameDeleter> frame = owned<AVFrame, FrameDeleter>(av_frame_alloc());
    std::unique_ptr<AVPacket, PacketDeleter> pkt =
        owned<AVPacket, PacketDeleter>(av_packet_alloc());
    bool flushed = false;    ///< the end of the stream was sent to the decoder
    bool ended = false;      ///< the decoder and converter are drained
    bool primed = false;     ///< `frame` holds a decoded frame next() has not used
    bool timeKnown = false;  ///< nextTime counts from a decoded frame
    double nextTime = 0;     ///< time of the next output frame
    double target = -1;      ///< after seek(): the next chunk starts here

    void open() {
        container = std::make_unique<ffmpeg::Container>(path, nullptr, kMaxFramePixels);
        AVFormatContext* fmt = container->get();
        const AVCodec* codec = nullptr;
        stream = av_find_best_stream(fmt, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0);
        if (stream == AVERROR_STREAM_NOT_FOUND) {
            stream = -1;
            return;  // no sound: not an error
        }
        if (stream < 0 || !codec) {
            const int any = av_find_best_stream(fmt, AVMEDIA_TYPE_AUDIO, -1, -1, nullptr, 0);
            const AVCodecID id =
                any >= 0 ? fmt->streams[any]->codecpar->codec_id : AV_CODEC_ID_NONE;
            fail("unsupported audio codec: no decoder in this FFmpeg", path, "audio codec",
                 "a codec the system FFmpeg decodes", avcodec_get_name(id));
        }
        st = fmt->streams[stream];
        info.codec = avcodec_get_name(st->codecpar->codec_id);
        info.channels = st->codecpar->ch_layout.nb_channels;
        info.rate = st->codecpar->sample_rate;
        checkShape(info.channels, info.rate, path, "audio stream");
        const double base = av_q2d(st->time_base);
        if (!(base > 0) || !std::isfinite(base)) {
            fail("the audio stream has no time base", path, "audio time base",
                 "a positive fraction",
                 std::to_string(st->time_base.num) + "/" + std::to_string(st->time_base.den));
        }
        if (st->duration != AV_NOPTS_VALUE && st->duration > 0) {
            info.statedDuration = double(st->duration) * base;
        } else if (fmt->duration != AV_NOPTS_VALUE && fmt->duration > 0) {
            info.statedDuration = double(fmt->duration) / AV_TIME_BASE;
        }
        // The video's clock: the start of the stream the picture comes from (ffmpeg_source's
        // choice of stream), else the sound's own start.
        const AVCodec* videoCodec = nullptr;
        const int video = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &videoCodec, 0);
        const AVStream* clockStream = video >= 0 ? fmt->streams[video] : st;
        clock0 = clockStream->start_time != AV_NOPTS_VALUE
                     ? double(clockStream->start_time) * av_q2d(clockStream->time_base)
                     : 0.0;
        if (!std::isfinite(clock0)) {
            clock0 = 0;
        }
        dec.reset(avcodec_alloc_context3(codec));
        if (!dec || avcodec_parameters_to_context(dec.get(), st->codecpar) < 0) {
            fail("cannot set up the audio decoder", path, "audio codec", "a decoder context",
                 codec->name);
        }
        const int rc = avcodec_open2(dec.get(), codec, nullptr);
        if (rc < 0) {
            fail("cannot open the audio decoder (" + ffmpeg::avError(rc) + ")", path, "audio codec",
                 "an openable decoder", codec->name);
        }
        for (unsigned i = 0; i < fmt->nb_streams; ++i) {
            if (int(i) != stream) {
                fmt->streams[i]->discard = AVDISCARD_ALL;
            }
        }
    }

    void restart() {
        if (dec) {
            avcodec_flush_buffers(dec.get());
        }
        swr.reset();  // its delay belongs to the old position
        flushed = ended = primed = timeKnown = false;
    }

    /// The next decoded frame into `frame`; false at the end of the stream.
    bool decode() {
        if (primed) {
            primed = false;
            return true;
        }
        while (true) {
            const int rc = avcodec_receive_frame(dec.get(), frame.get());
            if (rc == 0) {
                return true;
            }
            if (rc != AVERROR(EAGAIN) || flushed) {
                return false;  // the end (or a decoder that gave up: the end as well)
            }
            bool got = false;
            while (av_read_frame(container->get(), pkt.get()) >= 0) {
                got = pkt->stream_index == stream;
                if (got) {
                    break;
                }
                av_packet_unref(pkt.get());
            }
            // Undecodable packets (corruption) are skipped, as FFmpeg's tools do; a read error
            // after some packets is the end (truncated files play what they hold).
            avcodec_send_packet(dec.get(), got ? pkt.get() : nullptr);
            av_packet_unref(pkt.get());
            flushed = !got;
        }
    }

    /// Seconds of the decoded `frame` on the video's clock (the running time without a stamp).
    double frameTime() const {
        std::int64_t ts = frame->best_effort_timestamp;
        if (ts == AV_NOPTS_VALUE) {
            ts = frame->pts;
        }
        if (ts == AV_NOPTS_VALUE) {
            return timeKnown ? nextTime : 0.0;
        }
        // In double: hostile stamps (INT64_MIN) must not overflow or give NaN times.
        const double t = double(ts) * av_q2d(st->time_base) - clock0;
        return std::isfinite(t) ? t : (timeKnown ? nextTime : 0.0);
    }

    /// Sets the converter up for the decoded frame's format, rate and channels.
    void configure() {
        const int channels = frame->ch_layout.nb_channels;
        checkShape(channels, frame->sample_rate, path, "decoded audio");
        if (frame->nb_samples > kMaxAudioFrameSamples) {
            fail("a decoded audio frame is too long", path, "audio frame size",
                 "at most " + std::to_string(kMaxAudioFrameSamples) + " samples a channel",
                 std::to_string(frame->nb_samples));
        }
        if (swr && swrFormat == frame->format && swrRate == frame->sample_rate &&
            swrChannels == channels) {
            return;
        }
        AVChannelLayout in{}, outLayout{};
        if (frame->ch_layout.order == AV_CHANNEL_ORDER_UNSPEC ||
            av_channel_layout_copy(&in, &frame->ch_layout) < 0) {
            av_channel_layout_default(&in, channels);
        }
        av_channel_layout_default(&outLayout, out.channels);
        SwrContext* s = nullptr;
        int rc = swr_alloc_set_opts2(&s, &outLayout, AV_SAMPLE_FMT_FLT, out.rate, &in,
                                     AVSampleFormat(frame->format), frame->sample_rate, 0, nullptr);
        av_channel_layout_uninit(&in);
        av_channel_layout_uninit(&outLayout);
        swr.reset(s);
        if (rc >= 0) {
            rc = swr_init(swr.get());
        }
        if (rc < 0) {
            const char* name = av_get_sample_fmt_name(AVSampleFormat(frame->format));
            fail("cannot convert the decoded audio (" + ffmpeg::avError(rc) + ")", path,
                 "audio sample format", "a format libswresample converts",
                 name ? name : "unknown (" + std::to_string(frame->format) + ")");
        }
        swrFormat = frame->format;
        swrRate = frame->sample_rate;
        swrChannels = channels;
    }

    /// Converts `frame` (or, with `drain`, what the converter still holds) into `chunk`.
    void convert(AudioChunk& chunk, bool drain) {
        const int inSamples = drain ? 0 : frame->nb_samples;
        const int room = swr_get_out_samples(swr.get(), inSamples);
        if (room < 0 || room > kMaxAudioChunkFrames) {
            fail("the converted audio would exceed one chunk's limit", path, "audio frame size",
                 "at most " + std::to_string(kMaxAudioChunkFrames) + " frames",
                 std::to_string(room));
        }
        chunk.samples.resize(std::size_t(room) * std::size_t(out.channels));
        auto* dst = reinterpret_cast<std::uint8_t*>(chunk.samples.data());
        const int n = swr_convert(
            swr.get(), &dst, room,
            drain ? nullptr : const_cast<const std::uint8_t**>(frame->extended_data), inSamples);
        if (n < 0) {
            fail("cannot convert the decoded audio (" + ffmpeg::avError(n) + ")", path,
                 "audio samples", "convertible samples", "an error");
        }
        chunk.samples.resize(std::size_t(n) * std::size_t(out.channels));
    }

    /// Places `chunk` on the clock, cutting what precedes a seek target; false when nothing of
    /// it is left.
    bool place(AudioChunk& chunk) {
        const std::int64_t frames = chunk.frames();
        chunk.time = nextTime;
        nextTime += double(frames) / out.rate;
        if (target < 0 || frames == 0) {
            return frames > 0;
        }
        const double end = chunk.time + double(frames) / out.rate;
        if (end <= target + 0.5 / out.rate) {
            return false;  // all before the target
        }
        const std::int64_t shift = std::llround((target - chunk.time) * out.rate);
        const auto ch = std::size_t(out.channels);
        if (shift > 0) {
            chunk.samples.erase(chunk.samples.begin(),
                                chunk.samples.begin() + std::ptrdiff_t(std::size_t(shift) * ch));
        } else if (shift < 0 && frames - shift <= kMaxAudioChunkFrames) {
            // The sound starts after the target: silence up to it.
            chunk.samples.insert(chunk.samples.begin(), std::size_t(-shift) * ch, 0.0f);
        }
        if (shift > 0 || frames - shift <= kMaxAudioChunkFrames) {
            chunk.time = target;
            nextTime = target + double(chunk.frames()) / out.rate;
        }
        target = -1;
        return true;
    }
};

AudioStream::AudioStream(const std::string& path, const AudioFormat& output)
    : impl_(std::make_unique<Impl>()) {
    checkShape(output.channels, output.rate, path, "audio output");
    impl_->path = path;
    impl_->out = output;
    impl_->open();
}

AudioStream::~AudioStream() = default;

bool AudioStream::hasAudio() const {
    return impl_->stream >= 0;
}

const AudioInfo& AudioStream::info() const {
    return impl_->info;
}

const AudioFormat& AudioStream::format() const {
    return impl_->out;
}

void AudioStream::seek(double seconds) {
    Impl& d = *impl_;
    if (!hasAudio()) {
        return;
    }
    seconds = std::isfinite(seconds) ? std::max(0.0, seconds) : 0.0;
    const double base = av_q2d(d.st->time_base);
    for (double back : kSeekRetreats) {
        const double at = seconds - back;
        const double ts = (at + d.clock0) / base;
        if (at <= 0.0 || !(std::abs(ts) < 9e18) ||
            av_seek_frame(d.container->get(), d.stream, std::int64_t(ts), AVSEEK_FLAG_BACKWARD) <
                0) {
            break;  // from the start: reopened below
        }
        d.restart();
        if (!d.decode()) {
            break;
        }
        d.primed = true;
        if (d.frameTime() <= seconds + kTimeTolerance) {
            d.target = seconds;
            return;  // landed at or before the target: next() cuts up to it
        }
    }
    d.dec.reset();
    d.container.reset();
    d.restart();
    d.open();
    d.target = seconds;
}

bool AudioStream::next(AudioChunk& chunk) {
    Impl& d = *impl_;
    chunk.samples.clear();
    chunk.channels = d.out.channels;
    chunk.time = d.nextTime;
    while (hasAudio() && !d.ended) {
        if (!d.decode()) {
            d.ended = true;
            if (!d.swr) {
                return false;
            }
            d.convert(chunk, true);  // the converter's last samples
            return d.place(chunk);
        }
        if (d.frame->nb_samples <= 0) {
            continue;
        }
        d.configure();
        if (!d.timeKnown) {
            d.nextTime = d.frameTime();
            d.timeKnown = true;
        }
        d.convert(chunk, false);
        if (d.place(chunk)) {
            return true;
        }
    }
    return false;
}

}  // namespace once
