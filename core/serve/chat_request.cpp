#include "serve/chat_request.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "serve/api_error.h"
#include "util/error.h"
#include "util/json_file.h"
#include "video/sampling_rule.h"

namespace once::serve {
namespace {

using json = nlohmann::json;
const std::string kFile = "request";

[[noreturn]] void bad(const std::string& message, const std::string& field,
                      const std::string& expected, const std::string& found) {
    throw ApiError(400, "invalid_request_error", message, {kFile, field, expected, found});
}

std::string item(const std::string& field, std::size_t i) {
    return field + "[" + std::to_string(i) + "]";
}

// Members of an object other than `known`: an error naming the first, so a misspelt option is
// never silently ignored.
void onlyKnown(const json& object, const std::string& field, const std::set<std::string>& known) {
    for (const auto& [key, value] : object.items()) {
        if (!known.count(key)) {
            std::string list;
            for (const auto& k : known) {
                list += (list.empty() ? "" : ", ") + k;
            }
            bad("unsupported member", field.empty() ? key : field + "." + key, "one of " + list,
                printableExcerpt(key));
        }
    }
}

std::string limitedText(const json& v, const std::string& field, std::size_t maxBytes) {
    std::string s = jsonToString(v, kFile, field);
    if (s.size() > maxBytes) {
        tooLarge("the text", field, maxBytes, s.size());
    }
    return s;
}

double numberIn(const json& v, const std::string& field, double lo, double hi) {
    const double d = jsonToNumber(v, kFile, field);
    if (d < lo || d > hi) {
        bad("number out of range", field, std::to_string(lo) + ".." + std::to_string(hi), v.dump());
    }
    return d;
}

// A {"url": "…"} object: a file:// path or a data: URL within the video limit.
VideoSource readVideoUrl(const json& vu, const std::string& field, const RequestLimits& limits) {
    onlyKnown(vu, field, {"url"});
    const std::string url =
        jsonToString(jsonRequire(vu, "url", kFile, field), kFile, field + ".url");
    return parseMediaUrl(url, field + ".url", limits.maxVideoBytes);
}

// A message's content: a string, or an array of text and video_url parts. Text is appended to
// `text` (parts joined by newlines); a video part fills `video` (at most one in the request).
void readContent(const json& content, const std::string& field, bool allowVideo,
                 const RequestLimits& limits, std::string& text, ChatRequest& r, bool& haveVideo) {
    auto addText = [&](const json& v, const std::string& f) {
        std::string s = limitedText(v, f, limits.maxTextBytes);
        text += (text.empty() ? "" : "\n") + s;
        if (text.size() > limits.maxTextBytes) {
            tooLarge("the message text", field, limits.maxTextBytes, text.size());
        }
    };
    if (content.is_string()) {
        addText(content, field);
        return;
    }
    if (!content.is_array()) {
        bad("wrong JSON type", field, "a string or an array of content parts",
            jsonTypeName(content));
    }
    for (std::size_t i = 0; i < content.size(); ++i) {
        const std::string f = item(field, i);
        const json& part = content[i];
        const std::string type =
            jsonToString(jsonRequire(part, "type", kFile, f), kFile, f + ".type");
        if (type == "text") {
            onlyKnown(part, f, {"type", "text"});
            addText(jsonRequire(part, "text", kFile, f), f + ".text");
        } else if (type == "video_url" && allowVideo) {
            onlyKnown(part, f, {"type", "video_url"});
            if (haveVideo) {
                bad("only one video per request", f, "one video_url part", "a second one");
            }
            r.video =
                readVideoUrl(jsonRequire(part, "video_url", kFile, f), f + ".video_url", limits);
            haveVideo = true;
        } else {
            bad("unsupported content part", f + ".type", allowVideo ? "text or video_url" : "text",
                printableExcerpt(type));
        }
    }
}

void readMessages(const json& messages, const RequestLimits& limits, ChatRequest& r) {
    const std::string field = "messages";
    if (!messages.is_array() || messages.empty()) {
        bad("messages must be a non-empty array", field, "an array of messages",
            messages.is_array() ? "an empty array" : jsonTypeName(messages));
    }
    bool haveUser = false, haveVideo = false;
    for (std::size_t i = 0; i < messages.size(); ++i) {
        const std::string f = item(field, i);
        const json& m = messages[i];
        const std::string role = jsonToString(jsonRequire(m, "role", kFile, f), kFile, f + ".role");
        onlyKnown(m, f, {"role", "content", "name"});
        const json& content = jsonRequire(m, "content", kFile, f);
        if (role == "system" || role == "developer") {
            if (haveUser || !r.system.empty()) {
                bad("one system message, before the user's", f + ".role", "user", role);
            }
            readContent(content, f + ".content", false, limits, r.system, r, haveVideo);
        } else if (role == "user") {
            if (haveUser) {
                // The session answers one question about one video; earlier turns would be
                // silently dropped, so they are refused instead.
                bad("only one user message: the server answers one question per request",
                    f + ".role", "a single user turn", "a second user message");
            }
            readContent(content, f + ".content", true, limits, r.question, r, haveVideo);
            haveUser = true;
        } else {
            bad("unsupported role (one question per request: no assistant or tool turns)",
                f + ".role", "system, developer or user", printableExcerpt(role));
        }
    }
    if (!haveUser) {
        bad("no user message", field, "one user message", "none");
    }
    if (!haveVideo) {
        bad("no video: the user message needs a video_url part", field,
            "a {\"type\": \"video_url\"} part", "none");
    }
}

void readOnce(const json& o, CompressionRequest& c) {
    const std::string field = "once";
    if (!o.is_object()) {
        bad("wrong JSON type", field, "an object", jsonTypeName(o));
    }
    onlyKnown(o, field, {"method", "budget", "dense", "params", "return_groups", "sampling"});
    c.method = jsonStringOr(o, "method", "", kFile, field);
    c.dense = jsonBoolOr(o, "dense", false, kFile, field);
    if (o.contains("budget")) {
        if (o["budget"].is_null()) {
            c.dense = true;
        } else {
            c.budget = jsonToInt(o["budget"], kFile, field + ".budget", 1,
                                 std::numeric_limits<std::int32_t>::max());
        }
    }
    if (c.dense && c.budget) {
        bad("give a budget or dense, not both", field + ".dense", "false with a budget", "true");
    }
    if (const json* p = jsonFind(o, "params", kFile, field)) {
        if (!p->is_object()) {
            bad("wrong JSON type", field + ".params", "an object of name: value", jsonTypeName(*p));
        }
        for (const auto& [key, value] : p->items()) {
            const std::string f = field + ".params." + key;
            if (value.is_string()) {
                c.params[key] = value.get<std::string>();
            } else if (value.is_number() || value.is_boolean()) {
                c.params[key] = value.dump();
            } else {
                bad("wrong JSON type", f, "a string, number or boolean", jsonTypeName(value));
            }
        }
    }
    c.returnGroups = jsonBoolOr(o, "return_groups", false, kFile, field);
    c.sampling = jsonStringOr(o, "sampling", "", kFile, field);
    if (!c.sampling.empty()) {
        try {
            c.sampling = SamplingRule::parse(c.sampling).toString();
        } catch (const OnceError& e) {
            bad(e.brief(), field + ".sampling", "a sampling rule (uniform:N, fps:…)",
                printableExcerpt(c.sampling));
        }
    }
}

// The parsed body object, after the size and depth limits.
json parseBody(std::string_view body, const RequestLimits& limits) {
    if (body.size() > limits.maxBodyBytes) {
        tooLarge("the request body", "", limits.maxBodyBytes, body.size());
    }
    JsonLimits jl;
    jl.maxDepth = limits.maxJsonDepth;
    json j = parseJsonText(body, kFile, {}, jl);
    if (!j.is_object()) {
        bad("the body must be a JSON object", "", "an object", jsonTypeName(j));
    }
    return j;
}

std::uint64_t readSeed(const json& j) {
    const json* v = jsonFind(j, "seed", kFile, "");
    return v ? std::uint64_t(
                   jsonToInt(*v, kFile, "seed", 0, std::numeric_limits<std::int64_t>::max()))
             : 42;
}

}  // namespace

ChatRequest parseChatRequest(std::string_view body, const RequestLimits& limits) {
    const json j = parseBody(body, limits);
    onlyKnown(j, "",
              {"model", "messages", "stream", "stream_options", "max_tokens",
               "max_completion_tokens", "temperature", "top_p", "seed", "n", "user", "once"});
    ChatRequest r;
    r.model = jsonStringOr(j, "model", "", kFile, "");
    readMessages(jsonRequire(j, "messages", kFile, ""), limits, r);
    r.stream = jsonBoolOr(j, "stream", false, kFile, "");
    if (const json* so = jsonFind(j, "stream_options", kFile, "")) {
        onlyKnown(*so, "stream_options", {"include_usage"});
        r.includeUsage = jsonBoolOr(*so, "include_usage", false, kFile, "stream_options");
    }
    for (const char* key : {"max_completion_tokens", "max_tokens"}) {
        if (const json* v = jsonFind(j, key, kFile, ""); v && !r.maxTokens) {
            r.maxTokens = jsonToInt(*v, kFile, key, 1, limits.maxNewTokens);
        }
    }
    if (const json* v = jsonFind(j, "temperature", kFile, "")) {
        r.temperature = numberIn(*v, "temperature", 0, 2);
    }
    if (const json* v = jsonFind(j, "top_p", kFile, "")) {
        r.topP = numberIn(*v, "top_p", 0, 1);
        if (r.topP <= 0) {
            bad("top_p must be above 0", "top_p", "0 < top_p <= 1", v->dump());
        }
    }
    r.seed = readSeed(j);
    if (const json* v = jsonFind(j, "n", kFile, "")) {
        jsonToInt(*v, kFile, "n", 1, 1);  // one choice per request
    }
    if (const json* v = jsonFind(j, "user", kFile, "")) {
        jsonToString(*v, kFile, "user");  // accepted for compatibility; not used
    }
    if (const json* v = jsonFind(j, "once", kFile, "")) {
        readOnce(*v, r.once);
    }
    return r;
}

CompressRequest parseCompressRequest(std::string_view body, const RequestLimits& limits) {
    const json j = parseBody(body, limits);
    onlyKnown(j, "", {"model", "video_url", "seed", "once"});
    CompressRequest r;
    r.model = jsonStringOr(j, "model", "", kFile, "");
    r.video = readVideoUrl(jsonRequire(j, "video_url", kFile, ""), "video_url", limits);
    r.seed = readSeed(j);
    if (const json* v = jsonFind(j, "once", kFile, "")) {
        readOnce(*v, r.once);
    }
    if (r.once.dense) {
        bad("nothing to compress: a compression needs a budget", "once.dense",
            "a budget (or none: the server's --budget)", "dense");
    }
    return r;
}

}  // namespace once::serve
