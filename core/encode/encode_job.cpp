#include "encode/encode_job.h"

#include <ATen/ATen.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/sha256.h"

namespace fs = std::filesystem;

namespace once {
namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

at::ScalarType storeType(const std::string& name) {
    if (name == "float32" || name == "f32") {
        return at::kFloat;
    }
    if (name == "bfloat16" || name == "bf16") {
        return at::kBFloat16;
    }
    fail("unknown feature storage dtype", {}, "store-dtype", "float32 or bfloat16", name);
}

/// "a/b/clip.mp4" -> "clip.mp4"; "a/frames/" -> "frames".
std::string baseName(std::string path) {
    while (path.size() > 1 && path.back() == '/') {
        path.pop_back();
    }
    auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

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

FeatureFile encodeVideo(const std::string& video, VisualEncoder& encoder,
                        const EncodeOptions& options, Progress* progress, EncodeReport* report) {
    const auto t0 = std::chrono::steady_clock::now();
    const at::ScalarType stored = storeType(options.storeDtype);
    SampledFrames frames = readFrames(video, options.sampling, progress, options.videoLimits);
    const double decodeSeconds = secondsSince(t0);
    const auto t1 = std::chrono::steady_clock::now();
    EncodedVideo enc = encoder.encode(frames.rgb, progress);
    const double encodeSeconds = secondsSince(t1);

    FeatureFile f;
    f.features = enc.features.to(at::kCPU).to(stored).contiguous();
    f.frameTimes =
        at::from_blob(frames.times.data(), {std::int64_t(frames.times.size())}, at::kDouble)
            .clone();
    f.backbone = encoder.backbone();
    f.grid = std::to_string(enc.gridH) + "x" + std::to_string(enc.gridW);
    f.sampling = options.sampling.toString();
    f.source = baseName(video);
    f.sourceSha256 = sourceSha256(video);
    f.featureSource = encoder.featureSource();
    std::string idx;
    for (auto i : frames.indices) {
        if (!idx.empty()) {
            idx += ',';
        }
        idx += std::to_string(i);
    }
    f.extra["frame_indices"] = idx;
    f.extra["video_frames"] = std::to_string(frames.info.frameCount);
    f.extra["video_fps"] = std::to_string(frames.info.fps);
    f.extra["video_size"] =
        std::to_string(frames.info.width) + "x" + std::to_string(frames.info.height);
    if (enc.layoutTokens.defined() && enc.layoutTokens.size(0) > 0) {
        f.layoutTokens = enc.layoutTokens.to(f.features.scalar_type()).cpu().contiguous();
    }
    if (enc.attention.defined()) {
        f.attention = enc.attention.to(at::kFloat).cpu().contiguous();
    }
    if (report) {
        report->video = video;
        report->backbone = f.backbone;
        report->sampling = f.sampling;
        report->sourceSha256 = f.sourceSha256;
        report->info = frames.info;
        report->frames = f.features.size(0);
        report->patches = f.features.size(1);
        report->dim = f.features.size(2);
        report->gridH = enc.gridH;
        report->gridW = enc.gridW;
        report->decodeSeconds = decodeSeconds;
        report->encodeSeconds = encodeSeconds;
        report->totalSeconds = secondsSince(t0);
    }
    return f;
}

EncodeReport encodeVideoToFile(const std::string& video, const std::string& output,
                               const EncodeOptions& options, Progress* progress) {
    const auto t0 = std::chrono::steady_clock::now();
    auto encoder = makeVisualEncoder(options.backbone, options.encoder);
    EncodeReport report;
    report.notices = encoder->notices();
    FeatureFile f = encodeVideo(video, *encoder, options, progress, &report);
    f.save(output);
    report.output = output;
    report.totalSeconds = secondsSince(t0);
    return report;
}

std::string encodeReportJson(const EncodeReport& r) {
    nlohmann::json j;
    j["video"] = r.video;
    j["output"] = r.output;
    j["backbone"] = r.backbone;
    j["sampling"] = r.sampling;
    j["notices"] = r.notices;
    j["source_sha256"] = r.sourceSha256;
    j["frames"] = r.frames;
    j["patches"] = r.patches;
    j["dim"] = r.dim;
    j["grid"] = std::to_string(r.gridH) + "x" + std::to_string(r.gridW);
    j["video_info"] = {{"container", r.info.container},
                       {"codec", r.info.codec},
                       {"width", r.info.width},
                       {"height", r.info.height},
                       {"frame_count", r.info.frameCount},
                       {"fps", r.info.fps},
                       {"duration", r.info.duration}};
    j["seconds"] = {
        {"decode", r.decodeSeconds}, {"encode", r.encodeSeconds}, {"total", r.totalSeconds}};
    return j.dump();
}

}  // namespace once
