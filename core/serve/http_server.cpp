#include "serve/http_server.h"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <random>

#include "serve/access.h"
#include "serve/api_error.h"
#include "serve/client_watch.h"
#include "serve/openai_json.h"
#include "util/error.h"
#include "util/json_file.h"

namespace once::serve {
namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
const std::string kChat = "/v1/chat/completions";
const std::string kCompress = "/v1/once/compress";

std::string dumped(const json& j) {
    // A byte-level token may end in a cut UTF-8 character: replaced, never a throw.
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

void sendError(httplib::Response& res, int status, const std::string& message,
               const std::string& type, const std::string& param, const std::string& code = {}) {
    res.status = status;
    res.set_content(dumped(errorJson(message, type, param, code)), "application/json");
}

// The OpenAI error of an exception a request raised: its status, type, field and code.
struct Failure {
    int status = 500;
    std::string type = "internal_error", message, param, code;
};

Failure failureOf(std::exception_ptr e) {
    Failure f;
    try {
        std::rethrow_exception(e);
    } catch (const ApiError& a) {
        f = {a.status(), a.type(), a.what(), a.where().field, a.code()};
    } catch (const OnceError& o) {
        f = {400, "invalid_request_error", o.what(), o.where().field, {}};
    } catch (const std::exception& x) {
        f.message = std::string("internal error: ") + x.what();
    }
    return f;
}

std::int64_t unixTime() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

struct HttpServer::Impl {
    ServeEngine& engine;
    ServerOptions options;
    httplib::Server http;
    ServeMetrics metrics;
    DisconnectWatcher watcher;
    std::atomic<int> admitted{0};
    int port = 0;
    std::mutex idMutex;
    std::mt19937_64 idRandom{std::random_device{}()};

    Impl(ServeEngine& e, ServerOptions o) : engine(e), options(std::move(o)) {}

    std::string newId(const char* prefix = "chatcmpl-") {
        std::lock_guard lock(idMutex);
        char buf[32];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(idRandom()));
        return prefix + std::string(buf);
    }

    bool authorised(const httplib::Request& req, httplib::Response& res) {
        if (options.apiKey.empty()) {
            return true;
        }
        const std::string token = bearerToken(req.get_header_value("Authorization"));
        if (!token.empty() && sameSecret(token, options.apiKey)) {
            return true;
        }
        res.set_header("WWW-Authenticate", "Bearer");
        sendError(
            res, 401,
            token.empty() ? "missing API key: send Authorization: Bearer KEY" : "wrong API key",
            "authentication_error", "Authorization");
        return false;
    }

    // One admitted chat completion, from admission until its last byte (or its client's
    // departure): releases the admission, stops watching its socket, records its latency.
    struct Admission {
        Impl& d;
        CancelToken token;
        std::uint64_t watchId = 0;
        Clock::time_point start = Clock::now();
        Admission(Impl& impl, const httplib::Request& req) : d(impl) {
            d.metrics.started();
            watchId = d.watcher.watch(
                findConnectionSocket(req.remote_addr, req.remote_port, d.port), token);
        }
        ~Admission() {
            d.watcher.unwatch(watchId);
            d.admitted.fetch_sub(1);
            d.metrics.finished(std::chrono::duration<double>(Clock::now() - start).count());
        }
        Admission(const Admission&) = delete;
        Admission& operator=(const Admission&) = delete;
    };

    // A request for the engine let in: authorised and within --max-concurrent; else null with
    // the 401 or the 429 (Retry-After) in `res`.
    std::shared_ptr<Admission> admit(const httplib::Request& req, httplib::Response& res) {
        if (!authorised(req, res)) {
            return nullptr;
        }
        if (admitted.fetch_add(1) >= options.maxConcurrent) {
            admitted.fetch_sub(1);
            res.set_header("Retry-After", std::to_string(options.retryAfterSeconds));
            sendError(res, 429,
                      "the server is busy: " + std::to_string(options.maxConcurrent) +
                          " requests are running or queued (--max-concurrent); retry later",
                      "rate_limit_error", "");
            return nullptr;
        }
        return std::make_shared<Admission>(*this, req);
    }

    void checkModel(const std::string& model) const {
        if (!model.empty() && model != engine.modelName()) {
            throw ApiError(404, "not_found_error",
                           "the model '" + model + "' is not served here (GET /v1/models)",
                           {"request", "model", engine.modelName(), model});
        }
    }

    // Answers a chat completion; false when the answer streams (its status is recorded at the
    // end of the stream).
    bool chat(const httplib::Request& req, httplib::Response& res) {
        auto admission = admit(req, res);
        if (!admission) {
            return true;
        }
        ChatRequest request;
        try {
            request = parseChatRequest(req.body, engine.options().limits);
            metrics.videoReceived(request.video);
            checkModel(request.model);
        } catch (...) {
            const Failure f = failureOf(std::current_exception());
            sendError(res, f.status, f.message, f.type, f.param, f.code);
            return true;
        }
        const std::string id = newId();
        const std::int64_t created = unixTime();
        if (request.stream) {
            res.set_chunked_content_provider(
                "text/event-stream",
                [this, admission, request, id, created](std::size_t, httplib::DataSink& sink) {
                    stream(request, id, created, *admission, sink);
                    return true;
                });
            res.set_header("Cache-Control", "no-cache");
            return false;
        }
        try {
            const EngineAnswer a = engine.answer(request, {}, admission->token);
            metrics.observe(a);
            res.set_content(dumped(completionJson(id, created, engine.modelName(), a,
                                                  request.once.returnGroups)),
                            "application/json");
        } catch (...) {
            answerFailure(res, std::current_exception());
        }
        return true;
    }

    // The answer of a request that threw: 499 when its client left, else its OpenAI error.
    void answerFailure(httplib::Response& res, const std::exception_ptr& e) {
        try {
            std::rethrow_exception(e);
        } catch (const Cancelled&) {
            metrics.cancelled();
            // The client is gone: 499 (nginx's "client closed request") goes nowhere but the log.
            sendError(res, 499, "cancelled: the client closed the connection", "cancelled", "");
            return;
        } catch (...) {
        }
        const Failure f = failureOf(e);
        sendError(res, f.status, f.message, f.type, f.param, f.code);
    }

    // A compression alone (no generation): the kept groups and timings, as JSON.
    void compress(const httplib::Request& req, httplib::Response& res) {
        auto admission = admit(req, res);
        if (!admission) {
            return;
        }
        try {
            const CompressRequest request = parseCompressRequest(req.body, engine.options().limits);
            metrics.videoReceived(request.video);
            checkModel(request.model);
            const EngineAnswer a = engine.compress(request, admission->token);
            metrics.observe(a);
            res.set_content(
                dumped(compressionJson(newId("cmpr-"), unixTime(), engine.modelName(), a)),
                "application/json");
        } catch (...) {
            answerFailure(res, std::current_exception());
        }
    }

    // The whole streamed answer, on the worker thread, after the 200 and the headers.
    void stream(const ChatRequest& request, const std::string& id, std::int64_t created,
                Admission& admission, httplib::DataSink& sink) {
        const std::string& model = engine.modelName();
        auto write = [&](const std::string& s) {
            if (!sink.write(s.data(), s.size())) {
                admission.token.cancel();  // the client is gone: stop generating for it
            }
        };
        auto choice = [](json delta, json finish) {
            return json::array({{{"index", 0},
                                 {"delta", std::move(delta)},
                                 {"logprobs", nullptr},
                                 {"finish_reason", std::move(finish)}}});
        };
        write(sseData(chunkJson(id, created, model,
                                choice({{"role", "assistant"}, {"content", ""}}, nullptr))));
        int status = 200;
        try {
            const EngineAnswer a = engine.answer(
                request,
                [&](const std::string& piece) {
                    write(sseData(
                        chunkJson(id, created, model, choice({{"content", piece}}, nullptr))));
                },
                admission.token);
            metrics.observe(a);
            json last = chunkJson(id, created, model, choice(json::object(), finishReason(a)));
            last["once"] = onceJson(a, request.once.returnGroups);
            write(sseData(last));
            if (request.includeUsage) {
                json usage = chunkJson(id, created, model, json::array());
                usage["usage"] = usageJson(a);
                write(sseData(usage));
            }
        } catch (const Cancelled&) {
            metrics.cancelled();
            status = 499;
        } catch (...) {
            // Headers are sent: the error goes in the stream, as OpenAI's clients expect.
            const Failure f = failureOf(std::current_exception());
            status = f.status;
            write(sseData(errorJson(f.message, f.type, f.param, f.code)));
        }
        metrics.answered(kChat, status);
        if (status != 499) {
            write("data: [DONE]\n\n");
        }
        sink.done();
    }

    void routes() {
        http.Post(kChat, [this](const httplib::Request& req, httplib::Response& res) {
            if (chat(req, res)) {
                metrics.answered(kChat, res.status < 0 ? 200 : res.status);
            }
        });
        http.Post(kCompress, [this](const httplib::Request& req, httplib::Response& res) {
            compress(req, res);
            metrics.answered(kCompress, res.status < 0 ? 200 : res.status);
        });
        http.Get("/v1/models", [this](const httplib::Request& req, httplib::Response& res) {
            if (authorised(req, res)) {
                const json model = {{"id", engine.modelName()},
                                    {"object", "model"},
                                    {"created", unixTime()},
                                    {"owned_by", "once"}};
                res.set_content(dumped({{"object", "list"}, {"data", json::array({model})}}),
                                "application/json");
            }
            metrics.answered("/v1/models", res.status < 0 ? 200 : res.status);
        });
        http.Get("/health", [this](const httplib::Request&, httplib::Response& res) {
            res.set_content(dumped({{"status", "ok"}, {"model", engine.modelName()}}),
                            "application/json");
        });
        http.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
            res.set_content(metrics.prometheusText(), "text/plain; version=0.0.4");
        });
        // What the library answers by itself (unknown route, 413 over the body limit, a bad
        // request line) in the same error shape.
        http.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
            if (!res.body.empty()) {
                return;
            }
            const bool large = res.status == 413;
            sendError(res, res.status,
                      large ? "the request body is larger than the server's limit"
                            : "HTTP " + std::to_string(res.status) + " for " + req.method + " " +
                                  printableExcerpt(req.path),
                      res.status == 404 ? "not_found_error" : "invalid_request_error",
                      large ? "body" : "");
        });
        // curl sends large bodies after "Expect: 100-continue": one over the limit is refused
        // before it is sent.
        http.set_expect_100_continue_handler(
            [this](const httplib::Request& req, httplib::Response& res) {
                const std::size_t limit = engine.options().limits.maxBodyBytes;
                if (req.get_header_value<std::uint64_t>("Content-Length") > limit) {
                    sendError(res, 413, "the request body is larger than the server's limit",
                              "invalid_request_error", "body");
                    return 413;
                }
                return 100;
            });
        http.set_exception_handler(
            [](const httplib::Request&, httplib::Response& res, std::exception_ptr e) {
                const Failure f = failureOf(e);
                sendError(res, f.status, f.message, f.type, f.param, f.code);
            });
    }
};

