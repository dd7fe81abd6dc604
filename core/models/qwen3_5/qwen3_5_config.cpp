#include "models/qwen3_5/qwen3_5_config.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/json_file.h"

namespace once {
namespace {

// config.json of the largest published Qwen3.5 folders is a few KB.
constexpr std::size_t kMaxConfigBytes = std::size_t(16) << 20;

/// Reads the members of one JSON object with its dotted prefix for messages.
struct Reader {
    const nlohmann::json& j;
    const std::string& file;
    std::string prefix;  ///< "text_config." etc.

    std::string at(const std::string& key) const { return prefix + key; }
    const nlohmann::json* find(const std::string& key) const {
        return jsonFind(j, key, file,
                        prefix.empty() ? std::string() : prefix.substr(0, prefix.size() - 1));
    }
    void integer(const std::string& key, std::int64_t& v, std::int64_t min,
                 std::int64_t max) const {
        if (const nlohmann::json* m = find(key)) {
            v = jsonToInt(*m, file, at(key), min, max);
        } else if (v < min || v > max) {
            fail("a required size is missing", file, at(key), "an integer", "missing");
        }
    }
    void number(const std::string& key, double& v) const {
        if (const nlohmann::json* m = find(key)) {
            v = jsonToNumber(*m, file, at(key));
        }
    }
    void string(const std::string& key, std::string& v) const {
        if (const nlohmann::json* m = find(key)) {
            v = jsonToString(*m, file, at(key));
        }
    }
    void boolean(const std::string& key, bool& v) const {
        if (const nlohmann::json* m = find(key)) {
            v = jsonToBool(*m, file, at(key));
        }
    }
};

void requirePositive(double v, const std::string& file, const std::string& field) {
    if (!(v > 0) || !std::isfinite(v)) {
        fail("the value must be a positive number", file, field, "> 0", std::to_string(v));
    }
}

void requireDivides(std::int64_t divisor, std::int64_t n, const std::string& file,
                    const std::string& field, const std::string& what) {
    if (divisor <= 0 || n % divisor != 0) {
        fail("sizes do not fit together", file, field,
             "a divisor of " + what + " (" + std::to_string(n) + ")", std::to_string(divisor));
    }
}

std::vector<std::int64_t> readTokenIds(const nlohmann::json& e, const std::string& file,
                                       const std::string& field, std::int64_t vocab) {
    std::vector<std::int64_t> ids;
    if (e.is_null()) {
        return ids;
    }
    if (e.is_array()) {
        if (e.size() > 64) {
            fail("too many end-of-text tokens", file, field, "at most 64",
                 std::to_string(e.size()));
        }
        for (std::size_t i = 0; i < e.size(); ++i) {
            ids.push_back(
                jsonToInt(e[i], file, field + "[" + std::to_string(i) + "]", 0, vocab - 1));
        }
    } else {
        ids.push_back(jsonToInt(e, file, field, 0, vocab - 1));
    }
    return ids;
}

/// A sub-config's model_type: `expected` (its default when absent) or the whole model's.
void requireModelType(const Reader& r, const std::string& expected, const char* message) {
    std::string type = expected;
    r.string("model_type", type);
    if (type != expected && type != "qwen3_5") {
        fail(message, r.file, r.at("model_type"), expected, type);
    }
}

void parseText(const nlohmann::json& j, const std::string& file, Qwen3_5TextConfig& c) {
    const Reader r{j, file, "text_config."};
    requireModelType(r, "qwen3_5_text", "unknown language-model architecture");
    r.integer("vocab_size", c.vocabSize, 1, kMaxQwen35Vocab);
    r.integer("hidden_size", c.hiddenSize, 1, kMaxQwen35Width);
    r.integer("intermediate_size", c.intermediateSize, 1, kMaxQwen35Width * 8);
    r.integer("num_hidden_layers", c.numLayers, 1, kMaxQwen35Layers);
    r.integer("num_attention_heads", c.numHeads, 1, kMaxQwen35Heads);
    r.integer("num_key_value_heads", c.numKvHeads, 1, kMaxQwen35Heads);
    r.integer("head_dim", c.headDim, 1, kMaxQwen35Width);
    r.number("rms_norm_eps", c.rmsNormEps);
    requirePositive(c.rmsNormEps, file, r.at("rms_norm_eps"));
    r.string("hidden_act", c.hiddenAct);
    if (c.hiddenAct != "silu" && c.hiddenAct != "swish") {
        fail("unsupported activation", file, r.at("hidden_act"), "silu", c.hiddenAct);
    }
    bool bias = false;
    r.boolean("attention_bias", bias);
    if (bias) {
        // No published Qwen3.5 has attention biases; the loader reads none.
        fail("attention biases are not supported", file, r.at("attention_bias"), "false", "true");
    }
    requireDivides(c.numKvHeads, c.numHeads, file, r.at("num_key_value_heads"),
                   "num_attention_heads");
    r.integer("linear_conv_kernel_dim", c.convKernel, 1, kMaxQwen35ConvKernel);
    r.integer("linear_key_head_dim", c.linearKeyHeadDim, 1, kMaxQwen35Width);
    r.integer("linear_value_head_dim", c.linearValueHeadDim, 1, kMaxQwen35Width);
    r.integer("linear_num_key_heads", c.linearNumKeyHeads, 1, kMaxQwen35Heads);
    r.integer("linear_num_value_heads", c.linearNumValueHeads, 1, kMaxQwen35Heads);
    requireDivides(c.linearNumKeyHeads, c.linearNumValueHeads, file, r.at("linear_num_key_heads"),
                   "linear_num_value_heads");
    r.boolean("tie_word_embeddings", c.tieWordEmbeddings);

    // The hybrid pattern: layer_types, else every full_attention_interval-th layer is full
    // attention (transformers' default, interval 4).
    c.fullAttention.clear();
    if (const nlohmann::json* lt = r.find("layer_types")) {
        if (!lt->is_array() || std::int64_t(lt->size()) != c.numLayers) {
            fail("layer_types must name every layer", file, r.at("layer_types"),
                 "an array of " + std::to_string(c.numLayers) + " strings",
                 lt->is_array() ? std::to_string(lt->size()) + " entries" : jsonTypeName(*lt));
        }
        for (std::size_t i = 0; i < lt->size(); ++i) {
            const std::string f = r.at("layer_types[" + std::to_string(i) + "]");
            const std::string t = jsonToString((*lt)[i], file, f);
            if (t != "linear_attention" && t != "full_attention") {
                fail("unknown layer type", file, f, "linear_attention or full_attention", t);
            }
            c.fullAttention.push_back(t == "full_attention");
        }
    } else {
        std::int64_t interval = 4;
        r.integer("full_attention_interval", interval, 1, kMaxQwen35Layers);
        for (std::int64_t i = 0; i < c.numLayers; ++i) {
            c.fullAttention.push_back((i + 1) % interval == 0);
        }
    }
    if (const nlohmann::json* e = r.find("eos_token_id")) {
        c.eosTokenIds = readTokenIds(*e, file, r.at("eos_token_id"), c.vocabSize);
    }

    // Rotary: transformers 5 writes rope_parameters; older exports rope_theta + rope_scaling.
    const nlohmann::json* rp = r.find("rope_parameters");
    std::string rpName = "rope_parameters";
    if (!rp) {
        rp = r.find("rope_scaling");
        rpName = "rope_scaling";
    }
    r.number("rope_theta", c.ropeTheta);
    r.number("partial_rotary_factor", c.partialRotaryFactor);
    if (rp) {
        const Reader p{*rp, file, r.at(rpName) + "."};
        if (!rp->is_object()) {
            fail("rotary parameters must be an object", file, r.at(rpName), "an object",
                 jsonTypeName(*rp));
        }
        std::string type = "default";
        p.string("rope_type", type);
        if (const nlohmann::json* t = p.find("type")) {  // transformers 4 spelling
            type = jsonToString(*t, file, p.at("type"));
        }
        if (type != "default" && type != "mrope") {
            fail("unsupported rotary scaling", file, p.at("rope_type"), "default", type);
        }
        p.number("rope_theta", c.ropeTheta);
        p.number("partial_rotary_factor", c.partialRotaryFactor);
        bool interleaved = true;
        p.boolean("mrope_interleaved", interleaved);  // Qwen3.5 always interleaves
        if (const nlohmann::json* s = p.find("mrope_section")) {
            if (!s->is_array() || s->size() != 3) {
                fail("mrope_section must list three sizes", file, p.at("mrope_section"),
                     "[t, h, w]", s->dump().substr(0, 80));
            }
            for (std::size_t i = 0; i < 3; ++i) {
                c.mropeSection[i] =
                    jsonToInt((*s)[i], file, p.at("mrope_section[" + std::to_string(i) + "]"), 0,
                              kMaxQwen35Width);
            }
        }
    }
    requirePositive(c.ropeTheta, file, r.at(rpName + ".rope_theta"));
    if (!(c.partialRotaryFactor > 0) || !(c.partialRotaryFactor <= 1)) {
        fail("partial rotary factor must lie in (0, 1]", file,
             r.at(rpName + ".partial_rotary_factor"), "(0, 1]",
             std::to_string(c.partialRotaryFactor));
    }
    c.rotaryDim = std::int64_t(double(c.headDim) * c.partialRotaryFactor);
    if (c.rotaryDim < 2 || c.rotaryDim % 2 != 0) {
        fail("rotary dimensions must be a positive even number", file,
             r.at(rpName + ".partial_rotary_factor"), "int(head_dim * factor) even and >= 2",
             std::to_string(c.rotaryDim));
    }
    const std::int64_t sections = c.mropeSection[0] + c.mropeSection[1] + c.mropeSection[2];
    if (sections * 2 != c.rotaryDim) {
        fail("mrope_section does not fit the rotary dimensions", file,
             r.at(rpName + ".mrope_section"),
             "t + h + w = " + std::to_string(c.rotaryDim / 2) +
                 " (int(head_dim * partial_rotary_factor) / 2)",
             std::to_string(c.mropeSection[0]) + ", " + std::to_string(c.mropeSection[1]) + ", " +
                 std::to_string(c.mropeSection[2]));
    }
}

void parseVision(const nlohmann::json& j, const std::string& file, Qwen3_5VisionConfig& c) {
    const Reader r{j, file, "vision_config."};
    requireModelType(r, "qwen3_5_vision", "unknown vision architecture");
    r.integer("depth", c.depth, 1, kMaxQwen35Layers);
    r.integer("num_hidden_layers", c.depth, 1, kMaxQwen35Layers);  // attribute_map alias
    r.integer("hidden_size", c.hiddenSize, 1, kMaxQwen35Width);
    r.integer("intermediate_size", c.intermediateSize, 1, kMaxQwen35Width * 8);
    r.integer("num_heads", c.numHeads, 1, kMaxQwen35Heads);
    r.integer("num_attention_heads", c.numHeads, 1, kMaxQwen35Heads);
    r.integer("in_channels", c.inChannels, 3, 3);
    r.integer("patch_size", c.patchSize, 1, kMaxQwen35PatchSize);
    r.integer("temporal_patch_size", c.temporalPatchSize, 1, 64);
    r.integer("spatial_merge_size", c.spatialMergeSize, 1, 64);
    r.integer("out_hidden_size", c.outHiddenSize, 1, kMaxQwen35Width);
    r.integer("num_position_embeddings", c.numPositionEmbeddings, 1, kMaxQwen35PositionTable);
    r.string("hidden_act", c.hiddenAct);
    static const char* const acts[] = {"gelu", "gelu_pytorch_tanh", "gelu_new", "gelu_fast",
                                       "quick_gelu"};
    if (std::find(std::begin(acts), std::end(acts), c.hiddenAct) == std::end(acts)) {
        fail("unsupported activation", file, r.at("hidden_act"),
             "gelu, gelu_pytorch_tanh, gelu_new, gelu_fast or quick_gelu", c.hiddenAct);
    }
    requireDivides(c.numHeads, c.hiddenSize, file, r.at("num_heads"), "hidden_size");
    if (c.headDim() % 4 != 0) {
        // The 2-D rotary embedding splits each head in (row, column) halves of pairs.
        fail("vision head size must be a multiple of 4", file, r.at("num_heads"),
             "hidden_size / num_heads divisible by 4", std::to_string(c.headDim()));
    }
    c.positionGridSide = std::int64_t(std::llround(std::sqrt(double(c.numPositionEmbeddings))));
    if (c.positionGridSide * c.positionGridSide != c.numPositionEmbeddings) {
        fail("the learned position table must be a square grid", file,
             r.at("num_position_embeddings"), "a perfect square (published: 2304 = 48 x 48)",
             std::to_string(c.numPositionEmbeddings));
    }
    if (const nlohmann::json* rp = r.find("rope_parameters")) {
        const Reader p{*rp, file, r.at("rope_parameters.")};
        if (!rp->is_object()) {
            fail("rotary parameters must be an object", file, r.at("rope_parameters"), "an object",
                 jsonTypeName(*rp));
        }
        std::string t = "axial";
        p.string("rope_type", t);
        if (t != "axial" && t != "default") {
            fail("unsupported vision rotary embedding", file, p.at("rope_type"), "axial", t);
        }
        p.number("rope_theta", c.ropeTheta);
    }
    requirePositive(c.ropeTheta, file, r.at("rope_parameters.rope_theta"));
}

Qwen3_5Config parseConfig(const nlohmann::json& root, const std::string& file) {
    if (!root.is_object()) {
        fail("config.json is not a JSON object", file, {}, "an object", jsonTypeName(root));
    }
    Qwen3_5Config c;
    const Reader r{root, file, ""};
    std::string type;
    r.string("model_type", type);
    if (type != "qwen3_5") {
        fail("not a Qwen3.5 vision-language config", file, "model_type", "qwen3_5",
             type.empty() ? "missing" : type);
    }
    static const nlohmann::json empty = nlohmann::json::object();
    const nlohmann::json* text = r.find("text_config");
    const nlohmann::json* vision = r.find("vision_config");
    if (text && !text->is_object()) {
        fail("text_config must be an object", file, "text_config", "an object",
             jsonTypeName(*text));
    }
    if (vision && !vision->is_object()) {
        fail("vision_config must be an object", file, "vision_config", "an object",
             jsonTypeName(*vision));
    }
    parseText(text ? *text : empty, file, c.text);
    parseVision(vision ? *vision : empty, file, c.vision);
    // The top-level tie flag is what transformers 5 reads for the composite model.
    r.boolean("tie_word_embeddings", c.text.tieWordEmbeddings);
    const std::int64_t v = c.text.vocabSize;
    r.integer("image_token_id", c.imageTokenId, 0, v - 1);
    r.integer("video_token_id", c.videoTokenId, 0, v - 1);
    r.integer("vision_start_token_id", c.visionStartTokenId, 0, v - 1);
    r.integer("vision_end_token_id", c.visionEndTokenId, 0, v - 1);
    if (const nlohmann::json* e = r.find("eos_token_id"); e && c.text.eosTokenIds.empty()) {
        c.text.eosTokenIds = readTokenIds(*e, file, "eos_token_id", v);
    }
    std::string dtype;
    r.string("torch_dtype", dtype);
    if (text) {
        Reader{*text, file, "text_config."}.string("dtype", dtype);
    }
    r.string("dtype", dtype);
    if (!dtype.empty()) {
        if (dtype != "float32" && dtype != "float16" && dtype != "bfloat16") {
            fail("unsupported dtype", file, "dtype", "float32, float16 or bfloat16", dtype);
        }
        c.dtype = dtype;
    }
    // The merger maps to the language model's width: a mismatch cannot be spliced.
    if (c.vision.outHiddenSize != c.text.hiddenSize) {
        fail("the vision merger's width differs from the language model's", file,
             "vision_config.out_hidden_size",
             "text_config.hidden_size (" + std::to_string(c.text.hiddenSize) + ")",
             std::to_string(c.vision.outHiddenSize));
    }
    return c;
}

}  // namespace

Qwen3_5Config Qwen3_5Config::fromJson(const nlohmann::json& config, const std::string& file) {
    try {
        return parseConfig(config, file);
    } catch (const nlohmann::json::exception& e) {
        fail("the model config could not be read", file, {}, "the types transformers writes",
             printableExcerpt(e.what(), 120));
    }
}

Qwen3_5Config Qwen3_5Config::parse(std::string_view text, const std::string& file) {
    return fromJson(parseJsonText(text, file), file);
}

Qwen3_5Config Qwen3_5Config::fromFolder(const std::string& folder) {
    const std::string path = folder + "/config.json";
    return parse(readFileLimited(path, kMaxConfigBytes), path);
}

LlmShape Qwen3_5TextConfig::llmShape() const {
    LlmShape s = LlmShape::transformer(*this, "qwen3_5");
    s.gatedQuery = true;
    for (bool full : fullAttention) {
        s.linearLayers += full ? 0 : 1;
    }
    s.linearKeyHeads = linearNumKeyHeads;
    s.linearValueHeads = linearNumValueHeads;
    s.linearKeyDim = linearKeyHeadDim;
    s.linearValueDim = linearValueHeadDim;
    s.convKernel = convKernel;
    return s;
}

}  // namespace once
