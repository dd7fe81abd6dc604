#pragma once
// The engine behind `once serve`: one AnswerSession (pipeline/answer_session.h: the model loaded
// once, the compressors of the registry prepared once per video) answering chat requests one
// at a time, with the studio's caching: a video sent again (same bytes, same sampling) is not
// decoded or encoded again, and a new budget or method on the video in use only re-budgets.
// Qt-free and HTTP-free: serve/http_server.h is the transport, tests call it directly.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/answer_session.h"
#include "serve/chat_request.h"
#include "util/progress.h"

namespace once::serve {

struct EngineOptions {
    AnswerSessionOptions
        session;  ///< model folder, codebook, device, dtype, default method/sampling
    /// Budget of requests that name none; nullopt: dense.
    std::optional<std::int64_t> defaultBudget;
    /// Folder whose files a request may name with file://; empty: none (data: URLs only).
    std::string mediaRoot;
    RequestLimits limits;
    std::int64_t defaultMaxTokens = 256;  ///< requests without max_tokens
    std::size_t videoCacheEntries = 8;    ///< encoded videos kept (least recently used goes)
    std::string servedModelName;          ///< `model` of the API; empty: the folder's name
};

/// One answered request: the session's report and what the response says about the video.
struct EngineAnswer {
    AskReport report;
    std::string videoSha256;
    std::string sampling;      ///< the rule the video was sampled with
    bool videoCached = false;  ///< neither decoded nor encoded for this request
    std::int64_t frames = 0, patches = 0;
    int gridH = 0, gridW = 0;
    std::vector<double> frameTimes;  ///< seconds of each feature frame (may be empty)
    std::int64_t maxTokens = 0;      ///< the limit the answer was generated with
    double waitSeconds = 0;          ///< time queued behind other requests
    /// A compress-only request's compressor result and prepare cost (compress()); else empty.
    CompressDetail compression;
};

class ServeEngine {
  public:
    /// Loads the model (and codebook). Throws OnceError like AnswerSession.
    explicit ServeEngine(EngineOptions options);
    ~ServeEngine();

    /// Answers `request` on the calling thread, after the requests before it (one generation at
    /// a time). `onText` receives the answer's UTF-8 pieces as they are generated. `cancel`
    /// (the client went away) stops the wait, the decode and the generation: Cancelled. Throws
    /// ApiError / OnceError for a request the model cannot answer (the engine stays usable).
    EngineAnswer answer(const ChatRequest& request,
                        const std::function<void(const std::string&)>& onText,
                        const CancelToken& cancel);

    /// Compresses the request's video at its budget, after the requests before it, and stops
    /// there (POST /v1/once/compress): the report holds the load and compress stages and the kept
    /// groups; `compression` the compressor's result. A cached video only re-budgets.
    EngineAnswer compress(const CompressRequest& request, const CancelToken& cancel);

    const EngineOptions& options() const;
    /// The name clients put in `model` (GET /v1/models).
    const std::string& modelName() const;
    const std::vector<std::string>& notices() const;

  private:
    /// Checks the compression, waits for the engine and makes the session hold the video
    /// (cached, or decoded and encoded); fills `a`'s video facts. The lock is the engine's turn.
    std::unique_lock<std::timed_mutex> useVideo(const VideoSource& video,
                                                const CompressionRequest& c,
                                                const CancelToken& cancel, EngineAnswer& a);

    struct State;
    std::unique_ptr<State> s_;
};

}  // namespace once::serve
