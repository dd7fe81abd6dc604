#pragma once
// The client side of `once serve`, for the studio's "Connect to Server…": a question about a
// local video answered by a remote engine (a GPU machine), with the same report a local
// AnswerSession gives (pipeline/answer_session.h AskReport: answer, ids, stages, visual tokens,
// kept groups), so the views draw a remote answer as they draw a local one. The video goes by its
// hash first and as a data: URL only when the server does not hold it (serve/video_upload.h: one
// upload per video, not per question; a new budget re-uses the server's encoding); the answer is
// streamed, so the text arrives as it is generated and a cancel closes the connection, which
// cancels the work on the server. A compression alone (remoteCompress: the studio's budgets,
// overlay and sweep) comes back as the local path's CompressionResult (serve/kept_groups.h).
// Qt-free (cpp-httplib's client), usable from any worker thread.
#include <memory>
#include <string>

#include "pipeline/answer_session.h"
#include "serve/kept_groups.h"
#include "util/progress.h"

namespace once::serve {

/// Fields of the client's errors (OnceError::where().field) a caller tells apart: the server
/// could not be reached or the connection broke (work elsewhere), and a full queue (HTTP 429:
/// "server busy, retry in N s" — the server is fine, ask again later).
inline constexpr const char* kUnreachableField = "server";
inline constexpr const char* kBusyField = "Retry-After";

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

/// Asks `question` about the video file `videoPath` (named by its hash; sent whole, at most
/// `maxVideoBytes`, when the server does not hold it) with
/// `options` (budget or dense, method, params, seed, max tokens, temperature, top-p, system;
/// onText receives the streamed pieces) and `sampling` (empty: the server's). Throws OnceError
/// with the server's message and field for a refused request, Cancelled when `cancel` fires.
RemoteAnswer askRemote(const RemoteEndpoint& endpoint, const std::string& videoPath,
                       const std::string& question, const AskOptions& options,
                       const std::string& sampling, const CancelToken& cancel,
                       std::size_t maxVideoBytes = std::size_t(256) << 20);

struct RemoteCompression {
    /// The server's result: keptGroups() of its groups, with its outputs, used codewords,
    /// coverage and ONCE's step timings (CompressionResult::seconds).
    std::shared_ptr<const CompressionResult> result;
    std::vector<StageReport> stages;  ///< the server's load and compress stages
    double prepareMs = 0;             ///< the compressor's once-per-video cost on the server
    bool preparedNow = false;         ///< prepared for this request (not re-budgeted)
    std::string videoSha256;
    bool videoCached = false;
    std::string machine;  ///< the server's host:port
};

/// Compresses the video file `videoPath` on the server at options.budget (required) with
/// options.method, params and seed, and `sampling` (empty: the server's) — POST
/// /v1/once/compress, no generation. Throws OnceError like askRemote (kBusyField for a 429).
RemoteCompression remoteCompress(const RemoteEndpoint& endpoint, const std::string& videoPath,
                                 const AskOptions& options, const std::string& sampling,
                                 const CancelToken& cancel,
                                 std::size_t maxVideoBytes = std::size_t(256) << 20);

}  // namespace once::serve
