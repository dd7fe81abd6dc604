#include "serve/serve_engine.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <list>
#include <mutex>

#include "compress/token_compressor.h"
#include "serve/api_error.h"
#include "serve/media_url.h"
#include "util/error.h"
#include "util/sha256.h"

namespace once::serve {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

struct CachedVideo {
    std::string key;  ///< SHA-256 of the bytes, then the sampling rule
    EncodedVideo video;
    std::vector<StageReport> stages;  ///< its decode and encode, as first measured
    std::string origin;
};

// A private folder for the bytes of data: URLs while they are decoded (the decoder reads
// files); removed with the engine.
std::string makeScratchDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/once-serve.XXXXXX";
    if (!mkdtemp(pattern.data())) {
        fail("cannot create a scratch folder for uploaded videos", pattern, {}, "a writable TMPDIR",
             std::strerror(errno));
    }
    return pattern;
}

// The compressor a request asks for, checked before any work so that the error names the
// request's field (the registry's own errors name a command-line option).
void checkCompression(const CompressionRequest& c, const EngineOptions& o) {
    const std::string method = c.method.empty() ? o.session.method : c.method;
    const std::vector<CompressorInfo> infos = compressorInfos();
    std::string known;
    const CompressorInfo* info = nullptr;
    for (const CompressorInfo& i : infos) {
        known += (known.empty() ? "" : ", ") + i.method;
        info = i.method == method ? &i : info;
    }
    if (!info) {
        throw ApiError(400, "invalid_request_error", "unknown compression method",
                       {"request", "once.method", "one of " + known, method});
    }
    for (const auto& [key, value] : c.params) {
        if (!info->defaults.count(key)) {
            std::string keys;
            for (const auto& [k, v] : info->defaults) {
                keys += (keys.empty() ? "" : ", ") + k;
            }
            throw ApiError(400, "invalid_request_error",
                           "method '" + method + "' has no parameter '" + key + "'",
                           {"request", "once.params." + key,
                            keys.empty() ? "no parameters" : "one of " + keys, key});
        }
    }
    const bool compressed = !c.dense && (c.budget || o.defaultBudget);
    if (compressed && info->needsCodebook && o.session.codebook.empty()) {
        throw ApiError(400, "invalid_request_error",
                       "method '" + method + "' needs a codebook and this server has none",
                       {"request", "once.method", "a method without a codebook, or dense", method});
    }
}

}  // namespace

struct ServeEngine::State {
    EngineOptions options;
    std::string modelName;
    std::string scratchDir;
    /// One generation at a time: the session (model, KV cache, prepared compressors) is not
    /// shared between threads. Timed, so that a waiting request notices its client leave.
    std::timed_mutex busy;
    AnswerSession session;
    std::list<CachedVideo> cache;  ///< most recently used first; guarded by `busy`
    std::string currentKey;        ///< the video the session holds

    explicit State(EngineOptions o) : options(std::move(o)), session(options.session) {}

    bool holds(const std::string& key) const {
        return key == currentKey || std::any_of(cache.begin(), cache.end(),
                                                [&](const CachedVideo& c) { return c.key == key; });
    }

    // Makes the session hold the video of `key`: nothing when it does, setVideo from the cache,
    // or a decode and encode of `path`. True when nothing was decoded or encoded.
    bool useVideo(const std::string& key, const std::string& path, const std::string& sampling,
                  Progress& progress) {
        if (key == currentKey) {
            return true;
        }
        for (auto it = cache.begin(); it != cache.end(); ++it) {
            if (it->key == key) {
                cache.splice(cache.begin(), cache, it);
                std::vector<StageReport> stages = it->stages;
                for (auto& st : stages) {
                    st.cached = true;
                }
                currentKey.clear();  // setVideo may throw; then no video is current
                session.setVideo(it->video, it->origin, stages);
                currentKey = key;
                return true;
            }
        }
        currentKey.clear();
        session.loadVideo(path, &progress, sampling);
        currentKey = key;
        cache.push_front({key, session.video(), session.loadStages(), path});
        while (cache.size() > std::max<std::size_t>(1, options.videoCacheEntries)) {
            cache.pop_back();
        }
        return false;
    }
};

ServeEngine::ServeEngine(EngineOptions options) {
    s_ = std::make_unique<State>(std::move(options));
    s_->modelName = s_->options.servedModelName;
    if (s_->modelName.empty()) {
        s_->modelName = fs::path(s_->options.session.modelDir).lexically_normal().filename();
        if (s_->modelName.empty()) {  // "dir/" normalises to "dir/": its parent's name
            s_->modelName =
                fs::path(s_->options.session.modelDir).lexically_normal().parent_path().filename();
        }
    }
    s_->scratchDir = makeScratchDir();
}

ServeEngine::~ServeEngine() {
    std::error_code ec;
    fs::remove_all(s_->scratchDir, ec);
}

const EngineOptions& ServeEngine::options() const {
    return s_->options;
}

const std::string& ServeEngine::modelName() const {
    return s_->modelName;
}