HttpServer::HttpServer(ServeEngine& engine, ServerOptions options) {
    if (options.apiKey.empty() && !isLoopbackHost(options.host)) {
        fail("binding to a non-loopback address needs an API key (--api-key-file)", {}, "--host",
             "127.0.0.1, ::1 or localhost without a key", options.host);
    }
    if (options.maxConcurrent < 1) {
        fail("--max-concurrent must be at least 1", {}, "--max-concurrent", ">= 1",
             std::to_string(options.maxConcurrent));
    }
    d_ = std::make_unique<Impl>(engine, std::move(options));
    const ServerOptions& o = d_->options;
    // Workers: the admitted chat completions, and room for /health, /metrics and the 429s.
    const std::size_t workers = std::size_t(o.maxConcurrent) + 8;
    d_->http.new_task_queue = [workers] { return new httplib::ThreadPool(workers); };
    d_->http.set_payload_max_length(engine.options().limits.maxBodyBytes);
    d_->http.set_read_timeout(o.readTimeoutSeconds, 0);
    d_->http.set_write_timeout(30, 0);
    d_->routes();
}

HttpServer::~HttpServer() = default;

int HttpServer::bind() {
    const ServerOptions& o = d_->options;
    d_->port = o.port == 0 ? d_->http.bind_to_any_port(o.host)
                           : (d_->http.bind_to_port(o.host, o.port) ? o.port : -1);
    if (d_->port <= 0) {
        fail("cannot listen on " + o.host + ":" + std::to_string(o.port) +
                 " (address in use, or not an address of this machine)",
             {}, "--host/--port", "a free local address", o.host + ":" + std::to_string(o.port));
    }
    return d_->port;
}

void HttpServer::serve() {
    d_->http.listen_after_bind();
}

void HttpServer::stop() {
    d_->http.stop();
}

const ServeMetrics& HttpServer::metrics() const {
    return d_->metrics;
}

}  // namespace once::serve
