// FFmpeg back end of video_writer: the encoder, the muxer writing through our own AVIOContext
// into the AtomicFile's temporary file (so no name is opened twice and the rename stays ours), the
// RGB to yuv420p conversion, and the fixed GIF palette. Every failure names the file and carries
// FFmpeg's error text.
#include "video/ffmpeg_writer.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "util/error.h"
#include "video/ffmpeg_source.h"
extern "C" {
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace once {
namespace {
// Bytes of muxer output buffered before each write to the file.
constexpr int kIoBufferBytes = 1 << 16;
// Levels of the fixed GIF palette per channel (R x G x B = 252 colours; green, which the eye
// resolves best, gets the seventh level).
constexpr int kGifR = 6, kGifG = 7, kGifB = 6;

int level(std::uint8_t v, int levels) {
    return (int(v) * (levels - 1) + 127) / 255;
}
std::uint32_t levelValue(int i, int levels) {
    return std::uint32_t((i * 255 + (levels - 1) / 2) / (levels - 1));
}
}  // namespace

VideoWriter::Impl::~Impl() {
    if (headerWritten && !finished) {
        av_write_trailer(fmt);  // frees the muxer's state; the temporary file goes anyway
    }
    sws_freeContext(sws);
    av_frame_free(&frame);
    av_packet_free(&pkt);
    avcodec_free_context(&enc);
    avformat_free_context(fmt);  // does not touch the custom io
    if (io) {
        av_freep(&io->buffer);
        avio_context_free(&io);
    }
}

void VideoWriter::Impl::failed(const std::string& what, int rc, const std::string& field) const {
    fail("cannot write the video: " + what + " (" + ffmpeg::avError(rc) + ")", path, field, "",
         ffmpeg::avError(rc));
}

int VideoWriter::Impl::writePacket(void* opaque, std::uint8_t* buf, int size) {
    const int fd = static_cast<Impl*>(opaque)->file->descriptor();
    int left = size;
    while (left > 0) {
        const ssize_t n = ::write(fd, buf + (size - left), std::size_t(left));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return n < 0 ? AVERROR(errno) : AVERROR(EIO);
        }
        left -= int(n);
    }
    return size;
}

std::int64_t VideoWriter::Impl::seekPacket(void* opaque, std::int64_t offset, int whence) {
    const int fd = static_cast<Impl*>(opaque)->file->descriptor();
    if (whence & AVSEEK_SIZE) {
        struct stat s {};
        return ::fstat(fd, &s) == 0 ? std::int64_t(s.st_size) : AVERROR(errno);
    }
    const off_t at = ::lseek(fd, off_t(offset), whence & ~AVSEEK_FORCE);
    return at < 0 ? AVERROR(errno) : std::int64_t(at);
}

/// Opens the first of the candidate encoders that opens (for MP4: mp4Codec's, libx264 then mpeg4
/// for automatic).
void VideoWriter::Impl::openEncoder(AVRational rate) {
    std::vector<const AVCodec*> candidates;
    if (gif) {
        candidates.push_back(avcodec_find_encoder(AV_CODEC_ID_GIF));
    } else {
        if (mp4Codec != Mp4Codec::mpeg4) {
            candidates.push_back(avcodec_find_encoder_by_name("libx264"));
        }
        if (mp4Codec != Mp4Codec::h264) {
            candidates.push_back(avcodec_find_encoder(AV_CODEC_ID_MPEG4));
        }
    }
    int rc = AVERROR_ENCODER_NOT_FOUND;
    for (const AVCodec* c : candidates) {
        if (!c) {
            continue;
        }
        avcodec_free_context(&enc);
        enc = avcodec_alloc_context3(c);
        if (!enc) {
            failed("no memory for the encoder", AVERROR(ENOMEM), "encoder");
        }
        enc->width = outW;
        enc->height = outH;
        enc->framerate = rate;
        enc->thread_count = 0;  // as many as the encoder finds useful
        // GIF delays count hundredths of a second; the others count frames.
        enc->time_base = gif ? AVRational{1, 100} : av_inv_q(rate);
        enc->pix_fmt = gif ? AV_PIX_FMT_PAL8 : AV_PIX_FMT_YUV420P;
        if (!gif) {
            // A key frame every two seconds: players (ours too) seek by key frames.
            enc->gop_size = std::max(1, int(std::lround(av_q2d(rate) * 2)));
            // swscale's RGB to YUV is BT.601 limited range: say so in the stream.
            enc->colorspace = AVCOL_SPC_SMPTE170M;
            enc->color_range = AVCOL_RANGE_MPEG;
            enc->color_primaries = AVCOL_PRI_SMPTE170M;
            enc->color_trc = AVCOL_TRC_SMPTE170M;
        }
        if (std::string(c->name) == "libx264") {
            // CRF 18: visually lossless for flat overlay colours; "fast" keeps an export
            // of a minute-long clip within a minute on a laptop.
            av_opt_set(enc->priv_data, "preset", "fast", 0);
            av_opt_set(enc->priv_data, "crf", "18", 0);
        } else if (!gif) {
            enc->flags |= AV_CODEC_FLAG_QSCALE;  // constant quality, like CRF
            enc->global_quality = FF_QP2LAMBDA * 3;
        }
        if (fmt->oformat->flags & AVFMT_GLOBALHEADER) {
            enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        }
        rc = avcodec_open2(enc, c, nullptr);
        if (rc >= 0) {
            codec = c->name;
            return;
        }
    }
    const std::string wanted = gif                           ? "GIF"
                               : mp4Codec == Mp4Codec::h264  ? "MP4 (H.264, libx264)"
                               : mp4Codec == Mp4Codec::mpeg4 ? "MP4 (MPEG-4 Part 2)"
                                                             : "MP4";
    failed("no encoder for " + wanted + " opens", rc, "encoder");
}

void VideoWriter::Impl::open(double fps, OutputReplace replace) {
    av_log_set_level(AV_LOG_QUIET);  // encoder statistics on stderr; errors come as ours
    const AVRational rate = av_d2q(fps, 65535);  // MPEG-4 Part 2 time bases fit 16 bits
    int rc = avformat_alloc_output_context2(&fmt, nullptr, gif ? "gif" : "mp4", nullptr);
    if (rc < 0 || !fmt) {
        failed("no muxer for the container", rc, "container");
    }
    openEncoder(rate);
    st = avformat_new_stream(fmt, nullptr);
    if (!st) {
        failed("no memory for the stream", AVERROR(ENOMEM), "container");
    }
    st->time_base = enc->time_base;
    st->avg_frame_rate = rate;
    rc = avcodec_parameters_from_context(st->codecpar, enc);
    if (rc < 0) {
        failed("cannot pass the encoder's parameters to the muxer", rc, "container");
    }
    frame = av_frame_alloc();
    pkt = av_packet_alloc();
    if (!frame || !pkt) {
        failed("no memory for the frame", AVERROR(ENOMEM), "encoder");
    }
    frame->format = enc->pix_fmt;
    frame->width = outW;
    frame->height = outH;
    rc = av_frame_get_buffer(frame, 0);
    if (rc < 0) {
        failed("cannot allocate the frame", rc, "encoder");
    }
    file = std::make_unique<AtomicFile>(path, replace);  // the folder and the name, checked
    auto* buffer = static_cast<unsigned char*>(av_malloc(kIoBufferBytes));
    io = buffer ? avio_alloc_context(buffer, kIoBufferBytes, 1, this, nullptr, &writePacket,
                                     &seekPacket)
                : nullptr;
    if (!io) {
        av_free(buffer);
        failed("no memory for the output buffer", AVERROR(ENOMEM), "output");
    }
    fmt->pb = io;
    fmt->flags |= AVFMT_FLAG_CUSTOM_IO;
    rc = avformat_write_header(fmt, nullptr);
    if (rc < 0) {
        failed("cannot write the container header", rc, "output");
    }
    headerWritten = true;
}

/// Sends `f` (null: the end) to the encoder and writes the packets it gives back.
void VideoWriter::Impl::encode(AVFrame* f) {
    int rc = avcodec_send_frame(enc, f);
    if (rc < 0) {
        failed("the encoder refused a frame", rc, "encoder");
    }
    while ((rc = avcodec_receive_packet(enc, pkt)) >= 0) {
        av_packet_rescale_ts(pkt, enc->time_base, st->time_base);
        pkt->stream_index = st->index;
        rc = av_interleaved_write_frame(fmt, pkt);  // takes the packet's reference
        if (rc < 0) {
            failed("writing to the file failed", rc, "output");
        }
    }
    if (rc != AVERROR(EAGAIN) && rc != AVERROR_EOF) {
        failed("the encoder failed", rc, "encoder");
    }
}

/// Quantises a frame to the fixed palette into the PAL8 frame.
void VideoWriter::Impl::toPalette(const std::uint8_t* src, int bpp, bool bgr, std::size_t stride) {
    auto* pal = reinterpret_cast<std::uint32_t*>(frame->data[1]);
    for (int i = 0; i < 256; ++i) {
        const int r = i / (kGifG * kGifB), g = i / kGifB % kGifG, b = i % kGifB;
        pal[i] = i < kGifR * kGifG * kGifB ? 0xff000000u | levelValue(r, kGifR) << 16 |
                                                 levelValue(g, kGifG) << 8 | levelValue(b, kGifB)
                                           : 0xff000000u;
    }
    for (int y = 0; y < height; ++y) {
        const std::uint8_t* p = src + std::size_t(y) * stride;
        std::uint8_t* out = frame->data[0] + std::ptrdiff_t(y) * frame->linesize[0];
        for (int x = 0; x < width; ++x, p += bpp) {
            const std::uint8_t r = bgr ? p[2] : p[0], b = bgr ? p[0] : p[2];
            out[x] = std::uint8_t((level(r, kGifR) * kGifG + level(p[1], kGifG)) * kGifB +
                                  level(b, kGifB));
        }
    }
}

void VideoWriter::Impl::write(const std::uint8_t* pixels, WriterPixels layout, std::size_t stride) {
    const int bpp = layout == WriterPixels::rgb24 ? 3 : 4;
    if (stride == 0) {
        stride = std::size_t(width) * std::size_t(bpp);
    }
    int rc = av_frame_make_writable(frame);  // the encoder may still hold the last one
    if (rc < 0) {
        failed("cannot reuse the frame buffer", rc, "encoder");
    }
    if (gif) {
        toPalette(pixels, bpp, layout == WriterPixels::bgra, stride);
        frame->pts = std::llround(double(frames) * 100.0 / av_q2d(enc->framerate));
    } else {
        if (outW != width || outH != height) {
            const std::size_t row = std::size_t(outW) * std::size_t(bpp);
            padded.resize(row * std::size_t(outH));
            for (int y = 0; y < outH; ++y) {
                std::uint8_t* out = padded.data() + std::size_t(y) * row;
                const std::uint8_t* in = pixels + std::size_t(std::min(y, height - 1)) * stride;
                std::memcpy(out, in, std::size_t(width) * std::size_t(bpp));
                if (outW != width) {  // repeat the last pixel of the row
                    std::memcpy(out + std::size_t(width) * std::size_t(bpp),
                                in + std::size_t(width - 1) * std::size_t(bpp), std::size_t(bpp));
                }
            }
            pixels = padded.data();
            stride = row;
        }
        const AVPixelFormat src = layout == WriterPixels::rgb24  ? AV_PIX_FMT_RGB24
                                  : layout == WriterPixels::rgba ? AV_PIX_FMT_RGBA
                                                                 : AV_PIX_FMT_BGRA;
        sws = sws_getCachedContext(sws, outW, outH, src, outW, outH, AV_PIX_FMT_YUV420P,
                                   SWS_BILINEAR | SWS_ACCURATE_RND, nullptr, nullptr, nullptr);
        if (!sws) {
            failed("cannot convert the frames to yuv420p", AVERROR(EINVAL), "pixel format");
        }
        const std::uint8_t* in[4] = {pixels, nullptr, nullptr, nullptr};
        const int inStride[4] = {int(stride), 0, 0, 0};
        sws_scale(sws, in, inStride, 0, outH, frame->data, frame->linesize);
        frame->pts = frames;
    }
    encode(frame);
    ++frames;
}

void VideoWriter::Impl::finish() {
    encode(nullptr);
    int rc = av_write_trailer(fmt);
    if (rc < 0) {
        failed("cannot write the container's index", rc, "output");
    }
    avio_flush(io);
    if (io->error < 0) {
        failed("writing to the file failed", io->error, "output");
    }
    file->commit();
    finished = true;
}

}  // namespace once