const std::vector<std::string>& ServeEngine::notices() const {
    return s_->session.notices();
}

std::unique_lock<std::timed_mutex> ServeEngine::useVideo(const VideoSource& video,
                                                         const CompressionRequest& c,
                                                         const CancelToken& cancel,
                                                         EngineAnswer& a) {
    const EngineOptions& o = s_->options;
    checkCompression(c, o);
    const std::string videoField = "messages.video_url.url";
    // What the video is, before waiting for the engine: hashing runs in parallel.
    std::string path;
    if (video.isCached()) {
        a.videoSha256 = video.cachedSha256;
    } else if (video.isData()) {
        a.videoSha256 = Sha256::hex(video.bytes.data(), video.bytes.size());
    } else {
        path = resolveMediaFile(o.mediaRoot, video.filePath, videoField, o.limits.maxVideoBytes);
        a.videoSha256 = Sha256::hexOfFile(path);
    }
    a.sampling = c.sampling.empty() ? s_->session.options().sampling : c.sampling;
    const std::string key = a.videoSha256 + "\n" + a.sampling;

    const auto queued = Clock::now();
    std::unique_lock<std::timed_mutex> lock(s_->busy, std::defer_lock);
    while (!lock.try_lock_for(std::chrono::milliseconds(50))) {
        cancel.throwIfCancelled();
    }
    a.waitSeconds = std::chrono::duration<double>(Clock::now() - queued).count();
    cancel.throwIfCancelled();
    if (video.isCached() && !s_->holds(key)) {
        // Only what the cache holds: the bytes themselves are gone once encoded, so a video
        // encoded with another sampling rule is not held either.
        throw ApiError(404, "not_found_error",
                       "this server does not hold the video named by its hash (never sent, "
                       "evicted from its cache, sent before a restart, or encoded with another "
                       "sampling): send its bytes as a data: URL",
                       {"request", videoField, "a video this server holds",
                        cachedVideoUrl(video.cachedSha256)},
                       kVideoNotCachedCode);
    }

    Progress progress({}, cancel);
    if (video.isData() && !s_->holds(key)) {
        // The decoder reads files: the bytes go to the scratch folder for the decode only.
        path = s_->scratchDir + "/" + a.videoSha256 + video.extension;
        {
            std::ofstream f(path, std::ios::binary | std::ios::trunc);
            f.write(video.bytes.data(), std::streamsize(video.bytes.size()));
            if (!f) {
                fail("cannot write the uploaded video to the scratch folder", path);
            }
        }
        struct Remove {
            std::string p;
            ~Remove() {
                std::error_code ec;
                fs::remove(p, ec);
            }
        } remove{path};
        a.videoCached = s_->useVideo(key, path, a.sampling, progress);
    } else {
        a.videoCached = s_->useVideo(key, path, a.sampling, progress);
    }
    const EncodedVideo& v = s_->session.video();
    a.frames = v.numFrames();
    a.patches = v.patchesPerFrame();
    a.gridH = v.gridH;
    a.gridW = v.gridW;
    a.frameTimes = v.frameTimes;
    return lock;
}

namespace {
// The compressor options of a request: its budget (or the server's), method and parameters.
void compressionOptions(const CompressionRequest& c, const EngineOptions& o, AskOptions& ao) {
    if (!c.dense) {
        ao.budget = c.budget ? c.budget : o.defaultBudget;
    }
    if (!c.method.empty() || !c.params.empty()) {
        ao.method = c.method.empty() ? o.session.method : c.method;
        ao.params = c.params;
    }
}
}  // namespace

EngineAnswer ServeEngine::answer(const ChatRequest& r,
                                 const std::function<void(const std::string&)>& onText,
                                 const CancelToken& cancel) {
    EngineAnswer a;
    const auto lock = useVideo(r.video, r.once, cancel, a);
    AskOptions ao;
    compressionOptions(r.once, s_->options, ao);
    ao.seed = r.seed;
    a.maxTokens = r.maxTokens.value_or(s_->options.defaultMaxTokens);
    ao.maxNewTokens = a.maxTokens;
    ao.temperature = r.temperature;
    ao.topP = r.topP;
    ao.system = r.system;
    ao.onText = onText;
    Progress progress({}, cancel);
    a.report = s_->session.ask(r.question, ao, &progress);
    return a;
}

EngineAnswer ServeEngine::compress(const CompressRequest& r, const CancelToken& cancel) {
    AskOptions ao;
    compressionOptions(r.once, s_->options, ao);
    if (!ao.budget) {
        throw ApiError(400, "invalid_request_error",
                       "nothing to compress: the request names no budget and the server has "
                       "no --budget",
                       {"request", "once.budget", "a budget >= 1", "none"});
    }
    ao.seed = r.seed;
    EngineAnswer a;
    const auto lock = useVideo(r.video, r.once, cancel, a);
    a.report = s_->session.compressOnly(ao, &a.compression);
    return a;
}

}  // namespace once::serve
