#include "eval/eval_record.h"

#include <nlohmann/json.hpp>

#include "util/error.h"

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
    try {
        auto j = nlohmann::json::parse(text);
        EvalRecord r;
        r.benchmark = j.at("benchmark").get<std::string>();
        r.questionId = j.at("question_id").get<std::string>();
        r.videoId = j.value("video_id", "");
        r.task = j.value("task", "");
        r.method = j.at("method").get<std::string>();
        r.params = j.value("params", std::map<std::string, std::string>{});
        r.budget = j.at("budget").is_null() ? 0 : j.at("budget").get<std::int64_t>();
        r.seed = j.value("seed", std::uint64_t(42));
        r.prediction = j.value("prediction", "");
        r.parsed = j.value("parsed", "");
        r.answer = j.value("answer", "");
        r.correct = j.at("correct").get<bool>();
        const auto& vt = j.at("visual_tokens");
        r.contentTokens = vt.at("content").get<std::int64_t>();
        r.layoutTokens = vt.at("layout").get<std::int64_t>();
        r.sourceTokens = vt.value("source", std::int64_t(0));
        r.promptTokens = j.value("prompt_tokens", std::int64_t(0));
        r.prefillFlops = j.value("prefill_flops", 0.0);
        r.seconds = j.value("seconds", std::map<std::string, double>{});
        r.reusedEncoding = j.value("reused_encoding", false);
        r.config = j.value("config", "");
        return r;
    } catch (const nlohmann::json::exception& e) {
        fail("malformed evaluation record", file, where, "a results line of `once eval`", e.what());
    }
}

}  // namespace once
