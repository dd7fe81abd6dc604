#pragma once
// The HTTP side of `once serve` over cpp-httplib (Debian's libcpp-httplib-dev; no hand-written
// HTTP parsing): POST /v1/chat/completions (JSON or server-sent events), GET /v1/models,
// GET /health, GET /metrics. Requests run on the library's worker threads; the engine answers
// one at a time (serve_engine.h); at most ServerOptions::maxConcurrent chat completions are
// admitted (running or waiting), the rest get 429 with Retry-After; a client that leaves cancels
// its work (client_watch.h). Errors are OpenAI error objects naming the field.
#include <memory>
#include <string>

#include "serve/metrics.h"
#include "serve/serve_engine.h"

namespace once::serve {

struct ServerOptions {
    std::string host = "127.0.0.1";
    int port = 8080;     ///< 0: any free port (bind() returns it)
    std::string apiKey;  ///< required on /v1/*; empty: none (loopback binds only)
    int maxConcurrent = 4;
    int retryAfterSeconds = 1;    ///< Retry-After of a 429
    int readTimeoutSeconds = 60;  ///< a client that sends its body slower is dropped
};

class HttpServer {
  public:
    /// Throws OnceError when `options.host` is not a loopback address and there is no API key,
    /// or when maxConcurrent < 1.
    HttpServer(ServeEngine& engine, ServerOptions options);
    ~HttpServer();

    /// Binds the listening socket; returns the port. Throws OnceError when it cannot.
    int bind();
    /// Serves until stop() is called (from any thread, a signal watcher included).
    void serve();
    void stop();
    const ServeMetrics& metrics() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

}  // namespace once::serve
