#include "models/hub_cache.h"

#include <cstdlib>
#include <filesystem>

#include "util/error.h"
#include "util/regular_file.h"

namespace once {
namespace fs = std::filesystem;
namespace {

// refs/main holds the 40 hexadecimal digits of a commit and nothing else.
constexpr std::size_t kMaxRefBytes = 256;

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

std::string expandHome(const std::string& path) {
    if (path == "~" || path.rfind("~/", 0) == 0) {
        return env("HOME") + path.substr(1);
    }
    return path;
}

bool isCommitHash(const std::string& s) {
    return s.size() == 40 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// A repository folder of the cache: refs/ and snapshots/, as huggingface_hub creates them.
bool isRepoFolder(const fs::path& dir) {
    std::error_code ec;
    return fs::is_directory(dir / "snapshots", ec) && fs::is_directory(dir / "refs", ec) &&
           !fs::exists(dir / "config.json", ec);
}

std::string snapshotOfMain(const fs::path& repo, const std::string& asked) {
    const std::string ref = (repo / "refs" / "main").string();
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(ref, ec))) {
        fail("the hub cache holds no refs/main for " + asked + " (download it with `hf download " +
                 asked + "` or give its snapshots/COMMIT folder)",
             ref, "refs/main", "the commit hash of the main branch", "no file");
    }
    const std::string text = readRegularFile(ref, kMaxRefBytes, "refs/main");
    if (!isCommitHash(text)) {
        fail("refs/main of the hub cache is not a commit hash", ref, "refs/main",
             "40 hexadecimal digits", "\"" + text.substr(0, 60) + "\"");
    }
    const fs::path snapshot = repo / "snapshots" / text;
    if (!fs::is_directory(snapshot, ec)) {
        fail("the snapshot that refs/main names is not in the hub cache", snapshot.string(),
             "refs/main", "a folder snapshots/" + text, "missing");
    }
    return snapshot.string();
}

}  // namespace

std::string hubCacheFolder() {
    for (const char* name : {"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"}) {
        if (const std::string v = env(name); !v.empty()) {
            return expandHome(v);
        }
    }
    if (const std::string home = env("HF_HOME"); !home.empty()) {
        return (fs::path(expandHome(home)) / "hub").string();
    }
    const std::string xdg = env("XDG_CACHE_HOME");
    const fs::path cache = xdg.empty() ? fs::path(env("HOME")) / ".cache" : fs::path(xdg);
    return (cache / "huggingface" / "hub").string();
}

bool isHubRepoId(const std::string& text) {
    if (text.empty() || text.size() > 96 || text.find("--") != std::string::npos ||
        text.find("..") != std::string::npos) {
        return false;
    }
    const std::size_t slash = text.find('/');
    if (slash != std::string::npos && text.find('/', slash + 1) != std::string::npos) {
        return false;
    }
    const auto partOk = [](const std::string& p) {
        return !p.empty() && p.front() != '-' && p.front() != '.' && p.back() != '-' &&
               p.back() != '.' &&
               p.find_first_not_of(
                   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                   "0123456789-_.") == std::string::npos;
    };
    return slash == std::string::npos
               ? partOk(text)
               : partOk(text.substr(0, slash)) && partOk(text.substr(slash + 1));
}

std::string resolveModelFolder(const std::string& model) {
    std::error_code ec;
    if (fs::is_directory(model, ec)) {
        return isRepoFolder(model) ? snapshotOfMain(model, fs::path(model).filename().string())
                                   : model;
    }
    if (fs::exists(fs::symlink_status(model, ec)) || !isHubRepoId(model)) {
        return model;  // a file, or not a name the Hub could have: the reader says what it is
    }
    std::string folder = "models--" + model;
    for (std::size_t at = folder.find('/'); at != std::string::npos; at = folder.find('/')) {
        folder.replace(at, 1, "--");
    }
    const fs::path repo = fs::path(hubCacheFolder()) / folder;
    if (!fs::is_directory(repo, ec)) {
        fail("no such model folder, and " + model + " is not in the Hugging Face hub cache",
             repo.string(), "model",
             "a model folder, or a repository downloaded with `hf download " + model + "`",
             "neither (" + model + " is not a folder here)");
    }
    return snapshotOfMain(repo, model);
}

}  // namespace once
