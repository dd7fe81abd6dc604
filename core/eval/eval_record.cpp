#include "eval/eval_record.h"

#include <limits>
#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/json_file.h"

namespace once {

std::string EvalRecord::methodLabel() const {
    std::string s = method;
    if (!params.empty()) {
        s += "{";
        bool first = true;
        for (const auto& [k, v] : params) {
            s += (first ? "" : ",") + k + "=" + v;
            first = false;
        }
        s += "}";
    }
    return s;
}

std::string EvalRecord::key() const {
    return benchmark + "\t" + questionId + "\t" + methodLabel() + "\t" + std::to_string(budget) +
           "\t" + std::to_string(seed);
}

std::string EvalRecord::toJsonLine() const {
    nlohmann::json j;
    j["benchmark"] = benchmark;
    j["question_id"] = questionId;
    j["video_id"] = videoId;
    j["task"] = task;
    j["method"] = method;
    j["params"] = params;
    j["budget"] = method == "dense" ? nlohmann::json(nullptr) : nlohmann::json(budget);
    j["seed"] = seed;
    j["prediction"] = prediction;
    j["parsed"] = parsed;
    j["answer"] = answer;
    j["correct"] = correct;
    j["visual_tokens"] = {{"content", contentTokens},
                          {"layout", layoutTokens},
                          {"total", contentTokens + layoutTokens},
                          {"source", sourceTokens}};
    j["prompt_tokens"] = promptTokens;
    j["prefill_flops"] = prefillFlops;
    j["seconds"] = seconds;
    j["reused_encoding"] = reusedEncoding;
    j["config"] = config;
    // Invalid UTF-8 from a cut generation must not abort the run.
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

EvalRecord EvalRecord::fromJsonLine(const std::string& text, const std::string& file, int line) {
    const std::string where = "line " + std::to_string(line);
    const nlohmann::json j = parseJsonText(text, file, where);
    if (!j.is_object()) {
        fail("malformed evaluation record", file, where, "a results line of `once eval`",
             jsonTypeName(j));
    }
    // Field names in errors: "line 3.budget".
    const std::string& f = where;
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    auto str = [&](const char* key) {
        return jsonToString(jsonRequire(j, key, file, f), file, f + "." + key);
    };
    auto optStr = [&](const char* key) { return jsonStringOr(j, key, "", file, f); };
    auto count = [&](const nlohmann::json& obj, const std::string& parent, const char* key,
                     bool required) -> std::int64_t {
        const nlohmann::json* v =
            required ? &jsonRequire(obj, key, file, parent) : jsonFind(obj, key, file, parent);
        return v ? jsonToInt(*v, file, parent + "." + key, 0, kMax) : 0;
    };
    EvalRecord r;
    r.benchmark = str("benchmark");
    r.questionId = str("question_id");
    r.videoId = optStr("video_id");
    r.task = optStr("task");
    r.method = str("method");
    if (const nlohmann::json* params = jsonFind(j, "params", file, f)) {
        if (!params->is_object()) {
            fail("wrong JSON type", file, f + ".params", "an object of strings",
                 jsonTypeName(*params));
        }
        for (const auto& [k, v] : params->items()) {
            r.params[k] = jsonToString(v, file, f + ".params." + k);
        }
    }
    const nlohmann::json& budget = jsonRequire(j, "budget", file, f);
    r.budget = budget.is_null() ? 0 : jsonToInt(budget, file, f + ".budget", 0, kMax);
    if (const nlohmann::json* seed = jsonFind(j, "seed", file, f)) {
        if (seed->is_number_unsigned()) {
            r.seed = seed->get<std::uint64_t>();
        } else {
            r.seed = std::uint64_t(jsonToInt(*seed, file, f + ".seed", 0, kMax));
        }
    }
    r.prediction = optStr("prediction");
    r.parsed = optStr("parsed");
    r.answer = optStr("answer");
    r.correct = jsonToBool(jsonRequire(j, "correct", file, f), file, f + ".correct");
    const nlohmann::json& vt = jsonRequire(j, "visual_tokens", file, f);
    r.contentTokens = count(vt, f + ".visual_tokens", "content", true);
    r.layoutTokens = count(vt, f + ".visual_tokens", "layout", true);
    r.sourceTokens = count(vt, f + ".visual_tokens", "source", false);
    r.promptTokens = count(j, f, "prompt_tokens", false);
    if (const nlohmann::json* flops = jsonFind(j, "prefill_flops", file, f)) {
        r.prefillFlops = jsonToNumber(*flops, file, f + ".prefill_flops");
        if (r.prefillFlops < 0) {
            fail("negative FLOP count", file, f + ".prefill_flops", ">= 0", flops->dump());
        }
    }
    if (const nlohmann::json* seconds = jsonFind(j, "seconds", file, f)) {
        if (!seconds->is_object()) {
            fail("wrong JSON type", file, f + ".seconds", "an object of numbers",
                 jsonTypeName(*seconds));
        }
        for (const auto& [k, v] : seconds->items()) {
            const double s = jsonToNumber(v, file, f + ".seconds." + k);
            if (s < 0) {
                fail("negative time", file, f + ".seconds." + k, ">= 0", v.dump());
            }
            r.seconds[k] = s;
        }
    }
    r.reusedEncoding = jsonBoolOr(j, "reused_encoding", false, file, f);
    r.config = optStr("config");
    return r;
}

}  // namespace once
