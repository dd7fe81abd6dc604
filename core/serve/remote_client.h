#pragma once
// The client side of `once serve`, for the studio's "Connect to Server…": a question about a
// local video answered by a remote engine (a GPU machine), with the same report a local
// Session gives (pipeline/session.h AskReport: answer, ids, stages, visual tokens, kept
// groups), so the views draw a remote answer as they draw a local one. The video's bytes go as
// a data: URL (the server caches them by hash: a new budget re-uses its encoding); the answer is
// streamed, so the text arrives as it is generated and a cancel closes the connection, which
// cancels the work on the server. Qt-free (cpp-httplib's client), usable from any worker thread.
#include <string>

#include "pipeline/session.h"
#include "util/progress.h"

namespace once::serve {

struct RemoteEndpoint {
    std::string url;     ///< http://host:port (https:// too: the library has TLS)
    std::string apiKey;  ///< empty: none
    int timeoutSeconds = 600;
};

/// The model a server answers with (GET /v1/models) — also the connection check. Throws
/// OnceError naming the URL when it is unreachable, refuses the key or is not an OpenAI server.
std::string remoteModel(const RemoteEndpoint& endpoint);

struct RemoteAnswer {
    AskReport report;  ///< stages as the server measured them (peak memory unknown: −1)
    std::string model;
    std::string videoSha256;
    bool videoCached = false;  ///< the server neither decoded nor encoded it for this answer
    std::string machine;       ///< the server's host:port, for "measured on …"
};

/// Asks `question` about the video file `videoPath` (sent whole; at most `maxVideoBytes`) with
/// `options` (budget or dense, method, params, seed, max tokens, temperature, top-p, system;
/// onText receives the streamed pieces) and `sampling` (empty: the server's). Throws OnceError
/// with the server's message and field for a refused request, Cancelled when `cancel` fires.
RemoteAnswer askRemote(const RemoteEndpoint& endpoint, const std::string& videoPath,
                       const std::string& question, const AskOptions& options,
                       const std::string& sampling, const CancelToken& cancel,
                       std::size_t maxVideoBytes = std::size_t(256) << 20);

}  // namespace once::serve
