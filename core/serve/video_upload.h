#pragma once
// How the client of `once serve` (serve/remote_client.h) sends a local video: first by name —
// once-video:sha256:<hash> (serve/media_url.h), a few bytes — and only when the server answers
// that it does not hold it (never sent, evicted, restarted: kVideoNotCachedCode) once more with
// its bytes as a data: URL. Five questions about a 50 MB clip then upload it once, not five times
// (base64: 67 MB each). The file's hash is computed once per file and kept while its path, size
// and modification time stay the same. Qt-free and HTTP-free: the request is the caller's.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace once::serve {

/// What the client reports when the server answers kVideoNotCachedCode: not an OnceError, so
/// that nothing but sendVideo catches it on the way.
class VideoNotCached : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct FileDigest {
    std::string sha256;  ///< 64 lowercase hex digits
    std::uintmax_t size = 0;
};

/// The SHA-256 of the file `path`, hashed only when this process has not hashed it at this
/// size and modification time (the last 64 files are kept). Thread-safe. Throws OnceError
/// naming the file when it cannot be read or is larger than `maxBytes`.
FileDigest fileDigest(const std::string& path, std::size_t maxBytes);

/// Whether a server's error answer (`error`: the OpenAI error object, {"message", "type",
/// "param", "code"}) to a request that named its video by hash asks for the bytes instead: the
/// server does not hold the video (kVideoNotCachedCode), or it predates the hash form and refuses
/// its scheme like any other unsupported video URL (a 400 on the video's URL field) — a studio
/// connected to an older server then uploads, as it always did, instead of failing.
bool serverWantsTheBytes(int status, const nlohmann::json& error);

/// Calls `send` with the once-video: URL of `path`; when that throws VideoNotCached, calls it
/// once more with the file's bytes as a data: URL (at most `maxBytes`). `send` throws
/// VideoNotCached for the server's kVideoNotCachedCode error and nothing else; its other
/// exceptions pass.
void sendVideo(const std::string& path, std::size_t maxBytes,
               const std::function<void(const std::string& videoUrl)>& send);

}  // namespace once::serve
