#include "encode/decode_encode.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>

#include "models/visual_encoder.h"
#include "util/sha256.h"

namespace fs = std::filesystem;

namespace once {
namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

// "a/b/clip.mp4" -> "clip.mp4"; "a/frames/" -> "frames".
std::string videoSourceName(std::string path) {
    while (path.size() > 1 && path.back() == '/') {
        path.pop_back();
    }
    auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string sourceSha256(const std::string& path) {
    if (!isFrameFolder(path)) {
        return Sha256::hexOfFile(path);
    }
    // Same order as the reader: probe lists the frames; hash names and contents.
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path)) {
        if (e.is_regular_file()) {
            names.push_back(e.path().filename().string());
        }
    }
    std::sort(names.begin(), names.end());
    Sha256 h;
    for (const auto& n : names) {
        std::string line = n + "\t" + Sha256::hexOfFile(path + "/" + n) + "\n";
        h.update(line.data(), line.size());
    }
    return h.hexDigest();
}

DecodedVideo decodeAndEncode(const std::string& path, VisualEncoder& encoder,
                             const DecodeEncodeOptions& options, Progress* progress) {
    DecodedVideo out;
    const auto t0 = std::chrono::steady_clock::now();
    SampledFrames frames = readFrames(path, options.sampling, progress, options.limits);
    out.decodeSeconds = secondsSince(t0);
    const auto t1 = std::chrono::steady_clock::now();
    out.video = encoder.encode(frames.rgb, progress);
    out.encodeSeconds = secondsSince(t1);

    EncodedVideo& v = out.video;
    v.frameTimes = encoder.featureFrameTimes(frames.times, frames.indices, frames.info.fps);
    v.sampling = options.sampling.toString();
    v.source = videoSourceName(path);
    if (options.hashSource) {
        v.sourceSha256 = sourceSha256(path);
    }
    std::string idx;
    for (auto i : frames.indices) {
        idx += (idx.empty() ? "" : ",") + std::to_string(i);
    }
    v.extra["frame_indices"] = idx;
    v.extra["video_frames"] = std::to_string(frames.info.frameCount);
    v.extra["video_fps"] = std::to_string(frames.info.fps);
    v.extra["video_size"] =
        std::to_string(frames.info.width) + "x" + std::to_string(frames.info.height);
    out.info = frames.info;
    out.frameIndices = std::move(frames.indices);
    if (options.keepFrames) {
        out.frames = std::move(frames.rgb);
    }
    return out;
}

std::function<EncodedVideo(const std::string& path, Progress* progress)> lazyDecodeEncode(
    const std::string& backbone, const EncoderOptions& encoder,
    const DecodeEncodeOptions& options) {
    // Shared, so copies of the function (std::function copies its target) keep one encoder.
    auto built = std::make_shared<std::unique_ptr<VisualEncoder>>();
    return [backbone, encoder, options, built](const std::string& path, Progress* progress) {
        if (!*built) {
            *built = makeVisualEncoder(backbone, encoder);
        }
        return decodeAndEncode(path, **built, options, progress).video;
    };
}

}  // namespace once
