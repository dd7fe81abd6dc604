#include "models/llava_ov/processor_config.h"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "util/atomic_file.h"
#include "util/error.h"
#include "util/json_file.h"

namespace once {

namespace {

const std::array<double, 3> kSiglipMean{0.5, 0.5, 0.5}, kSiglipStd{0.5, 0.5, 0.5};
const std::array<double, 3> kClipMean{0.48145466, 0.4578275, 0.40821073};
const std::array<double, 3> kClipStd{0.26862954, 0.26130258, 0.27577711};

std::array<double, 3> readTriple(const nlohmann::json& j, const std::string& key,
                                 const std::string& file, const std::string& prefix) {
    const nlohmann::json& v = j[key];
    if (v.is_number()) {
        const double x = v.get<double>();
        return {x, x, x};
    }
    if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() ||
        !v[2].is_number()) {
        fail("expected three numbers", file, prefix + key, "[r, g, b]", v.dump());
    }
    return {v[0].get<double>(), v[1].get<double>(), v[2].get<double>()};
}

std::int64_t readSide(const nlohmann::json& s, const char* key, const std::string& file,
                      const std::string& prefix) {
    const nlohmann::json& v = s[key];
    if (!v.is_number_integer() || v.get<std::int64_t>() <= 0 ||
        v.get<std::int64_t>() > kMaxProcessorSide) {
        fail("processor image size out of range", file, prefix + "size." + key,
             "an integer in [1, " + std::to_string(kMaxProcessorSide) + "]", v.dump());
    }
    return v.get<std::int64_t>();
}

nlohmann::json readJson(const std::string& path) {
    nlohmann::json j = parseJsonFile(path, {kMaxProcessorFileBytes, kMaxJsonDepth});
    if (!j.is_object()) {
        fail("processor file is not a JSON object", path, {}, "an object", jsonTypeName(j));
    }
    return j;
}

/// Fills `c` from one processor dict `j` (the file's root or a nested processor).
void applyProcessor(SiglipPreprocessConfig& c, const nlohmann::json& j, const std::string& file,
                    const std::string& prefix) {
    const std::string type =
        j.contains("video_processor_type") && j["video_processor_type"].is_string()
            ? j["video_processor_type"].get<std::string>()
        : j.contains("image_processor_type") && j["image_processor_type"].is_string()
            ? j["image_processor_type"].get<std::string>()
            : std::string();
    // transformers fills what a file leaves out from the class: the LlavaOnevision processors
    // default to OpenAI CLIP's statistics, SigLIP's (and unknown ones, as LLaVA-NeXT) to 0.5.
    const bool clipDefaults = type.rfind("LlavaOnevision", 0) == 0;
    const auto& defMean = clipDefaults ? kClipMean : kSiglipMean;
    const auto& defStd = clipDefaults ? kClipStd : kSiglipStd;
    const std::string defName =
        clipDefaults ? type + "'s default (OpenAI CLIP)" : "SigLIP's default (0.5)";
    if (j.contains("size")) {
        const nlohmann::json& s = j["size"];
        if (s.is_object() && s.contains("height") && s.contains("width")) {
            c.height = readSide(s, "height", file, prefix);
            c.width = readSide(s, "width", file, prefix);
        } else if (s.is_object() && s.contains("shortest_edge")) {
            // LLaVA-OneVision always resizes to a square; a shortest_edge there means S × S.
            c.height = c.width = readSide(s, "shortest_edge", file, prefix);
        } else {
            fail("size has neither height/width nor shortest_edge", file, prefix + "size",
                 "{height, width}", s.dump());
        }
    }
    if (j.contains("do_resize") && j["do_resize"].is_boolean() && !j["do_resize"].get<bool>()) {
        fail("a processor that does not resize cannot feed a fixed-size vision tower", file,
             prefix + "do_resize", "true", "false");
    }
    if (j.contains("resample") && !(j["resample"].is_number_integer() && j["resample"] == 3)) {
        fail("only bicubic resampling is implemented", file, prefix + "resample", "3 (bicubic)",
             j["resample"].dump());
    }
    auto flag = [&](const char* key) {
        if (!j.contains(key)) {
            return true;
        }
        if (!j[key].is_boolean()) {
            fail("expected true or false", file, prefix + key, "a boolean", j[key].dump());
        }
        return j[key].get<bool>();
    };
    c.rescaleFactor = 1.0 / 255.0;
    if (flag("do_rescale")) {
        if (j.contains("rescale_factor")) {
            if (!j["rescale_factor"].is_number()) {
                fail("expected a number", file, prefix + "rescale_factor", "a number",
                     j["rescale_factor"].dump());
            }
            c.rescaleFactor = j["rescale_factor"].get<double>();
        }
    } else {
        c.rescaleFactor = 1.0;
    }
    checkProcessorRange(c.rescaleFactor, kMinRescaleFactor, kMaxRescaleFactor, file,
                        prefix + "rescale_factor");
    if (flag("do_normalize")) {
        const bool hasMean = j.contains("image_mean"), hasStd = j.contains("image_std");
        c.mean = hasMean ? readTriple(j, "image_mean", file, prefix) : defMean;
        c.std = hasStd ? readTriple(j, "image_std", file, prefix) : defStd;
        if (!hasMean || !hasStd) {
            c.notice = file + " gives no " + (hasMean ? "image_std" : "image_mean") +
                       (prefix.empty() ? "" : " in " + prefix.substr(0, prefix.size() - 1)) +
                       ": using " + defName + " as transformers does";
        }
    } else {
        c.mean = {0, 0, 0};
        c.std = {1, 1, 1};
    }
    for (int k = 0; k < 3; ++k) {
        const std::string channel = "[" + std::to_string(k) + "]";
        checkProcessorRange(c.mean[k], -kMaxAbsImageMean, kMaxAbsImageMean, file,
                            prefix + "image_mean" + channel);
        checkProcessorRange(c.std[k], kMinImageStd, kMaxImageStd, file,
                            prefix + "image_std" + channel);
    }
}

}  // namespace

SiglipPreprocessConfig SiglipPreprocessConfig::fromFolder(const std::string& folder,
                                                          std::int64_t defaultSize) {
    SiglipPreprocessConfig c;
    c.height = c.width = defaultSize;
    namespace fs = std::filesystem;
    const std::string processor = folder + "/processor_config.json";
    const std::string video = folder + "/video_preprocessor_config.json";
    const std::string image = folder + "/preprocessor_config.json";
    nlohmann::json proc;
    if (fs::exists(processor)) {
        proc = readJson(processor);
    }
    auto nested = [&](const char* key) {
        return proc.is_object() && proc.contains(key) && proc[key].is_object();
    };
    if (nested("video_processor")) {
        c.source = processor + " (video_processor)";
        applyProcessor(c, proc["video_processor"], processor, "video_processor.");
    } else if (fs::exists(video)) {
        c.source = video;
        applyProcessor(c, readJson(video), video, "");
    } else if (nested("image_processor")) {
        c.source = processor + " (image_processor)";
        applyProcessor(c, proc["image_processor"], processor, "image_processor.");
    } else if (fs::exists(image)) {
        c.source = image;
        applyProcessor(c, readJson(image), image, "");
    } else {
        c.notice = "no processor settings in " + folder +
                   " (processor_config.json, video_preprocessor_config.json or "
                   "preprocessor_config.json): using LLaVA-NeXT's SigLIP preprocessing, " +
                   std::to_string(defaultSize) + "x" + std::to_string(defaultSize) +
                   " bicubic, mean = std = 0.5";
    }
    return c;
}

}  // namespace once
