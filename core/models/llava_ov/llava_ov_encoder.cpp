#include "models/llava_ov/llava_ov_encoder.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "io/tensor_io.h"
#include "models/hf_checkpoint.h"
#include "models/vision_ops.h"
#include "util/device.h"
#include "util/error.h"

namespace once {

namespace {

constexpr std::int64_t kFramesPerBatch = 8;  // bounds activation memory for long videos

std::int64_t requireInt(const nlohmann::json& j, const std::string& key, const std::string& file,
                        const std::string& path) {
    if (!j.contains(key) || !j[key].is_number_integer() || j[key].get<std::int64_t>() <= 0) {
        fail("config field missing or not a positive integer", file, path + key,
             "a positive integer", j.contains(key) ? j[key].dump() : "missing");
    }
    return j[key].get<std::int64_t>();
}

/// The key prefix of the SigLIP tower: whatever precedes `embeddings.patch_embedding.weight`
/// (`vision_tower.`, `model.vision_tower.vision_model.`, LLaVA-NeXT's
/// `model.vision_tower.vision_tower.vision_model.`, ...).
std::string visionPrefix(const HfCheckpoint& ck) {
    const std::string suffix = "embeddings.patch_embedding.weight";
    for (const std::string& n : ck.names()) {
        if (n.size() >= suffix.size() &&
            n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) {
            return n.substr(0, n.size() - suffix.size());
        }
    }
    fail("weight missing from the model folder", ck.folder(),
         "vision_tower.embeddings.patch_embedding.weight", "a SigLIP patch embedding", "none");
}

std::int64_t countLayers(const HfCheckpoint& ck, const std::string& prefix) {
    std::int64_t n = 0;
    while (ck.has(prefix + "encoder.layers." + std::to_string(n) + ".layer_norm1.weight")) {
        ++n;
    }
    return n;
}

LlavaOvConfig parseConfig(const HfCheckpoint& ck, const std::string& prefix) {
    const nlohmann::json& j = ck.config();
    const std::string file = ck.file("config.json");
    LlavaOvConfig c;
    try {
        if (j.contains("vision_config")) {
            // Hugging Face LlavaOnevisionConfig. hidden_act and layer_norm_eps are often left out
            // (SigLIP's defaults); the sizes are required so that a wrong file cannot pass.
            c.configLayout = "hf";
            const nlohmann::json& v = j["vision_config"];
            const std::string vp = "vision_config.";
            c.vision.hiddenSize = requireInt(v, "hidden_size", file, vp);
            c.vision.intermediateSize = requireInt(v, "intermediate_size", file, vp);
            c.vision.numLayers = requireInt(v, "num_hidden_layers", file, vp);
            c.vision.numHeads = requireInt(v, "num_attention_heads", file, vp);
            c.vision.imageSize = requireInt(v, "image_size", file, vp);
            c.vision.patchSize = requireInt(v, "patch_size", file, vp);
            if (!v.is_object()) {
                fail("config field is not an object", file, "vision_config", "an object",
                     v.type_name());
            }
            c.vision.layerNormEps = v.value("layer_norm_eps", 1e-6);
            c.vision.hiddenAct = v.value("hidden_act", std::string("gelu_pytorch_tanh"));
            if (!j.contains("text_config") || !j["text_config"].is_object()) {
                fail("config field missing", file, "text_config", "an object", "missing");
            }
            c.textHidden = requireInt(j["text_config"], "hidden_size", file, "text_config.");
            c.projectorAct = j.value("projector_hidden_act", std::string("gelu"));
            const nlohmann::json layer = j.value("vision_feature_layer", nlohmann::json(-1));
            if (layer.is_number_integer()) {
                c.featureLayers = {layer.get<std::int64_t>()};
            } else if (layer.is_array()) {
                for (const auto& l : layer) {
                    if (!l.is_number_integer()) {
                        fail("vision_feature_layer must list integers", file,
                             "vision_feature_layer", "int or [int]", layer.dump());
                    }
                    c.featureLayers.push_back(l.get<std::int64_t>());
                }
            } else {
                fail("vision_feature_layer must be an integer or a list", file,
                     "vision_feature_layer", "int or [int]", layer.dump());
            }
            const std::string strategy =
                j.value("vision_feature_select_strategy", std::string("full"));
            if (strategy != "full") {
                // "default" drops a CLS token SigLIP does not have, breaking the patch grid.
                fail("only the full feature selection suits SigLIP", file,
                     "vision_feature_select_strategy", "full", strategy);
            }
        } else if (j.contains("mm_projector_type") || j.contains("mm_vision_tower")) {
            // Original LLaVA-NeXT checkpoint: the tower is SigLIP so400m with its last layer
            // removed, and the features are its last hidden state. Sizes come from the weights;
            // the head count is not in them, so it is so400m's (16) unless the config says.
            c.configLayout = "llava-next";
            const std::string type = j.value("mm_projector_type", std::string("mlp2x_gelu"));
            if (type != "mlp2x_gelu") {
                fail("unsupported projector", file, "mm_projector_type", "mlp2x_gelu", type);
            }
            c.textHidden = requireInt(j, "hidden_size", file, "");
            const at::Tensor pw = ck.get(prefix + "embeddings.patch_embedding.weight");
            const at::Tensor pos = ck.get(prefix + "embeddings.position_embedding.weight");
            if (pw.dim() != 4 || pw.size(0) <= 0 || pw.size(1) != 3 || pw.size(2) != pw.size(3) ||
                pw.size(2) <= 0 || pos.dim() != 2) {
                fail("weight is not a SigLIP patch embedding", ck.folder(),
                     prefix + "embeddings.patch_embedding.weight", "[D, 3, P, P] and [g*g, D]",
                     shapeString(pw.sizes()) + " and " + shapeString(pos.sizes()));
            }
            c.vision.hiddenSize = pw.size(0);
            c.vision.patchSize = pw.size(2);
            const auto g = std::int64_t(std::llround(std::sqrt(double(pos.size(0)))));
            if (g <= 0 || g * g != pos.size(0)) {
                fail("position embeddings are not a square patch grid", ck.folder(),
                     prefix + "embeddings.position_embedding.weight", "g * g rows",
                     std::to_string(pos.size(0)));
            }
            // The tower's input size is in its name ("google/siglip-so400m-patch14-384"), not in
            // the weights: 384 / 14 floors to the stored 27 × 27 grid. Without a name that says
            // it, the smallest size of that grid.
            c.vision.imageSize = g * c.vision.patchSize;
            const std::string tower = j.value("mm_vision_tower", std::string());
            const std::string tag = "patch" + std::to_string(c.vision.patchSize) + "-";
            if (const auto at = tower.rfind(tag); at != std::string::npos) {
                const std::string digits = tower.substr(at + tag.size());
                if (!digits.empty() && digits.size() <= 5 &&
                    std::all_of(digits.begin(), digits.end(), ::isdigit)) {
                    const std::int64_t size = std::stoll(digits);
                    if (size / c.vision.patchSize != g) {
                        fail("the vision tower's name disagrees with its weights", file,
                             "mm_vision_tower",
                             "a size whose grid is " + std::to_string(g) + " patches", tower);
                    }
                    c.vision.imageSize = size;
                }
            }
            c.vision.numLayers = countLayers(ck, prefix);
            c.vision.intermediateSize = ck.get(prefix + "encoder.layers.0.mlp.fc1.weight").size(0);
            c.vision.numHeads = j.value("mm_vision_num_attention_heads", std::int64_t(16));
            c.featureLayers = {-1};
        } else {
            fail("config.json is neither a LlavaOnevision nor a LLaVA-NeXT config", file,
                 "vision_config", "present (or mm_projector_type)", "missing");
        }
    } catch (const nlohmann::json::exception& e) {
        // get<>() on a value of another type; the library text names no field, so say which
        // part of the file was being read.
        fail("config.json has a value of the wrong type", file,
             c.configLayout == "llava-next" ? "mm_* / hidden_size" : "vision_config",
             "the types transformers writes", std::string(e.what()).substr(0, 120));
    }
    return c;
}

at::ScalarType parseDtype(const std::string& name) {
    if (name == "float32" || name == "f32" || name == "fp32") {
        return at::kFloat;
    }
    if (name == "float16" || name == "f16" || name == "fp16") {
        return at::kHalf;
    }
    if (name == "bfloat16" || name == "bf16") {
        return at::kBFloat16;
    }
    fail("unknown dtype", {}, "dtype", "float32, float16 or bfloat16", name);
}

}  // namespace

at::Tensor llavaPoolGrid(const at::Tensor& features, std::int64_t grid, int stride) {
    if (stride < 1) {
        fail("pooling stride must be at least 1", {}, "poolStride", ">= 1", std::to_string(stride));
    }
    if (features.dim() != 3 || features.size(1) != grid * grid) {
        fail("features are not a square patch grid", {}, "features",
             "[T, " + std::to_string(grid * grid) + ", D]", shapeString(features.sizes()));
    }
    if (stride == 1) {
        return features;
    }
    const std::int64_t t = features.size(0), d = features.size(2);
    const std::int64_t out = (grid + stride - 1) / stride;  // ceil, as math.ceil(h / 2)
    at::Tensor x = features.view({t, grid, grid, d}).permute({0, 3, 1, 2}).contiguous();
    x = at::upsample_bilinear2d(x, {out, out}, /*align_corners=*/false);
    return x.permute({0, 2, 3, 1}).reshape({t, out * out, d});
}

LlavaOvEncoder::LlavaOvEncoder(const EncoderOptions& options) : options_(options) {
    if (options.modelDir.empty()) {
        fail("the llava-onevision backbone needs a model folder", {}, "modelDir",
             "a Hugging Face folder", "empty");
    }
    if (options.poolStride < 1) {
        fail("pooling stride must be at least 1", {}, "poolStride", "1 or 2",
             std::to_string(options.poolStride));
    }
    dtype_ = parseDtype(options.dtype);
    const std::string deviceName = resolveDeviceName(options.device);
    if (options.threads > 0) {
        at::set_num_threads(options.threads);
    }
    const HfCheckpoint ck = HfCheckpoint::open(options.modelDir);
    const std::string prefix = visionPrefix(ck);
    config_ = parseConfig(ck, prefix);
    tower_ =
        SiglipVision::load(ck, prefix, config_.vision, config_.featureLayers, dtype_, deviceName);
    const std::int64_t inDim =
        config_.vision.hiddenSize * std::int64_t(config_.featureLayers.size());
    projector_ = LlavaProjector::load(ck, inDim, config_.textHidden, config_.projectorAct, dtype_,
                                      deviceName);
    const std::string nl = ck.firstPresent({"image_newline", "model.image_newline"});
    newline_ = ck.get(nl, {config_.textHidden})
                   .to(at::TensorOptions().dtype(dtype_).device(at::Device(deviceName)))
                   .view({1, config_.textHidden});
    pre_ = SiglipPreprocessConfig::fromFolder(options.modelDir, config_.vision.imageSize);
    if (pre_.height != config_.vision.imageSize || pre_.width != config_.vision.imageSize) {
        fail("preprocessing size differs from the vision tower's image size (config.json)",
             pre_.source, "size",
             std::to_string(config_.vision.imageSize) + "x" +
                 std::to_string(config_.vision.imageSize),
             std::to_string(pre_.height) + "x" + std::to_string(pre_.width));
    }
}

std::vector<std::string> LlavaOvEncoder::notices() const {
    if (pre_.notice.empty()) {
        return {};
    }
    return {pre_.notice};
}

std::string LlavaOvEncoder::featureSource() const {
    std::string layers;
    for (std::int64_t l : config_.featureLayers) {
        if (!layers.empty()) {
            layers += ',';
        }
        layers += std::to_string(l);
    }
    return "SigLIP hidden state " + layers + " → mlp2x_gelu projector, pool stride " +
           std::to_string(options_.poolStride);
}

EncodedVideo LlavaOvEncoder::encodePixels(const at::Tensor& pixels, Progress* progress) {
    const std::int64_t t = pixels.dim() > 0 ? pixels.size(0) : 0;
    if (progress) {
        progress->begin("llava-onevision: encode frames", double(t));
    }
    const std::int64_t g = config_.vision.grid();
    const std::int64_t side = (g + options_.poolStride - 1) / options_.poolStride;
    const std::int64_t s = config_.vision.imageSize;
    if (pixels.dim() != 4 || pixels.size(1) != 3 || pixels.size(2) != s || pixels.size(3) != s) {
        fail("pixel values have the wrong shape", {}, "pixel_values",
             "[T, 3, " + std::to_string(s) + ", " + std::to_string(s) + "]",
             shapeString(pixels.sizes()));
    }
    std::vector<at::Tensor> parts{at::empty({0, side * side, dim()}, newline_.options())};
    std::vector<at::Tensor> attention{at::empty({0, side * side}, at::kFloat)};
    for (std::int64_t b = 0; b < t; b += kFramesPerBatch) {
        const std::int64_t e = std::min(t, b + kFramesPerBatch);
        at::Tensor x = pixels.slice(0, b, e).to(newline_.device());
        at::Tensor received;
        x = projector_.forward(tower_.forward(x, &received));
        parts.push_back(llavaPoolGrid(x, g, options_.poolStride));
        if (received.defined()) {  // pooled like the features, as FastVID pools its attention
            attention.push_back(
                llavaPoolGrid(received.unsqueeze(-1), g, options_.poolStride).squeeze(-1).cpu());
        }
        if (progress) {
            progress->update(double(e));
        }
    }
    EncodedVideo out;
    out.features = at::cat(parts, 0);
    if (attention.size() > 1 || t == 0) {
        out.attention = at::cat(attention, 0);
    }
    out.layoutTokens = newline_;
    out.gridH = out.gridW = int(side);
    return out;
}

EncodedVideo LlavaOvEncoder::encodeFrames(const at::Tensor& frames, Progress* progress) {
    checkFrames(frames);
    const std::int64_t t = frames.size(0);
    if (progress) {
        progress->begin("llava-onevision: encode frames", double(t));
    }
    // Preprocess batch by batch too: 32 full-HD frames as float would be 800 MB.
    std::vector<at::Tensor> parts;
    EncodedVideo out;
    out.gridH = out.gridW =
        int((config_.vision.grid() + options_.poolStride - 1) / options_.poolStride);
    out.layoutTokens = newline_;
    parts.push_back(at::empty({0, std::int64_t(out.gridH) * out.gridW, dim()}, newline_.options()));
    std::vector<at::Tensor> attention;
    for (std::int64_t b = 0; b < t; b += kFramesPerBatch) {
        const std::int64_t e = std::min(t, b + kFramesPerBatch);
        out = encodePixels(siglipPreprocess(frames.slice(0, b, e), pre_));
        parts.push_back(out.features);
        if (out.attention.defined()) {
            attention.push_back(out.attention);
        }
        if (progress) {
            progress->update(double(e));
        }
    }
    out.features = at::cat(parts, 0);
    out.attention = attention.empty() ? at::Tensor() : at::cat(attention, 0);
    return out;
}

}  // namespace once
