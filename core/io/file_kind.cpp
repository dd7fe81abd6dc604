#include "io/file_kind.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "io/safetensors.h"

namespace fs = std::filesystem;

namespace once {
namespace {

std::string lowerExtension(const fs::path& p) {
    std::string e = p.extension().string();
    std::transform(e.begin(), e.end(), e.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return e;
}

bool contains(const std::vector<std::string>& list, const std::string& x) {
    return std::find(list.begin(), list.end(), x) != list.end();
}

}  // namespace

const std::vector<std::string>& videoExtensions() {
    // What FFmpeg's demuxers of the Debian build open; .ogg and .ts hold video as often as not.
    static const std::vector<std::string> exts = {".mp4", ".mkv",  ".avi", ".mov", ".webm",
                                                  ".mpg", ".mpeg", ".ogv", ".m4v", ".ogg",
                                                  ".ts",  ".flv",  ".wmv"};
    return exts;
}

const std::vector<std::string>& frameImageExtensions() {
    static const std::vector<std::string> exts = {".jpg", ".jpeg", ".png"};
    return exts;
}

bool hasVideoExtension(const std::string& path) {
    return contains(videoExtensions(), lowerExtension(path));
}

bool holdsFrameImages(const std::string& path) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(path, ec)) {
        if (e.is_regular_file(ec) && contains(frameImageExtensions(), lowerExtension(e.path()))) {
            return true;
        }
    }
    return false;
}

FileKind classifyPath(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        return fs::is_regular_file(fs::path(path) / "config.json", ec) ? FileKind::ModelFolder
                                                                       : FileKind::Video;
    }
    if (hasVideoExtension(path)) {
        return FileKind::Video;
    }
    const std::string ext = lowerExtension(path);
    if (ext == ".npy" || ext == ".pt" || ext == ".pth" || ext == ".bin") {
        return FileKind::Codebook;
    }
    if (ext == ".safetensors") {
        try {
            if (SafetensorsFile::open(path).contains("features")) {
                return FileKind::FeatureFile;
            }
        } catch (const std::exception&) {
            // A broken file is reported by the codebook loader, with its reason.
        }
        return FileKind::Codebook;
    }
    return FileKind::Unknown;
}

std::string videoGlobPatterns() {
    std::string out;
    for (const auto& e : videoExtensions()) {
        out += (out.empty() ? "*" : " *") + e;
    }
    return out;
}

}  // namespace once
