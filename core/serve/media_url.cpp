#include "serve/media_url.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <map>
#include <system_error>

#include "serve/api_error.h"
#include "util/json_file.h"
#include "util/safe_path.h"

namespace once::serve {
namespace fs = std::filesystem;
namespace {

const std::string kWhere = "request";

[[noreturn]] void badUrl(const std::string& message, const std::string& field,
                         const std::string& expected, std::string_view found) {
    throw ApiError(400, "invalid_request_error", message,
                   {kWhere, field, expected, printableExcerpt(found, 60)});
}

int hexValue(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    c = char(std::tolower(static_cast<unsigned char>(c)));
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

std::string percentDecode(std::string_view s, const std::string& field) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') {
            out += s[i];
            continue;
        }
        const int hi = i + 2 < s.size() ? hexValue(s[i + 1]) : -1;
        const int lo = i + 2 < s.size() ? hexValue(s[i + 2]) : -1;
        if (hi < 0 || lo < 0) {
            badUrl("bad percent escape in the file URL", field, "%XX with two hex digits",
                   s.substr(i, 3));
        }
        out += char(hi * 16 + lo);
        i += 2;
    }
    if (out.find('\0') != std::string::npos) {
        badUrl("the file URL contains a NUL byte", field, "a path without NUL", "%00");
    }
    return out;
}

// Media types of the containers FFmpeg reads, with the extension a file of them usually has.
const std::map<std::string, std::string>& extensions() {
    static const std::map<std::string, std::string> m = {
        {"mp4", ".mp4"},       {"webm", ".webm"}, {"x-matroska", ".mkv"}, {"quicktime", ".mov"},
        {"x-msvideo", ".avi"}, {"ogg", ".ogv"},   {"mpeg", ".mpg"},       {"3gpp", ".3gp"},
        {"x-flv", ".flv"},     {"mp2t", ".ts"}};
    return m;
}

VideoSource parseDataUrl(std::string_view url, const std::string& field, std::size_t maxBytes) {
    const std::string expected = "data:video/<type>;base64,<data>";
    const auto comma = url.find(',');
    if (comma == std::string_view::npos) {
        badUrl("the data URL has no ',' before its data", field, expected, url);
    }
    const std::string_view header = url.substr(5, comma - 5);
    const std::string_view suffix = ";base64";
    if (header.size() < suffix.size() || header.substr(header.size() - suffix.size()) != suffix) {
        badUrl("the data URL is not base64", field, expected, header);
    }
    const std::string_view type = header.substr(0, header.size() - suffix.size());
    if (type.substr(0, 6) != "video/" || type.size() == 6 ||
        type.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.+-", 6) !=
            std::string_view::npos) {
        badUrl("the data URL is not a video", field, expected, type);
    }
    VideoSource v;
    const auto ext = extensions().find(std::string(type.substr(6)));
    v.extension = ext == extensions().end() ? std::string() : ext->second;
    v.bytes = decodeBase64(url.substr(comma + 1), field, maxBytes);
    if (v.bytes.empty()) {
        badUrl("the data URL holds no bytes", field, "a video", "0 bytes");
    }
    return v;
}

// once-video:sha256:<64 lowercase hex>, checked strictly: the hash is a cache key, so an
// uppercase or shortened one is a client's bug to report, not a miss to answer with 404.
VideoSource parseCachedUrl(std::string_view url, const std::string& field) {
    const std::string expected = "once-video:sha256:<64 lowercase hex digits>";
    const std::string_view scheme = "once-video:";
    if (url.substr(0, kCachedVideoPrefix.size()) != kCachedVideoPrefix) {
        badUrl("a once-video: URL names a video by its SHA-256 only", field, expected,
               url.substr(scheme.size(), url.find(':', scheme.size()) - scheme.size()));
    }
    const std::string_view hex = url.substr(kCachedVideoPrefix.size());
    if (hex.size() != 64) {
        badUrl("a once-video: URL needs exactly 64 hex digits after sha256:", field, expected,
               std::to_string(hex.size()) + " characters");
    }
    const auto bad = hex.find_first_not_of("0123456789abcdef");
    if (bad != std::string_view::npos) {
        badUrl(
            "a once-video: URL's hash is lowercase hex", field, expected,
            "'" + printableExcerpt(hex.substr(bad, 1)) + "' at digit " + std::to_string(bad + 1));
    }
    VideoSource v;
    v.cachedSha256 = std::string(hex);
    return v;
}

}  // namespace

std::string cachedVideoUrl(const std::string& sha256) {
    return std::string(kCachedVideoPrefix) + sha256;
}

