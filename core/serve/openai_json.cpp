#include "serve/openai_json.h"

#include <map>

#include "compress/compression.h"

namespace once::serve {

using json = nlohmann::json;

json errorJson(const std::string& message, const std::string& type, const std::string& param,
               const std::string& code) {
    return {{"error",
             {{"message", message},
              {"type", type},
              {"param", param.empty() ? json(nullptr) : json(param)},
              {"code", code.empty() ? json(nullptr) : json(code)}}}};
}

json keptGroupsJson(const EngineAnswer& a) {
    const AskReport& r = a.report;
    if (r.dense || r.groupOfToken.empty() || a.patches <= 0) {
        return nullptr;
    }
    // Rows in output order; members by frame, patches ascending (tokens are frame-major).
    std::int64_t rows = 0;
    for (std::int64_t g : r.groupOfToken) {
        rows = std::max(rows, g + 1);
    }
    std::vector<std::map<std::int64_t, std::vector<std::int64_t>>> members(
        static_cast<std::size_t>(rows));
    std::int64_t dropped = 0;
    for (std::size_t i = 0; i < r.groupOfToken.size(); ++i) {
        const std::int64_t g = r.groupOfToken[i];
        if (g < 0) {
            ++dropped;
            continue;
        }
        const auto token = std::int64_t(i);
        members[std::size_t(g)][token / a.patches].push_back(token % a.patches);
    }
    json out = json::array();
    for (std::int64_t m = 0; m < rows; ++m) {
        json frames = json::array();
        std::int64_t size = 0;
        for (const auto& [frame, patches] : members[std::size_t(m)]) {
            frames.push_back({{"frame", frame}, {"patches", patches}});
            size += std::int64_t(patches.size());
        }
        const std::int64_t codeword =
            std::size_t(m) < r.codewordIds.size() ? r.codewordIds[std::size_t(m)] : -1;
        out.push_back({{"row", m}, {"codeword", codeword}, {"size", size}, {"members", frames}});
    }
    return {{"frames", a.frames},
            {"patches", a.patches},
            {"grid", {a.gridH, a.gridW}},
            {"dropped", dropped},
            {"rows", out}};
}

json usageJson(const EngineAnswer& a) {
    const auto completion = std::int64_t(a.report.tokenIds.size());
    return {{"prompt_tokens", a.report.promptTokens},
            {"completion_tokens", completion},
            {"total_tokens", a.report.promptTokens + completion}};
}

json onceJson(const EngineAnswer& a, bool withGroups) {
    const AskReport& r = a.report;
    json timings = {{"queue", a.waitSeconds}};
    json stages = json::array();
    for (const StageReport& s : r.stages) {
        stages.push_back({{"name", s.name}, {"seconds", s.seconds}, {"cached", s.cached}});
        if (!s.cached) {
            timings[s.name] = s.seconds;
        }
    }
    json j = {{"method", r.dense ? json(nullptr) : json(r.method)},
              {"budget", r.dense ? json(nullptr) : json(r.budget)},
              {"dense", r.dense},
              {"visual_tokens",
               {{"before", r.sourceTokens},
                {"after", r.contentTokens + r.layoutTokens},
                {"content", r.contentTokens},
                {"layout", r.layoutTokens}}},
              {"video",
               {{"sha256", a.videoSha256},
                {"cached", a.videoCached},
                {"sampling", a.sampling},
                {"frames", a.frames},
                {"patches", a.patches},
                {"grid", {a.gridH, a.gridW}},
                {"frame_times", a.frameTimes}}},
              {"timings", timings},
              {"stages", stages},
              {"token_ids", r.tokenIds},
              {"prefill_flops", r.prefillFlops}};
    if (withGroups) {
        j["groups"] = keptGroupsJson(a);
    }
    return j;
}

std::string finishReason(const EngineAnswer& a) {
    return a.report.stoppedByToken ? "stop" : "length";
}

json completionJson(const std::string& id, std::int64_t created, const std::string& model,
                    const EngineAnswer& a, bool withGroups) {
    return {{"id", id},
            {"object", "chat.completion"},
            {"created", created},
            {"model", model},
            {"choices",
             {{{"index", 0},
               {"message", {{"role", "assistant"}, {"content", a.report.answer}}},
               {"logprobs", nullptr},
               {"finish_reason", finishReason(a)}}}},
            {"usage", usageJson(a)},
            {"once", onceJson(a, withGroups)}};
}

json compressionJson(const std::string& id, std::int64_t created, const std::string& model,
                     const EngineAnswer& a) {
    json once = onceJson(a, true);
    json c = {{"prepare_ms", a.compression.prepareMs},
              {"prepared_now", a.report.prepareSeconds > 0}};
    if (const auto& r = a.compression.result) {
        c["outputs"] = r->numOutputs;
        c["used_codewords"] = r->usedCodewords;
        c["coverage"] = r->coverage;
        c["step_seconds"] = {{"assign", r->seconds.assign},
                             {"select", r->seconds.select},
                             {"reassign", r->seconds.reassign},
                             {"pool", r->seconds.pool}};
    }
    once["compression"] = c;
    return {{"id", id},
            {"object", "once.compression"},
            {"created", created},
            {"model", model},
            {"once", once}};
}

json chunkJson(const std::string& id, std::int64_t created, const std::string& model,
               json choices) {
    return {{"id", id},
            {"object", "chat.completion.chunk"},
            {"created", created},
            {"model", model},
            {"choices", std::move(choices)}};
}

std::string sseData(const json& j) {
    // Invalid UTF-8 in a piece (a byte-level token cut mid-character at the end) is replaced,
    // never a throw in the middle of a stream.
    return "data: " + j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n\n";
}

}  // namespace once::serve
