#include "models/siglip_preprocess.h"

#include <ATen/ATen.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "io/tensor_io.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace once {

namespace {

std::array<double, 3> readTriple(const nlohmann::json& j, const std::string& key,
                                 const std::string& file, std::array<double, 3> fallback) {
    if (!j.contains(key)) {
        return fallback;
    }
    const nlohmann::json& v = j[key];
    if (v.is_number()) {
        return {v.get<double>(), v.get<double>(), v.get<double>()};
    }
    if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() ||
        !v[2].is_number()) {
        fail("expected three numbers", file, key, "[r, g, b]", v.dump());
    }
    return {v[0].get<double>(), v[1].get<double>(), v[2].get<double>()};
}

}  // namespace

SiglipPreprocessConfig SiglipPreprocessConfig::fromFolder(const std::string& folder,
                                                          std::int64_t defaultSize) {
    SiglipPreprocessConfig c;
    c.height = c.width = defaultSize;
    std::string path;
    for (const char* name : {"preprocessor_config.json", "video_preprocessor_config.json"}) {
        if (std::filesystem::exists(folder + "/" + name)) {
            path = folder + "/" + name;
            break;
        }
    }
    if (path.empty()) {
        return c;
    }
    c.source = path;
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(readWholeFile(path));
    } catch (const nlohmann::json::exception& e) {
        fail(std::string("not valid JSON: ") + e.what(), path);
    }
    try {
        if (j.contains("size")) {
            const nlohmann::json& s = j["size"];
            if (s.contains("height") && s.contains("width")) {
                c.height = s["height"].get<std::int64_t>();
                c.width = s["width"].get<std::int64_t>();
            } else if (s.contains("shortest_edge")) {
                // LLaVA-OneVision always resizes to a square; a shortest_edge there means S × S.
                c.height = c.width = s["shortest_edge"].get<std::int64_t>();
            } else {
                fail("size has neither height/width nor shortest_edge", path, "size",
                     "{height, width}", s.dump());
            }
        }
        if (j.contains("resample") && j["resample"].get<int>() != 3) {
            fail("only bicubic resampling is implemented", path, "resample", "3 (bicubic)",
                 j["resample"].dump());
        }
        if (j.value("do_rescale", true)) {
            c.rescaleFactor = j.value("rescale_factor", 1.0 / 255.0);
        } else {
            c.rescaleFactor = 1.0;
        }
        if (j.value("do_normalize", true)) {
            c.mean = readTriple(j, "image_mean", path, c.mean);
            c.std = readTriple(j, "image_std", path, c.std);
        } else {
            c.mean = {0, 0, 0};
            c.std = {1, 1, 1};
        }
    } catch (const nlohmann::json::exception& e) {
        fail(std::string("unexpected value type: ") + e.what(), path);
    }
    if (c.height <= 0 || c.width <= 0) {
        fail("size must be positive", path, "size", "> 0",
             std::to_string(c.height) + "x" + std::to_string(c.width));
    }
    for (double s : c.std) {
        if (s == 0) {
            fail("a normalisation std is zero", path, "image_std", "non-zero", "0");
        }
    }
    return c;
}

void checkFrames(const at::Tensor& frames) {
    if (!frames.defined() || frames.dim() != 4 || frames.size(3) != 3 ||
        frames.scalar_type() != at::kByte) {
        fail("frames must be uint8 RGB [T, H, W, 3]", {}, "frames", "uint8 [T, H, W, 3]",
             frames.defined() ? std::string(c10::toString(frames.scalar_type())) + " " +
                                    shapeString(frames.sizes())
                              : "undefined");
    }
}

at::Tensor siglipPreprocess(const at::Tensor& frames, const SiglipPreprocessConfig& c) {
    checkFrames(frames);
    if (frames.size(0) == 0) {
        return at::empty({0, 3, c.height, c.width}, at::kFloat);
    }
    // [T, 3, H, W] as a channels-last view: the layout the uint8 kernel works in.
    at::Tensor x = frames.to(at::kCPU).permute({0, 3, 1, 2});
    if (x.size(2) != c.height || x.size(3) != c.width) {
        // torchvision skips equal sizes too; the antialiased kernel is PIL's bicubic (a = -0.5)
        // with rounding back to uint8, so the result matches the Hugging Face processor.
        x = at::_upsample_bicubic2d_aa(x, {c.height, c.width}, /*align_corners=*/false);
    }
    // Hugging Face fuses rescale and normalise, in float32: (x - mean·(1/r)) / (std·(1/r)).
    auto scaled = [&](const std::array<double, 3>& v) {
        const at::Tensor t = at::tensor({float(v[0]), float(v[1]), float(v[2])}, at::kFloat);
        return (t * float(1.0 / c.rescaleFactor)).view({1, 3, 1, 1});
    };
    const at::Tensor mean = scaled(c.mean), sd = scaled(c.std);
    return ((x.to(at::kFloat) - mean) / sd).contiguous();
}

}  // namespace once
