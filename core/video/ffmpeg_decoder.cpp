// FFmpeg probing and decoding for video_reader (the container and the RGB conversion are
// ffmpeg_source.h's). Every FFmpeg failure becomes a OnceError naming the file.
#include "video/ffmpeg_decoder.h"

#include <ATen/ATen.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "util/error.h"
#include "video/ffmpeg_source.h"

namespace once::ffmpeg {

VideoInfo probe(const std::string& path, Progress* progress, const VideoLimits& limits) {
    Source src(path, progress, limits);
    VideoInfo info = src.info();
    AVPacket* pkt = av_packet_alloc();
    std::int64_t packets = 0;
    while (src.nextPacket(pkt)) {
        packets += pkt->size > 0 ? 1 : 0;
        av_packet_unref(pkt);
        if (packets > kMaxVideoFrames) {
            av_packet_free(&pkt);
            fail("the video has too many frames", path, "frames",
                 "at most " + std::to_string(kMaxVideoFrames), "more");
        }
    }
    av_packet_free(&pkt);
    if (progress) {
        progress->throwIfCancelled();
    }
    info.frameCount = packets;
    if (packets == 0) {
        fail("the video stream has no frames", path, "frames", ">= 1", "0");
    }
    if (info.width <= 0 || info.height <= 0) {
        fail("the video stream has no frame size", path, "size", "width and height > 0",
             std::to_string(info.width) + "x" + std::to_string(info.height));
    }
    info.duration = info.fps > 0 ? double(info.frameCount) / info.fps : 0;
    return info;
}

Decoded decodeFrames(const std::string& path, const VideoInfo& info,
                     const std::vector<std::int64_t>& indices, Progress* progress,
                     const VideoLimits& limits) {
    Source src(path, progress, limits);
    Decoded out;
    const std::int64_t t = std::int64_t(indices.size());
    out.times.assign(indices.size(), 0.0);
    std::unique_ptr<RgbConverter> rgb;
    std::size_t next = 0;
    std::int64_t index = 0;
    std::int64_t frameBytes = 0;
    std::uint8_t* base = nullptr;
    if (progress) {
        progress->begin("decoding " + std::filesystem::path(path).filename().string(),
                        double(info.frameCount));
    }
    src.decodeAll([&](const AVFrame* f) {
        checkFrameSize(f->width, f->height, limits, path);
        if (!rgb) {
            // The first decoded frame fixes the output size (it can differ from the container's
            // when a decoder returns padding, as newer FFmpeg does for Theora).
            checkDecodedBytes(t, f->width, f->height, limits, path);
            out.width = f->width;
            out.height = f->height;
            out.rgb = at::zeros({t, out.height, out.width, 3}, at::kByte);
            frameBytes = std::int64_t(out.height) * out.width * 3;
            base = out.rgb.data_ptr<std::uint8_t>();
            rgb = std::make_unique<RgbConverter>(out.width, out.height);
        }
        double time = src.seconds(f, index, info.fps);
        while (next < indices.size() && indices[next] == index) {
            if (next > 0 && indices[next - 1] == index) {
                std::memcpy(base + std::int64_t(next) * frameBytes,
                            base + std::int64_t(next - 1) * frameBytes, std::size_t(frameBytes));
            } else {
                rgb->convert(f, base + std::int64_t(next) * frameBytes, path);
            }
            out.times[next] = time;
            ++next;
        }
        ++index;
        if (progress && (index % 16 == 0)) {
            progress->update(double(index));
        }
    });
    if (progress) {
        progress->throwIfCancelled();
    }
    out.decodedFrames = index;
    if (!out.rgb.defined()) {
        out.rgb = at::zeros({t, 0, 0, 3}, at::kByte);  // nothing decoded: the caller refuses
    }
    return out;
}

at::Tensor decodeImage(const std::string& path, const VideoLimits& limits) {
    Source src(path, nullptr, limits);
    VideoInfo info = src.info();
    at::Tensor out;
    src.decodeAll([&](const AVFrame* f) {
        if (out.defined()) {
            return;
        }
        checkFrameSize(f->width, f->height, limits, path);
        out = at::empty({f->height, f->width, 3}, at::kByte);
        RgbConverter rgb(f->width, f->height);
        rgb.convert(f, out.data_ptr<std::uint8_t>(), path);
    });
    if (!out.defined()) {
        fail("the image could not be decoded", path, "image", "one decodable frame",
             "no frame (" + info.codec + ")");
    }
    return out;
}

}  // namespace once::ffmpeg
