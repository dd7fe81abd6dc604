// once serve: video Q&A over the OpenAI chat API (POST /v1/chat/completions, streaming or not),
// with the compressor and budget chosen per request, the kept groups on request, and the model
// loaded once. The engine and the HTTP server are in core/serve/ (docs/serve.md).
#include <atomic>
#include <chrono>
#include <iostream>
#include <thread>

#include "cli/command.h"
#include "cli/video_options.h"
#include "compress/token_compressor.h"
#include "models/backbone.h"
#include "serve/access.h"
#include "serve/chat_request.h"
#include "serve/http_server.h"
#include "serve/serve_engine.h"
#include "util/error.h"

namespace once::cli {
namespace {

void declare(ArgParser& p) {
    p.option("model", "DIR|ORG/NAME",
             "Hugging Face folder of the backbone (LLaVA-OneVision, Qwen3.5), or its repository "
             "in the hub cache (HF_HUB_CACHE)")
        .option("codebook", "FILE", "codebook for ONCE compression (method once)")
        .option("method", "NAME", "compressor of requests that name none", "once")
        .option("budget", "B", "budget of requests that name none (default: dense)")
        .integerIn(1, kMaxIntOption)
        .option("host", "ADDR", "address to listen on; anything but loopback needs --api-key-file",
                "127.0.0.1")
        .option("port", "N", "port to listen on (0: any free port, printed)", "8080")
        .integerIn(0, 65535)
        .option("api-key-file", "FILE",
                "file whose first line is the key clients send as 'Authorization: Bearer KEY'")
        .option("media-root", "DIR", "folder whose videos requests may name with file:// URLs")
        .option("max-concurrent", "N",
                "chat completions running or queued at once; more get 429 with Retry-After", "4")
        .integerIn(1, 4096)
        .option("max-video-mib", "M", "largest video a request may send or name, in MiB", "256")
        .integerIn(1, 16384)
        .option("max-new-tokens", "N", "answer length of requests without max_tokens", "256")
        .integerIn(1, serve::RequestLimits{}.maxNewTokens)
        .option("video-cache", "N", "encoded videos kept for repeated requests", "8")
        .integerIn(1, 1024)
        .option("served-model-name", "NAME", "the model's name in the API (default: DIR's name)")
        .option("device", "DEV", "cpu, cuda or cuda:N", "cpu");
    declareVideoModelOptions(p, true);
}

int run(const ArgParser& a) {
#ifndef ONCE_HAVE_SERVE
    (void)a;
    fail("this `once` was built without the HTTP server (ONCE_WITH_SERVE=OFF: no cpp-httplib)", {},
         "once serve", "a build with libcpp-httplib-dev", "ONCE_WITH_SERVE=OFF");
#else
    if (!a.has("model")) {
        throw UsageError("--model DIR|ORG/NAME is required");
    }
    serve::ServerOptions so;
    so.host = a.get("host");
    so.port = a.getInt32("port", "serve");  // the ranges of all numbers: declare()'s domains
    if (a.has("api-key-file")) {
        so.apiKey = serve::readApiKeyFile(a.get("api-key-file"));
    } else if (!serve::isLoopbackHost(so.host)) {
        // Checked before the model loads: a misconfigured deployment fails at once.
        throw UsageError("--host " + so.host +
                         " is reachable from other machines: give --api-key-file");
    }
    so.maxConcurrent = a.getInt32("max-concurrent", "serve");

    serve::EngineOptions eo;
    std::string samplingNotice;
    eo.session = sessionOptionsFrom(a, &samplingNotice);  // as `once ask` reads them
    printNotices({samplingNotice});
    AnswerSessionOptions& s = eo.session;
    // Parameters travel with each request (once.params); the default method takes its defaults.
    s.method = a.get("method");
    compressorInfo(s.method);  // an unknown method fails before the model loads
    if (a.has("budget")) {
        eo.defaultBudget = a.getInt("budget");
        if (compressorInfo(s.method).needsCodebook && s.codebook.empty()) {
            throw UsageError("--budget with --method " + s.method + " needs --codebook");
        }
    }
    if (a.has("media-root")) {
        eo.mediaRoot = a.get("media-root");
    }
    const std::int64_t mib = a.getInt("max-video-mib");
    eo.limits.maxVideoBytes = std::size_t(mib) << 20;
    // A data: URL carries the video in base64 (4 bytes per 3), plus the rest of the request.
    eo.limits.maxBodyBytes = eo.limits.maxVideoBytes / 3 * 4 + (std::size_t(1) << 20);
    eo.defaultMaxTokens = a.getInt("max-new-tokens");
    eo.videoCacheEntries = std::size_t(a.getInt("video-cache"));
    eo.servedModelName = a.getOr("served-model-name", "");

    serve::ServeEngine engine(eo);
    printNotices(engine.notices());
    serve::HttpServer server(engine, so);
    const int port = server.bind();
    // SIGINT/SIGTERM (main's handler cancels interruptToken) stop the server; a watcher thread
    // does it, as a signal handler may not.
    std::atomic<bool> done{false};
    std::thread stopper([&] {
        while (!done.load() && !interruptToken().cancelled()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        server.stop();
    });
    std::cout << "once serve: model '" << engine.modelName() << "' on http://" << so.host << ":"
              << port << " (" << (so.apiKey.empty() ? "no API key" : "API key required")
              << ", media root " << (eo.mediaRoot.empty() ? "none" : eo.mediaRoot) << ")"
              << std::endl;
    server.serve();
    done = true;
    stopper.join();
    std::cerr << "once serve: stopped\n";
    return 0;
#endif
}

const CommandRegistrar reg{{"serve",
                            "answer video questions over the OpenAI chat API (budget per request)",
                            declare, run}};

}  // namespace
}  // namespace once::cli
