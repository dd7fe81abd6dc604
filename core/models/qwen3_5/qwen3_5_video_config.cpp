#include "models/qwen3_5/qwen3_5_video_config.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "models/processor_ranges.h"
#include "util/error.h"
#include "util/json_file.h"
#include "video/sampling_rule.h"

namespace once {
namespace {

std::int64_t pyRound(double x) {
    return std::int64_t(std::nearbyint(x));  // round half to even, as Python's round()
}

}  // namespace

Qwen3_5VideoSettings Qwen3_5VideoSettings::fromJson(const nlohmann::json& j,
                                                    const std::string& file,
                                                    const std::string& prefix) {
    Qwen3_5VideoSettings s;
    const std::string obj = prefix.empty() ? std::string() : prefix.substr(0, prefix.size() - 1);
    if (!j.is_object()) {
        fail("the video processor settings are not an object", file, obj, "an object",
             jsonTypeName(j));
    }
    auto find = [&](const char* key) { return jsonFind(j, key, file, obj); };
    auto integer = [&](const char* key, std::int64_t& v, std::int64_t lo, std::int64_t hi) {
        if (const nlohmann::json* m = find(key)) {
            v = jsonToInt(*m, file, prefix + key, lo, hi);
        }
    };
    auto boolean = [&](const char* key, bool& v) {
        if (const nlohmann::json* m = find(key)) {
            v = jsonToBool(*m, file, prefix + key);
        }
    };
    if (const nlohmann::json* size = find("size")) {
        const std::string f = prefix + "size";
        if (const nlohmann::json* m = jsonFind(*size, "shortest_edge", file, f)) {
            s.minPixels = jsonToInt(*m, file, f + ".shortest_edge", 1, kMaxQwen35PixelBudget);
        }
        if (const nlohmann::json* m = jsonFind(*size, "longest_edge", file, f)) {
            s.maxPixels = jsonToInt(*m, file, f + ".longest_edge", 1, kMaxQwen35PixelBudget);
        }
    }
    integer("min_pixels", s.minPixels, 1, kMaxQwen35PixelBudget);  // older spellings
    integer("max_pixels", s.maxPixels, 1, kMaxQwen35PixelBudget);
    if (s.minPixels > s.maxPixels) {
        fail("the pixel budget's minimum exceeds its maximum", file, prefix + "size",
             "shortest_edge <= longest_edge",
             std::to_string(s.minPixels) + " > " + std::to_string(s.maxPixels));
    }
    integer("patch_size", s.patchSize, 1, 1024);
    integer("temporal_patch_size", s.temporalPatchSize, 1, 64);
    integer("merge_size", s.mergeSize, 1, 64);
    integer("min_frames", s.minFrames, 1, kMaxQwen35Frames);
    integer("max_frames", s.maxFrames, 1, 1 << 20);
    integer("max_video_tokens", s.maxVideoTokens, 1, 1 << 20);
    boolean("do_rescale", s.doRescale);
    boolean("do_normalize", s.doNormalize);
    boolean("cap_pixels_per_frame", s.capPixelsPerFrame);
    bool resize = true;
    boolean("do_resize", resize);
    if (!resize) {
        fail("videos must be resized to the patch grid", file, prefix + "do_resize", "true",
             "false");
    }
    if (const nlohmann::json* m = find("resample")) {
        const std::int64_t r = jsonToInt(*m, file, prefix + "resample", 0, 5);
        if (r != 3) {
            fail("unsupported resampling", file, prefix + "resample", "3 (bicubic)",
                 std::to_string(r));
        }
    }
    if (const nlohmann::json* m = find("rescale_factor")) {
        s.rescaleFactor = jsonToNumber(*m, file, prefix + "rescale_factor");
        checkProcessorRange(s.rescaleFactor, kMinRescaleFactor, kMaxRescaleFactor, file,
                            prefix + "rescale_factor");
    }
    if (const nlohmann::json* m = find("fps")) {
        s.fps = jsonToNumber(*m, file, prefix + "fps");
        if (!(s.fps > 0)) {
            fail("sampling rate must be positive", file, prefix + "fps", "> 0",
                 std::to_string(s.fps));
        }
    }
    auto triple = [&](const char* key, std::array<double, 3>& v, double lo, double hi) {
        const nlohmann::json* m = find(key);
        if (!m) {
            return;
        }
        const std::string f = prefix + key;
        if (m->is_number()) {
            v.fill(jsonToNumber(*m, file, f));
        } else if (m->is_array() && m->size() == 3) {
            for (std::size_t i = 0; i < 3; ++i) {
                v[i] = jsonToNumber((*m)[i], file, f + "[" + std::to_string(i) + "]");
            }
        } else {
            fail("expected three channel values", file, f, "a number or [r, g, b]",
                 printableExcerpt(m->dump(), 60));
        }
        for (std::size_t i = 0; i < 3; ++i) {
            checkProcessorRange(v[i], lo, hi, file, f + "[" + std::to_string(i) + "]");
        }
    };
    triple("image_mean", s.mean, -kMaxAbsImageMean, kMaxAbsImageMean);
    triple("image_std", s.std, kMinImageStd, kMaxImageStd);
    return s;
}

Qwen3_5VideoSettings Qwen3_5VideoSettings::fromFolder(const std::string& folder) {
    namespace fs = std::filesystem;
    const std::string proc = folder + "/processor_config.json";
    if (fs::exists(proc)) {
        const nlohmann::json j = parseJsonText(readFileLimited(proc, kMaxProcessorFileBytes), proc);
        if (j.is_object() && j.contains("video_processor")) {
            Qwen3_5VideoSettings s = fromJson(j["video_processor"], proc, "video_processor.");
            s.source = proc + " (video_processor)";
            return s;
        }
    }
    const std::string video = folder + "/video_preprocessor_config.json";
    if (fs::exists(video)) {
        Qwen3_5VideoSettings s =
            fromJson(parseJsonText(readFileLimited(video, kMaxProcessorFileBytes), video), video);
        s.source = video;
        return s;
    }
    Qwen3_5VideoSettings s;
    s.notice = "no video processor settings in " + folder +
               " (processor_config.json's video_processor or video_preprocessor_config.json): "
               "using Qwen3VLVideoProcessor's defaults (131,072-786,432 pixels, mean = std = 0.5)";
    return s;
}

std::string Qwen3_5VideoSettings::samplingRule() const {
    if (fps > 1e6) {
        fail("the video processor's sampling rate is out of range",
             source.empty() ? "Qwen3VLVideoProcessor" : source, "fps", "at most 1000000",
             std::to_string(fps));
    }
    SamplingRule r;
    r.kind = SamplingRule::Kind::Fps;
    r.fps = fps;
    r.maxFrames = int(std::min<std::int64_t>(maxFrames, kMaxSampledFrames));
    r.minFrames = int(std::min<std::int64_t>(minFrames, r.maxFrames));
    return r.toString();
}

std::string Qwen3_5VideoSettings::samplingNotice() const {
    const std::string rule = samplingRule();
    const std::string fpsText = rule.substr(4, rule.find(':', 4) - 4);  // "fps:F:MIN:MAX"
    std::string n = "frame sampling " + rule + " as transformers samples this folder (fps " +
                    fpsText + ", min_frames " + std::to_string(minFrames) + ", max_frames " +
                    std::to_string(maxFrames) + " of " +
                    (source.empty() ? "Qwen3VLVideoProcessor's defaults: the folder has no video "
                                      "processor settings"
                                    : source) +
                    ")";
    if (maxFrames > kMaxSampledFrames) {
        n += "; max_frames capped at " + std::to_string(kMaxSampledFrames) +
             ", the most frames a rule samples";
    }
    if (minFrames > maxFrames) {
        n += "; min_frames above max_frames counts as max_frames, as in transformers";
    }
    return n + "; the paper's rule: --sampling fps:2:4:256";
}

std::pair<std::int64_t, std::int64_t> qwen3_5SmartResize(std::int64_t frames, std::int64_t height,
                                                         std::int64_t width,
                                                         const Qwen3_5VideoSettings& s) {
    const std::int64_t factor = s.patchSize * s.mergeSize, tf = s.temporalPatchSize;
    if (frames < tf) {
        fail("too few frames for the temporal patch", {}, "frames",
             "at least " + std::to_string(tf), std::to_string(frames));
    }
    if (height < 1 || width < 1 || height > kMaxQwen35FrameSide || width > kMaxQwen35FrameSide) {
        fail("frame size out of range", {}, "frames",
             "1.." + std::to_string(kMaxQwen35FrameSide) + " per side",
             std::to_string(width) + " x " + std::to_string(height));
    }
    // Per-frame cap of qwen-vl-utils when asked for (transformers' cap_pixels_per_frame).
    std::int64_t maxPixels = s.maxPixels;
    if (s.capPixelsPerFrame) {
        const std::int64_t cap = s.maxVideoTokens * factor * factor;
        const std::int64_t perFrame =
            std::max(std::min(cap, s.maxPixels / frames), std::int64_t(double(s.minPixels) * 1.05));
        maxPixels = perFrame * frames;
    }
    double h = double(height), w = double(width);
    if (height < factor || width < factor) {
        const double scale = std::max(double(factor) / h, double(factor) / w);
        h = double(std::int64_t(h * scale));
        w = double(std::int64_t(w * scale));
    }
    if (std::max(h, w) / std::min(h, w) > 200) {
        fail("the frame's aspect ratio is too extreme", {}, "frames", "at most 200:1",
             std::to_string(width) + " x " + std::to_string(height));
    }
    std::int64_t hBar = pyRound(h / double(factor)) * factor;
    std::int64_t wBar = pyRound(w / double(factor)) * factor;
    const std::int64_t tBar = pyRound(double(frames) / double(tf)) * tf;
    const double n = double(frames);
    // The field that set the size: the minimum when it scaled the frame up, else the maximum
    // that let it through.
    const char* field = "size.longest_edge";
    if (double(tBar) * double(hBar) * double(wBar) > double(maxPixels)) {
        const double beta = std::sqrt((n * h * w) / double(maxPixels));
        hBar = std::max(factor, std::int64_t(std::floor(h / beta / double(factor))) * factor);
        wBar = std::max(factor, std::int64_t(std::floor(w / beta / double(factor))) * factor);
    } else if (double(tBar) * double(hBar) * double(wBar) < double(s.minPixels)) {
        const double beta = std::sqrt(double(s.minPixels) / (n * h * w));
        hBar = std::int64_t(std::ceil(h * beta / double(factor))) * factor;
        wBar = std::int64_t(std::ceil(w * beta / double(factor))) * factor;
        field = "size.shortest_edge";
    }
    const std::string where = s.source.empty() ? "Qwen3VLVideoProcessor defaults" : s.source;
    if (hBar > kMaxQwen35FrameSide || wBar > kMaxQwen35FrameSide ||
        double(hBar) * double(wBar) > double(kMaxQwen35ResizedFramePixels)) {
        fail("the processor settings resize each frame beyond the limit", where, field,
             "at most " + std::to_string(kMaxQwen35ResizedFramePixels) + " pixels a frame",
             std::to_string(wBar) + " x " + std::to_string(hBar) + " from " +
                 std::to_string(width) + " x " + std::to_string(height));
    }
    // Merged tokens of the video: (t / temporal) · (h / factor) · (w / factor).
    const double tokens = double(std::max(tBar, tf) / tf) * double(hBar / factor) *
                          double(wBar / factor);
    if (tokens > double(kMaxQwen35VideoTokens)) {
        fail("the processor settings give the video more visual tokens than the limit", where,
             field, "at most " + std::to_string(kMaxQwen35VideoTokens) + " tokens",
             std::to_string(std::int64_t(tokens)) + " tokens (" + std::to_string(frames) +
                 " frames of " + std::to_string(wBar) + " x " + std::to_string(hBar) + ")");
    }
    return {hBar, wBar};
}

std::vector<double> qwen3_5GroupTimestamps(const std::vector<double>& seconds,
                                           std::int64_t temporalPatch) {
    if (seconds.empty() || temporalPatch < 1) {
        fail("no frames to time", {}, "frames", "at least one frame", "none");
    }
    std::vector<double> t = seconds;
    while (std::int64_t(t.size()) % temporalPatch != 0) {
        t.push_back(t.back());
    }
    std::vector<double> out;
    for (std::size_t i = 0; i < t.size(); i += std::size_t(temporalPatch)) {
        out.push_back((t[i] + t[i + std::size_t(temporalPatch) - 1]) / 2);
    }
    return out;
}

std::vector<double> qwen3_5GroupTimestamps(const std::vector<std::int64_t>& indices, double fps,
                                           std::int64_t temporalPatch) {
    if (!(fps > 0) || !std::isfinite(fps)) {
        fail("the video's frame rate must be a positive number", {}, "fps", "> 0",
             std::to_string(fps));
    }
    std::vector<double> seconds;
    seconds.reserve(indices.size());
    for (std::int64_t i : indices) {
        seconds.push_back(double(i) / fps);
    }
    return qwen3_5GroupTimestamps(seconds, temporalPatch);
}

}  // namespace once
