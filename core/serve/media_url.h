#pragma once
// The video of a chat request, as vLLM takes it in a `video_url` content part: a `file://` URL
// of a file the server may read (only under its --media-root, checked like every other name
// read from outside: util/safe_path.h), or a `data:video/…;base64,…` URL within the size limit.
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
    bool isData() const { return filePath.empty(); }
};

/// Parses `url` (request field `field`). Throws ApiError 400 naming `field` for a scheme other
/// than file: and data:, a file URL with a host other than localhost or a relative path, a bad
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
