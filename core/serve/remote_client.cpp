#include "serve/remote_client.h"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "compress/compression.h"
#include "serve/kept_groups.h"
#include "serve/media_url.h"
#include "serve/remote_report.h"
#include "serve/video_upload.h"
#include "util/error.h"
#include "util/json_file.h"

namespace once::serve {
namespace {

using json = nlohmann::json;

std::unique_ptr<httplib::Client> connect(const RemoteEndpoint& e) {
    auto c = std::make_unique<httplib::Client>(e.url);
    if (!c->is_valid()) {
        fail("not a server URL", e.url, "server", "http://host:port", e.url);
    }
    c->set_connection_timeout(10, 0);
    c->set_read_timeout(e.timeoutSeconds, 0);
    c->set_write_timeout(e.timeoutSeconds, 0);
    if (!e.apiKey.empty()) {
        c->set_bearer_token_auth(e.apiKey);
    }
    return c;
}

// The server's OpenAI error as an OnceError naming the URL and the field; a 429 as "server
// busy" with its Retry-After.
[[noreturn]] void serverError(const RemoteEndpoint& e, int status, const std::string& body,
                              const std::string& retryAfter = {}) {
    if (status == 429) {
        const std::string after = retryAfter.empty() ? "1" : printableExcerpt(retryAfter, 8);
        fail("server busy, retry in " + after + " s (its --max-concurrent requests are running)",
             e.url, kBusyField, "a free slot", "HTTP 429");
    }
    const json j = json::parse(body, nullptr, false);
    if (j.is_object() && j.contains("error") && j["error"].is_object()) {
        const json& err = j["error"];
        const std::string message = err.value("message", std::string());
        if (serverWantsTheBytes(status, err)) {
            throw VideoNotCached(message);  // sendVideo uploads it
        }
        const std::string param = err.contains("param") && err["param"].is_string()
                                      ? err["param"].get<std::string>()
                                      : "";
        fail("the server refused the request (HTTP " + std::to_string(status) + "): " + message,
             e.url, param);
    }
    fail("the server answered HTTP " + std::to_string(status), e.url, kUnreachableField,
         "an OpenAI-compatible server", printableExcerpt(body, 200));
}

// "host:port" of the endpoint, for "measured on …".
std::string machineOf(const RemoteEndpoint& e) {
    const auto scheme = e.url.find("://");
    return e.url.substr(scheme == std::string::npos ? 0 : scheme + 3);
}

}  // namespace

std::string remoteModel(const RemoteEndpoint& e) {
    auto c = connect(e);
    auto res = c->Get("/v1/models");
    if (!res) {
        fail("cannot reach the server: " + httplib::to_string(res.error()), e.url,
             kUnreachableField, "a running `once serve`", "no answer");
    }
    if (res->status != 200) {
        serverError(e, res->status, res->body);
    }
    const json j = parseJsonText(res->body, e.url + "/v1/models");
    const json& data = jsonRequire(j, "data", e.url, "");
    if (!data.is_array() || data.empty()) {
        fail("the server lists no model", e.url, "data", "one model", "none");
    }
    return jsonToString(jsonRequire(data[0], "id", e.url, "data[0]"), e.url, "data[0].id");
}

namespace {

// askRemote with the video as `videoUrl` (its hash or its bytes: sendVideo).
RemoteAnswer askWithUrl(const RemoteEndpoint& e, const std::string& videoUrl,
                        const std::string& question, const AskOptions& o,
                        const std::string& sampling, const CancelToken& cancel) {
    json once = json::object();
    if (o.budget) {
        once["budget"] = *o.budget;
    } else {
        once["dense"] = true;
    }
    if (!o.method.empty()) {
        once["method"] = o.method;
    }
    if (!o.params.empty()) {
        once["params"] = o.params;
    }
    once["return_groups"] = true;
    if (!sampling.empty()) {
        once["sampling"] = sampling;
    }
    json content = json::array();
    content.push_back({{"type", "video_url"}, {"video_url", {{"url", videoUrl}}}});
    content.push_back({{"type", "text"}, {"text", question}});
    json messages = json::array();
    if (!o.system.empty()) {
        messages.push_back({{"role", "system"}, {"content", o.system}});
    }
    messages.push_back({{"role", "user"}, {"content", content}});
    const json body = {{"messages", messages},
                       {"max_tokens", o.maxNewTokens},
                       {"temperature", o.temperature},
                       {"top_p", o.topP},
                       {"seed", o.seed},
                       {"stream", true},
                       {"stream_options", {{"include_usage", true}}},
                       {"once", once}};

    RemoteAnswer a;
    int status = 0;
    std::string buffer, errorBody, finish;
    bool sawOnce = false;
    httplib::Request req;
    req.method = "POST";
    req.path = "/v1/chat/completions";
    req.body = body.dump();
    req.set_header("Content-Type", "application/json");
    std::string retryAfter;
    req.response_handler = [&](const httplib::Response& r) {
        status = r.status;
        retryAfter = r.get_header_value("Retry-After");
        return true;
    };
    // Server-sent events: "data: {json}\n\n" … "data: [DONE]\n\n".
    auto onEvent = [&](const std::string& data) {
        if (data == "[DONE]") {
            return;
        }
        const json j = parseJsonText(data, e.url, "a server-sent event");
        if (j.contains("error")) {
            serverError(e, 500, data);
        }
        if (const json* ch = jsonFind(j, "choices", e.url, ""); ch && ch->is_array()) {
            for (const json& c : *ch) {
                const json& delta = jsonRequire(c, "delta", e.url, "choices");
                const std::string piece = jsonStringOr(delta, "content", "", e.url, "delta");
                a.report.answer += piece;
                if (!piece.empty() && o.onText) {
                    o.onText(piece);
                }
                if (c.contains("finish_reason") && c["finish_reason"].is_string()) {
                    finish = c["finish_reason"].get<std::string>();
                }
            }
        }
        if (const json* usage = jsonFind(j, "usage", e.url, "")) {
            a.report.promptTokens =
                jsonToInt(jsonRequire(*usage, "prompt_tokens", e.url, "usage"), e.url,
                          "usage.prompt_tokens", 0, std::int64_t(1) << 40);
        }
        if (const json* onceReport = jsonFind(j, "once", e.url, "")) {
            readRemoteReport(a, *onceReport, e.url);
            sawOnce = true;
        }
    };
    std::exception_ptr failure;
    req.content_receiver = [&](const char* data, std::size_t n, std::uint64_t, std::uint64_t) {
        if (cancel.cancelled()) {
            return false;  // closes the connection: the server cancels the work
        }
        if (status != 200) {
            errorBody.append(data, n);
            return errorBody.size() < (std::size_t(1) << 20);
        }
        buffer.append(data, n);
        try {
            for (std::size_t end; (end = buffer.find("\n\n")) != std::string::npos;) {
                const std::string event = buffer.substr(0, end);
                buffer.erase(0, end + 2);
                if (event.rfind("data: ", 0) == 0) {
                    onEvent(event.substr(6));
                }
            }
        } catch (...) {
            failure = std::current_exception();
            return false;
        }
        return buffer.size() < (std::size_t(16) << 20);
    };
    auto c = connect(e);
    const httplib::Result res = c->send(req);
    cancel.throwIfCancelled();
    if (failure) {
        std::rethrow_exception(failure);
    }
    if (status != 200 && status != 0) {
        serverError(e, status, errorBody, retryAfter);
    }
    if (!res) {
        fail("the connection to the server failed: " + httplib::to_string(res.error()), e.url,
             kUnreachableField, "a complete answer", "a broken connection");
    }
    if (!sawOnce) {
        fail("the server's answer has no `once` report: is it `once serve`?", e.url, "once",
             "the once member", "none");
    }
    a.report.stoppedByToken = finish == "stop";
    a.machine = machineOf(e);
    return a;
}

// remoteCompress with the video as `videoUrl`.
RemoteCompression compressWithUrl(const RemoteEndpoint& e, const std::string& videoUrl,
                                  const AskOptions& o, const std::string& sampling,
                                  const CancelToken& cancel) {
    if (!o.budget) {
        fail("a remote compression needs a budget", e.url, "once.budget", "a budget >= 1", "dense");
    }
    json once = {{"budget", *o.budget}};
    if (!o.method.empty()) {
        once["method"] = o.method;
    }
    if (!o.params.empty()) {
        once["params"] = o.params;
    }
    if (!sampling.empty()) {
        once["sampling"] = sampling;
    }
    const json body = {{"video_url", {{"url", videoUrl}}}, {"seed", o.seed}, {"once", once}};
    cancel.throwIfCancelled();
    auto c = connect(e);
    // A cancel (the slider moved on) closes the connection, which cancels the server's work;
    // httplib's blocking client has no cancel of its own, so a watcher stops it (stop() is the
    // one call it allows from another thread).
    std::atomic<bool> done{false};
    std::thread watch([&] {
        while (!done.load()) {
            if (cancel.cancelled()) {
                c->stop();
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    const httplib::Result res = c->Post("/v1/once/compress", body.dump(), "application/json");
    done = true;
    watch.join();
    cancel.throwIfCancelled();
    if (!res) {
        fail("cannot reach the server: " + httplib::to_string(res.error()), e.url,
             kUnreachableField, "a running `once serve`", "no answer");
    }
    if (res->status != 200) {
        serverError(e, res->status, res->body, res->get_header_value("Retry-After"));
    }
    const std::string where = e.url + "/v1/once/compress";
    const json j = parseJsonText(res->body, where);
    const json& onceReport = jsonRequire(j, "once", where, "");
    RemoteAnswer a;
    readRemoteReport(a, onceReport, where);
    if (a.report.groupOfToken.empty()) {
        fail("the server's compression has no kept groups", where, "once.groups", "groups", "none");
    }
    RemoteCompression out;
    auto result = keptGroups(a.report);
    const json& cj = jsonRequire(onceReport, "compression", where, "once");
    const std::string f = "once.compression";
    out.prepareMs = jsonToNumber(jsonRequire(cj, "prepare_ms", where, f), where, f + ".prepare_ms");
    out.preparedNow = jsonBoolOr(cj, "prepared_now", false, where, f);
    if (const json* c2 = jsonFind(cj, "coverage", where, f)) {
        result->coverage = jsonToNumber(*c2, where, f + ".coverage");
    }
    if (const json* u = jsonFind(cj, "used_codewords", where, f)) {
        // Codewords with any token before the budget (ONCE's #{k : n_k > 0}): may exceed M.
        result->usedCodewords =
            jsonToInt(*u, where, f + ".used_codewords", 0, std::int64_t(1) << 40);
    }
    if (const json* st = jsonFind(cj, "step_seconds", where, f)) {
        auto step = [&](const char* name) {
            const json* v = jsonFind(*st, name, where, f + ".step_seconds");
            return v ? jsonToNumber(*v, where, f + ".step_seconds." + name) : 0.0;
        };
        result->seconds = {step("assign"), step("select"), step("reassign"), step("pool")};
    }
    out.result = std::move(result);
    out.stages = std::move(a.report.stages);
    out.videoSha256 = a.videoSha256;
    out.videoCached = a.videoCached;
    out.machine = machineOf(e);
    return out;
}

}  // namespace

RemoteAnswer askRemote(const RemoteEndpoint& e, const std::string& videoPath,
                       const std::string& question, const AskOptions& o,
                       const std::string& sampling, const CancelToken& cancel,
                       std::size_t maxVideoBytes) {
    RemoteAnswer a;
    sendVideo(videoPath, maxVideoBytes, [&](const std::string& url) {
        a = askWithUrl(e, url, question, o, sampling, cancel);
    });
    return a;
}

RemoteCompression remoteCompress(const RemoteEndpoint& e, const std::string& videoPath,
                                 const AskOptions& o, const std::string& sampling,
                                 const CancelToken& cancel, std::size_t maxVideoBytes) {
    RemoteCompression c;
    sendVideo(videoPath, maxVideoBytes,
              [&](const std::string& url) { c = compressWithUrl(e, url, o, sampling, cancel); });
    return c;
}

}  // namespace once::serve
