#include "models/qwen2/qwen2_config.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/json_file.h"  // printableExcerpt

namespace once {
namespace {

std::int64_t requireInt(const nlohmann::json& j, const std::string& key, const std::string& file,
                        const std::string& prefix) {
    if (!j.contains(key) || !j[key].is_number_integer() || j[key].get<std::int64_t>() <= 0) {
        fail("the model config lacks a size", file, prefix + key, "a positive integer",
             j.contains(key) ? j[key].dump() : "missing");
    }
    return j[key].get<std::int64_t>();
}

}  // namespace

static Qwen2Config parseQwen2Config(const nlohmann::json& root, const std::string& file) {
    // Multimodal folders (LLaVA-OneVision) nest the decoder under text_config.
    const bool nested = root.contains("text_config") && root["text_config"].is_object();
    const nlohmann::json& j = nested ? root["text_config"] : root;
    const std::string prefix = nested ? "text_config." : "";
    Qwen2Config c;
    if (!j.is_object()) {
        fail("the model config is not a JSON object", file, prefix, "an object", j.type_name());
    }
    c.modelType = j.contains("model_type") && j["model_type"].is_string()
                      ? j["model_type"].get<std::string>()
                      : std::string();
    // lmms-lab's LLaVA-OneVision folders (LLaVA-NeXT's LlavaQwenForCausalLM) keep the Qwen2
    // decoder's fields at the top and call the whole model "llava" or "llava_qwen".
    if ((c.modelType == "llava" || c.modelType == "llava_qwen") && !nested &&
        root.contains("mm_vision_tower")) {
        c.modelType = "qwen2";
    }
    static const std::vector<std::string> known = {"qwen2", "llama", "mistral"};
    if (std::find(known.begin(), known.end(), c.modelType) == known.end()) {
        fail("unknown language-model architecture", file, prefix + "model_type",
             "qwen2, llama or mistral", c.modelType.empty() ? "missing" : c.modelType);
    }
    c.vocabSize = requireInt(j, "vocab_size", file, prefix);
    c.hiddenSize = requireInt(j, "hidden_size", file, prefix);
    c.intermediateSize = requireInt(j, "intermediate_size", file, prefix);
    c.numLayers = requireInt(j, "num_hidden_layers", file, prefix);
    c.numHeads = requireInt(j, "num_attention_heads", file, prefix);
    c.numKvHeads = j.contains("num_key_value_heads") && !j["num_key_value_heads"].is_null()
                       ? requireInt(j, "num_key_value_heads", file, prefix)
                       : c.numHeads;
    c.headDim = j.contains("head_dim") && !j["head_dim"].is_null()
                    ? requireInt(j, "head_dim", file, prefix)
                    : c.hiddenSize / c.numHeads;
    if (c.headDim <= 0) {
        fail("attention head size is zero", file, prefix + "head_dim",
             "hidden_size / num_attention_heads >= 1", std::to_string(c.headDim));
    }
    if (c.numHeads % c.numKvHeads != 0) {
        fail("attention heads are not a multiple of key/value heads", file,
             prefix + "num_key_value_heads", "a divisor of " + std::to_string(c.numHeads),
             std::to_string(c.numKvHeads));
    }
    // Absent (or null): transformers' default. Present but not a number ("tiny"): refused, not
    // silently defaulted.
    const bool hasEps = j.contains("rms_norm_eps") && !j["rms_norm_eps"].is_null();
    if (hasEps && !j["rms_norm_eps"].is_number()) {
        fail("RMSNorm epsilon must be a number", file, prefix + "rms_norm_eps", "a number > 0",
             printableExcerpt(j["rms_norm_eps"].dump(), 60));
    }
    c.rmsNormEps = hasEps ? j["rms_norm_eps"].get<double>() : 1e-6;
    if (!(c.rmsNormEps > 0) || !std::isfinite(c.rmsNormEps)) {
        fail("RMSNorm epsilon must be a positive number", file, prefix + "rms_norm_eps", "> 0",
             j["rms_norm_eps"].dump());
    }
    c.tieWordEmbeddings = root.value("tie_word_embeddings", j.value("tie_word_embeddings", false));
    if (j.contains("dtype") && j["dtype"].is_string()) {
        c.dtype = j["dtype"].get<std::string>();
    } else if (j.contains("torch_dtype") && j["torch_dtype"].is_string()) {
        c.dtype = j["torch_dtype"].get<std::string>();
    }
    if (j.contains("eos_token_id")) {
        const auto& e = j["eos_token_id"];
        if (e.is_number_integer()) {
            c.eosTokenIds.push_back(e.get<std::int64_t>());
        } else if (e.is_array()) {
            for (const auto& x : e) {
                if (!x.is_number_integer()) {
                    fail("eos_token_id must list integers", file, prefix + "eos_token_id", "[int]",
                         e.dump());
                }
                c.eosTokenIds.push_back(x.get<std::int64_t>());
            }
        }
        for (std::int64_t id : c.eosTokenIds) {
            if (id < 0 || id >= c.vocabSize) {
                fail("end-of-text token outside the vocabulary", file, prefix + "eos_token_id",
                     "in [0, " + std::to_string(c.vocabSize) + ")", std::to_string(id));
            }
        }
    }

    // Rope: transformers 5 writes rope_parameters; 4 writes rope_theta + rope_scaling.
    nlohmann::json rp = nlohmann::json::object();
    std::string ropeField = prefix + "rope_scaling";
    if (j.contains("rope_parameters") && j["rope_parameters"].is_object()) {
        rp = j["rope_parameters"];
        ropeField = prefix + "rope_parameters";
    } else if (j.contains("rope_scaling") && j["rope_scaling"].is_object()) {
        rp = j["rope_scaling"];
    }
    c.rope.theta = rp.value("rope_theta", j.value("rope_theta", 10000.0));
    c.rope.type = rp.value("rope_type", rp.value("type", std::string("default")));
    c.rope.factor = rp.value("factor", 1.0);
    c.rope.lowFreqFactor = rp.value("low_freq_factor", 1.0);
    c.rope.highFreqFactor = rp.value("high_freq_factor", 4.0);
    c.rope.originalMaxPositions = rp.value("original_max_position_embeddings", std::int64_t(8192));
    if (!(c.rope.theta > 0) || !std::isfinite(c.rope.theta) || !(c.rope.factor > 0) ||
        !std::isfinite(c.rope.factor)) {
        fail("rotary base and factor must be positive numbers", file, ropeField,
             "rope_theta > 0, factor > 0",
             std::to_string(c.rope.theta) + ", " + std::to_string(c.rope.factor));
    }
    if (c.rope.type != "default" && c.rope.type != "linear" && c.rope.type != "llama3") {
        fail("unsupported rotary scaling", file, ropeField + ".rope_type",
             "default, linear or llama3", c.rope.type);
    }
    return c;
}

Qwen2Config Qwen2Config::fromJson(const nlohmann::json& root, const std::string& file) {
    try {
        return parseQwen2Config(root, file);
    } catch (const nlohmann::json::exception& e) {
        // A field of another type than transformers writes (.value() / get<>()).
        fail("the model config has a value of the wrong type", file, "text config",
             "the types transformers writes", std::string(e.what()).substr(0, 120));
    }
}

}  // namespace once
