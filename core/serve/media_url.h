#pragma once
// The video of a chat request, as vLLM takes it in a `video_url` content part: a `file://` URL
// of a file the server may read (only under its --media-root, checked like every other name
// read from outside: util/safe_path.h), a `data:video/…;base64,…` URL within the size limit, or
// `once-video:sha256:<64 lowercase hex>`: a video the server already holds, named by the SHA-256
// of its bytes (resolved from the server's own video cache only, never a path), so that a
// client asking many questions about one video uploads it once.
// The server fetches nothing from the network.
#include <cstddef>
#include <string>
#include <string_view>

namespace once::serve {

struct VideoSource {
    /// file:// — the path after percent-decoding, absolute, not yet checked against the media
    /// root (resolveMediaFile does that when the video is needed).
    std::string filePath;
    /// data: — the decoded bytes, and a file extension for the media type (".mp4"; "" when the
    /// type has no usual one: the decoder probes the content anyway).
    std::string bytes;
    std::string extension;
    /// once-video:sha256: — the 64 lowercase hex digits of the video's SHA-256.
    std::string cachedSha256;
    bool isData() const { return filePath.empty() && cachedSha256.empty(); }
    bool isCached() const { return !cachedSha256.empty(); }
};

/// The scheme and algorithm of a video named by its content: "once-video:sha256:".
inline constexpr std::string_view kCachedVideoPrefix = "once-video:sha256:";

/// The `code` of the OpenAI error (HTTP 404) a server answers for a once-video: URL it does not
/// hold (never sent, evicted from its cache, or sent before a restart): the client sends the
/// bytes instead.
inline constexpr const char* kVideoNotCachedCode = "video_not_cached";

/// "once-video:sha256:" + `sha256` (64 lowercase hex digits).
std::string cachedVideoUrl(const std::string& sha256);

/// Parses `url` (request field `field`). Throws ApiError 400 naming `field` for a scheme other
/// than file:, data: and once-video:, a once-video: URL other than sha256: and exactly 64
/// lowercase hex digits, a file URL with a host other than localhost or a relative path, a bad
/// percent escape or NUL byte, a data URL that is not base64 `video/*` or whose base64 is
/// malformed; ApiError 413 when the data URL's video would exceed `maxVideoBytes` (checked
/// before decoding).
VideoSource parseMediaUrl(std::string_view url, const std::string& field,
                          std::size_t maxVideoBytes);

/// Standard base64 (RFC 4648 §4, padding required, no whitespace) of at most `maxBytes`
/// decoded bytes; throws ApiError naming `field` otherwise.
std::string decodeBase64(std::string_view text, const std::string& field, std::size_t maxBytes);

/// `bytes` as a data: URL of the video type its file name's extension says (video/mp4 when
/// unknown: the server's decoder probes the content).
std::string videoDataUrl(std::string_view bytes, const std::string& fileName);

/// The file a file:// URL names, resolved inside `mediaRoot` (symlinks and `..` included):
/// throws ApiError 400 naming `field` when no media root is configured, or when `path` lies
/// outside it; 404 when the file does not exist; 413 when it is larger than `maxVideoBytes`.
std::string resolveMediaFile(const std::string& mediaRoot, const std::string& path,
                             const std::string& field, std::size_t maxVideoBytes);

}  // namespace once::serve
