#include "encode/encode_job.h"

#include <ATen/ATen.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "util/error.h"

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

}  // namespace

EncodedVideo encodeVideo(const std::string& video, VisualEncoder& encoder,
                         const EncodeOptions& options, Progress* progress, EncodeReport* report) {
    const auto t0 = std::chrono::steady_clock::now();
    const at::ScalarType stored = storeType(options.storeDtype);
    DecodeEncodeOptions de;
    de.sampling = options.sampling;
    de.limits = options.videoLimits;
    de.hashSource = true;
    DecodedVideo d = decodeAndEncode(video, encoder, de, progress);
    EncodedVideo& f = d.video;
    f.features = f.features.to(at::kCPU).to(stored).contiguous();
    if (f.layoutTokenCount() > 0) {
        f.layoutTokens = f.layoutTokens.to(at::kCPU).to(stored).contiguous();
    } else {
        f.layoutTokens = at::Tensor();
    }
    if (f.attention.defined()) {
        f.attention = f.attention.to(at::kCPU).to(at::kFloat).contiguous();
    }
    if (report) {
        report->video = video;
        report->backbone = f.backbone;
        report->sampling = f.sampling;
        report->sourceSha256 = f.sourceSha256;
        report->info = d.info;
        report->frames = f.numFrames();
        report->sampledFrames = std::int64_t(d.frameIndices.size());
        report->patches = f.patchesPerFrame();
        report->dim = f.dim();
        report->gridH = f.gridH;
        report->gridW = f.gridW;
        report->decodeSeconds = d.decodeSeconds;
        report->encodeSeconds = d.encodeSeconds;
        report->totalSeconds = secondsSince(t0);
    }
    return std::move(d.video);
}

EncodeReport encodeVideoToFile(const std::string& video, const std::string& output,
                               const EncodeOptions& options, Progress* progress) {
    const auto t0 = std::chrono::steady_clock::now();
    checkOutputPath(output, options.replace);  // before the weights load and the video decodes
    auto encoder = makeVisualEncoder(options.backbone, options.encoder);
    EncodeReport report;
    report.notices = encoder->notices();
    saveFeatureFile(encodeVideo(video, *encoder, options, progress, &report), output,
                    options.replace);
    report.output = output;
    report.totalSeconds = secondsSince(t0);
    return report;
}

nlohmann::json encodeReportJson(const EncodeReport& r) {
    return {
        {"video", r.video},
        {"output", r.output},
        {"backbone", r.backbone},
        {"sampling", r.sampling},
        {"notices", r.notices},
        {"source_sha256", r.sourceSha256},
        {"frames", r.frames},
        {"sampled_frames", r.sampledFrames},
        {"patches", r.patches},
        {"dim", r.dim},
        {"grid", std::to_string(r.gridH) + "x" + std::to_string(r.gridW)},
        {"video_info",
         {{"container", r.info.container},
          {"codec", r.info.codec},
          {"width", r.info.width},
          {"height", r.info.height},
          {"frame_count", r.info.frameCount},
          {"fps", r.info.fps},
          {"duration", r.info.duration}}},
        {"seconds",
         {{"decode", r.decodeSeconds}, {"encode", r.encodeSeconds}, {"total", r.totalSeconds}}}};
}

}  // namespace once