std::string videoDataUrl(std::string_view bytes, const std::string& fileName) {
    std::string type = "mp4";
    const std::string ext = fs::path(fileName).extension().string();
    for (const auto& [t, e] : extensions()) {
        if (e == ext) {
            type = t;
        }
    }
    static const char* alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out = "data:video/" + type + ";base64,";
    out.reserve(out.size() + (bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
        std::uint32_t word = 0;
        for (std::size_t j = 0; j < 3; ++j) {
            word = word << 8 | (j < n ? static_cast<unsigned char>(bytes[i + j]) : 0u);
        }
        for (std::size_t j = 0; j < 4; ++j) {
            out += j <= n ? alphabet[word >> (18 - 6 * j) & 63] : '=';
        }
    }
    return out;
}

std::string decodeBase64(std::string_view text, const std::string& field, std::size_t maxBytes) {
    if (text.size() % 4 != 0) {
        badUrl("base64 data is not a multiple of 4 characters", field, "padded base64",
               std::to_string(text.size()) + " characters");
    }
    // The decoded size is known before any byte is decoded: refuse a large video cheaply.
    std::size_t pad = 0;
    if (!text.empty() && text.back() == '=') {
        pad = text.size() >= 2 && text[text.size() - 2] == '=' ? 2 : 1;
    }
    const std::size_t size = text.size() / 4 * 3 - pad;
    if (size > maxBytes) {
        tooLarge("the video", field, maxBytes, size);
    }
    static const std::array<signed char, 256> table = [] {
        std::array<signed char, 256> t{};
        t.fill(-1);
        const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < 64; ++i) {
            t[static_cast<unsigned char>(a[i])] = static_cast<signed char>(i);
        }
        return t;
    }();
    std::string out;
    out.reserve(size);
    for (std::size_t i = 0; i < text.size(); i += 4) {
        const bool last = i + 4 == text.size();
        std::uint32_t word = 0;
        for (std::size_t j = 0; j < 4; ++j) {
            const char c = text[i + j];
            int v = table[static_cast<unsigned char>(c)];
            if (c == '=' && last && j >= 4 - pad) {
                v = 0;
            } else if (v < 0) {
                badUrl("invalid base64 character", field, "A-Z a-z 0-9 + / and final '='",
                       "byte " + std::to_string(i + j) + ": " +
                           printableExcerpt(text.substr(i + j, 1)));
            }
            word = word << 6 | std::uint32_t(v);
        }
        const char bytes[3] = {char(word >> 16), char(word >> 8 & 0xff), char(word & 0xff)};
        out.append(bytes, last ? 3 - pad : 3);
    }
    return out;
}

VideoSource parseMediaUrl(std::string_view url, const std::string& field,
                          std::size_t maxVideoBytes) {
    if (url.substr(0, 5) == "data:") {
        return parseDataUrl(url, field, maxVideoBytes);
    }
    if (url.substr(0, 11) == "once-video:") {
        return parseCachedUrl(url, field);
    }
    const std::string expected =
        "file:///path under --media-root, data:video/...;base64,..., or "
        "once-video:sha256:<hex>";
    if (url.substr(0, 7) != "file://") {
        badUrl("unsupported video URL (the server fetches nothing from the network)", field,
               expected, url);
    }
    std::string_view rest = url.substr(7);
    if (rest.substr(0, 9) == "localhost") {
        rest.remove_prefix(9);
    }
    if (rest.empty() || rest.front() != '/') {
        badUrl("a file URL needs an absolute path and no host but localhost", field, expected, url);
    }
    if (rest.find_first_of("?#") != std::string_view::npos) {
        badUrl("a file URL takes no query or fragment", field, expected, url);
    }
    VideoSource v;
    v.filePath = percentDecode(rest, field);
    return v;
}

std::string resolveMediaFile(const std::string& mediaRoot, const std::string& path,
                             const std::string& field, std::size_t maxVideoBytes) {
    if (mediaRoot.empty()) {
        throw ApiError(400, "invalid_request_error",
                       "this server reads no files: it was started without --media-root",
                       {kWhere, field, "a data: URL", "a file: URL"});
    }
    // The path relative to the root as given (made absolute) or as resolved (a root reached
    // through a symlink), lexically; resolveInside then resolves symlinks inside and refuses
    // whatever ends up outside.
    std::error_code ec;
    const fs::path given = fs::absolute(mediaRoot, ec).lexically_normal();
    const fs::path wanted = fs::path(path).lexically_normal();
    fs::path rel = wanted.lexically_relative(given);
    if (rel.empty() || *rel.begin() == "..") {
        rel = wanted.lexically_relative(fs::weakly_canonical(given, ec));
    }
    if (rel.empty() || *rel.begin() == ".." || rel == ".") {
        throw ApiError(400, "invalid_request_error", "the video is outside the media root",
                       {kWhere, field, "a file under " + mediaRoot, printableExcerpt(path, 200)});
    }
    const std::string resolved = resolveInside(given.string(), rel.string(), kWhere, field);
    // resolveInside is lexical (docs/security.md: where a user's own symlinks point is the
    // user's decision). A client of the server is not the owner of the file system: what it
    // names must also resolve inside the root, so a symlink in the media root cannot hand out
    // a file elsewhere (as nginx's disable_symlinks if_not_owner).
    const fs::path real = fs::weakly_canonical(resolved, ec);
    const fs::path realRoot = fs::weakly_canonical(given, ec);
    const fs::path inside = real.lexically_relative(realRoot);
    if (ec || inside.empty() || *inside.begin() == ".." || inside == ".") {
        throw ApiError(400, "invalid_request_error",
                       "the video is outside the media root (through a symbolic link)",
                       {kWhere, field, "a file under " + mediaRoot, printableExcerpt(path, 200)});
    }
    if (!fs::is_regular_file(resolved, ec)) {
        throw ApiError(404, "invalid_request_error", "no such video file under the media root",
                       {kWhere, field, "an existing file", printableExcerpt(path, 200)});
    }
    const auto size = fs::file_size(resolved, ec);
    if (ec) {
        throw ApiError(404, "invalid_request_error", "cannot read the video file",
                       {kWhere, field, "a readable file", ec.message()});
    }
    if (size > maxVideoBytes) {
        tooLarge("the video file", field, maxVideoBytes, std::size_t(size));
    }
    return resolved;
}

}  // namespace once::serve
