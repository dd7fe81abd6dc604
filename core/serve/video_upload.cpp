#include "serve/video_upload.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <mutex>

#include "serve/media_url.h"
#include "util/error.h"
#include "util/json_file.h"
#include "util/sha256.h"

namespace once::serve {
namespace fs = std::filesystem;
namespace {

struct HashedFile {
    std::string path;
    std::uintmax_t size = 0;
    fs::file_time_type modified;
    std::string sha256;
};

// The files this process hashed, most recent first. A file rewritten in place within the file
// system's timestamp resolution at the same size would keep its old hash; the server hashes
// the bytes it receives itself, so that could only name the old video, never corrupt the cache.
std::mutex hashedMutex;
std::deque<HashedFile> hashed;
constexpr std::size_t kHashedFiles = 64;

}  // namespace

FileDigest fileDigest(const std::string& path, std::size_t maxBytes) {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(path, ec);
    const fs::file_time_type modified = ec ? fs::file_time_type() : fs::last_write_time(path, ec);
    if (ec) {
        fail("cannot read the video", path, {}, "a readable file", ec.message());
    }
    if (size > maxBytes) {
        fail("the video is larger than the client's limit", path, {},
             "at most " + std::to_string(maxBytes) + " bytes", std::to_string(size) + " bytes");
    }
    {
        std::lock_guard lock(hashedMutex);
        const auto it = std::find_if(hashed.begin(), hashed.end(), [&](const HashedFile& h) {
            return h.path == path && h.size == size && h.modified == modified;
        });
        if (it != hashed.end()) {
            return {it->sha256, size};
        }
    }
    // Hashed outside the lock: another thread's question about another file need not wait.
    const std::string sha256 = Sha256::hexOfFile(path);
    std::lock_guard lock(hashedMutex);
    hashed.erase(std::remove_if(hashed.begin(), hashed.end(),
                                [&](const HashedFile& h) { return h.path == path; }),
                 hashed.end());
    hashed.push_front({path, size, modified, sha256});
    if (hashed.size() > kHashedFiles) {
        hashed.pop_back();
    }
    return {sha256, size};
}

void sendVideo(const std::string& path, std::size_t maxBytes,
               const std::function<void(const std::string& videoUrl)>& send) {
    try {
        send(cachedVideoUrl(fileDigest(path, maxBytes).sha256));
        return;
    } catch (const VideoNotCached&) {
        // The server does not hold it (never sent, evicted, restarted): upload it, once.
    }
    send(videoDataUrl(readFileLimited(path, maxBytes), path));
}

bool serverWantsTheBytes(int status, const nlohmann::json& error) {
    if (!error.is_object()) {
        return false;
    }
    if (error.contains("code") && error["code"] == kVideoNotCachedCode) {
        return true;
    }
    const auto text = [&](const char* key) {
        return error.contains(key) && error[key].is_string() ? error[key].get<std::string>()
                                                             : std::string();
    };
    // media_url.cpp's answer to a scheme it does not know, unchanged since before the hash form.
    return status == 400 && text("message").find("unsupported video URL") != std::string::npos &&
           text("param").find("video_url") != std::string::npos;
}

}  // namespace once::serve
