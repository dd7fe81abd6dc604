#include "train/sketch_cache.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>

#include "features/feature_file.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "train/cache_checks.h"
#include "train/sketch_provenance.h"
#include "train/stage_a_manifest.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/json_file.h"
#include "util/safe_path.h"
#include "util/sha256.h"

namespace fs = std::filesystem;

namespace once {

namespace {

bool isFeatureFile(const std::string& path) {
    return fs::path(path).extension() == ".safetensors";
}

nlohmann::json requestJson(const std::vector<CorpusEntry>& corpus, const SketchCacheOptions& o) {
    nlohmann::json sources = nlohmann::json::array();
    for (const auto& e : corpus) {
        sources.push_back({{"source", e.source}, {"category", e.category}});
    }
    nlohmann::json r = {{"bins", o.sketch.bins},  {"R", o.sketch.tokensPerRep},
                        {"m_min", o.sketch.mMin}, {"m_max_requested", o.sketch.mMax},
                        {"cap", o.cap},           {"iterations", o.sketch.iterations},
                        {"seed", o.sketch.seed},  {"shard_rows", o.shardRows},
                        {"backbone", o.backbone}, {"corpus", sources}};
    // Only a task of a sharded run has the key, so whole-corpus manifests keep their bytes and
    // a merge gets the whole-corpus request back by erasing it.
    if (o.shard.sharded()) {
        r["shard"] = {{"index", o.shard.index}, {"count", o.shard.count}};
    }
    return r;
}

// Number of tokens of a video when it can be known without encoding it (feature files); -1 when
// it cannot (a video, or a feature file that will fail to load and be reported then).
std::int64_t knownTokenCount(const std::string& path) {
    if (!isFeatureFile(path)) {
        return -1;
    }
    try {
        auto f = SafetensorsFile::open(path);
        const auto& shape = f.entry("features").shape;
        if (shape.size() != 3 || shape[2] < 1) {
            return -1;
        }
        std::int64_t n = 0;
        return __builtin_mul_overflow(shape[0], shape[1], &n) ? -1 : n;
    } catch (const OnceError&) {
        return -1;
    }
}

EncodedVideo loadTokens(const std::string& path, const VideoEncodeFn& encode, Progress* progress) {
    if (isFeatureFile(path)) {
        return loadFeatureFile(path);
    }
    if (!encode) {
        fail("this corpus entry is a video but no encoder was given", path, "video",
             "a .safetensors feature file or --backbone", "a video file");
    }
    return encode(path, progress);
}

// An error about a video's data (from the sketcher, which knows no file) names the video.
[[noreturn]] void rethrowNamingFile(const OnceError& e, const std::string& file) {
    if (!e.where().file.empty()) {
        throw e;
    }
    throw OnceError(e.brief(), {file, e.where().field, e.where().expected, e.where().found});
}

// True when `path` is a safetensors file whose metadata says it is a `format` file: a file this
// tool wrote, which it may replace or remove.
bool writtenByCache(const std::string& path, const char* format) {
    try {
        return SafetensorsFile::open(path).meta("format") == format;
    } catch (const OnceError&) {
        return false;
    }
}

void requireFreeOrOurs(const std::string& path, const char* format) {
    std::error_code ec;
    if (fs::symlink_status(path, ec).type() != fs::file_type::not_found &&
        !writtenByCache(path, format)) {
        fail("a file the cache did not write has the name of a cache file; move it away", path,
             "name", std::string("nothing or a ") + format + " file", "another file");
    }
}

// "shard-00001.safetensors.tmp-1234": an atomic write of a cache file that a kill interrupted.
bool isCacheTemporary(const std::string& name) {
    const std::string base = temporaryTarget(name);
    return base == "manifest.json" || stageAShardIndex(base) >= 0 || stageAPendingIndex(base) >= 0;
}

void writeManifest(const std::string& path, const StageAManifest& m) {
    writeFileAtomically(path, m.toJson().dump(1));
}

// A finished video waiting for its shard.
struct Buffered {
    std::size_t index = 0;
    bool done = false;
    std::int64_t tokens = 0, reps = 0;
    std::string error;
    std::string pendingFile;
};

struct Pending {
    std::vector<at::Tensor> reps, weights, category, video, bin, exemplar;
    std::vector<Buffered> videos;
    std::int64_t rows = 0;
};

// One run of buildSketchCache: the folder opened (a new cache started, or a stopped one taken
// up where it stopped), the pending sketches of a stopped run recovered, the remaining videos
// sketched one by one, each kept in its pending file before anything else happens, and the
// buffer cut into shards at the fixed row count.
class SketchCacheWriter {
  public:
    SketchCacheWriter(const std::vector<CorpusEntry>& corpus, const std::string& cacheDir,
                      const SketchCacheOptions& options)
        : corpus_(corpus),
          cacheDir_(cacheDir),
          options_(options),
          dir_(cacheDir),
          manifestPath_((dir_ / "manifest.json").string()),
          request_(requestJson(corpus, options)) {
        const std::string dump = request_.dump();
        requestSha_ = Sha256::hex(dump.data(), dump.size());
    }

    SketchCacheSummary run(const VideoEncodeFn& encodeVideo, Progress* progress,
                           std::chrono::steady_clock::time_point start);

  private:
    bool owned(std::size_t i) const { return options_.shard.owns(std::int64_t(i)); }
    /// The folder: new, empty, a Stage-A cache of this tool (resumed), or refused.
    void openFolder();
    /// A resumed cache's request must be this run's: a difference is refused naming the field.
    void checkResumedRequest() const;
    /// The manifest of a new cache, written before any video.
    void startCache();
    /// Leftovers of a killed run of this cache (never files of anyone else): interrupted atomic
    /// writes, and pending sketches whose shard was committed before the kill.
    void removeLeftovers();
    /// Takes back the pending files a stopped run left, in corpus order, from `first`; returns
    /// the first video that still needs sketching.
    std::size_t recoverPending(std::size_t first);
    void recover(std::size_t i, const std::string& path);
    /// Sketches the owned videos from `next` on.
    void sketchRemaining(std::size_t next, const VideoEncodeFn& encodeVideo, Progress* progress,
                         std::chrono::steady_clock::time_point start);
    /// Adds a finished video to the buffer (from this run or from a pending file).
    void accept(std::size_t i, const std::string& file, const std::string& videoBackbone,
                const at::Tensor& reps, const at::Tensor& weights, const at::Tensor& bins,
                const at::Tensor& exemplar, std::int64_t tokens);
    std::string writePending(std::size_t i, const VideoSketch* sk, const at::Tensor& exemplar,
                             const std::string& videoBackbone, const std::string& error);
    /// Writes the buffered videos as the next shard and records them in the manifest.
    void flush();
    /// Marks the cache complete and removes what a killed run of other results left.
    void finish();

    const std::vector<CorpusEntry>& corpus_;
    const std::string cacheDir_;
    const SketchCacheOptions& options_;
    const fs::path dir_;
    const std::string manifestPath_;
    const nlohmann::json request_;
    std::string requestSha_;
    bool createdDir_ = false;
    bool fresh_ = false;  ///< no manifest when the run began: a new cache
    StageAManifest m_;
    SketchOptions so_;
    SketchCacheSummary s_;
    std::string backbone_;
    std::int64_t dim_ = 0;
    Pending buf_;
    bool wroteVideo_ = false;  ///< a pending file or shard of this run exists
};

void SketchCacheWriter::openFolder() {
    std::error_code ec;
    const auto dirStatus = fs::status(dir_, ec);
    if (!fs::exists(dirStatus)) {
        fs::create_directories(dir_, ec);
        if (ec) {
            fail("cannot create the cache folder: " + ec.message(), cacheDir_, "output",
                 "a folder that can be created", "an error");
        }
        createdDir_ = true;
    } else if (!fs::is_directory(dirStatus)) {
        fail("the cache folder is a file", cacheDir_, "output", "a folder", "a file");
    }
    fresh_ = !fs::exists(fs::symlink_status(manifestPath_, ec));
    if (fresh_) {
        startCache();
    } else {
        m_ = readStageAManifest(manifestPath_);
        checkResumedRequest();
        removeLeftovers();
    }
}

void SketchCacheWriter::checkResumedRequest() const {
    for (auto& [key, value] : request_.items()) {
        const nlohmann::json saved = m_.request.contains(key) ? m_.request[key] : nullptr;
        if (saved == value) {
            continue;
        }
        std::string field = key;
        if (key == "corpus" && saved.is_array()) {  // name the first differing entry
            for (std::size_t i = 0; i < value.size(); ++i) {
                if (i >= saved.size() || saved[i] != value[i]) {
                    field = "corpus[" + std::to_string(i) + "]";
                    break;
                }
            }
            if (field == key && saved.size() != value.size()) {
                field = "corpus (" + std::to_string(saved.size()) + " videos)";
            }
        }
        fail(
            "the cache was started with other options or another corpus; use a new folder "
            "or the same options",
            manifestPath_, field, printableExcerpt(saved.dump(), 200),
            printableExcerpt(value.dump(), 200));
    }
    // A key only the saved run had (a shard cache resumed without its --shard, or the
    // reverse): the same refusal, or the run would sketch another task's videos into it.
    for (auto& [key, value] : m_.request.items()) {
        if (!request_.contains(key)) {
            fail(
                "the cache was started with other options or another corpus; use a new "
                "folder or the same options",
                manifestPath_, key, printableExcerpt(value.dump(), 200), "none");
        }
    }
}

void SketchCacheWriter::startCache() {
    std::error_code ec;
    std::vector<std::string> present, temporaries;
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
        const std::string name = entry.path().filename().string();
        if (isCacheTemporary(name)) {
            temporaries.push_back(entry.path().string());
            continue;
        }
        if (stageAShardIndex(name) >= 0 || stageAPendingIndex(name) >= 0) {
            fail(
                "the folder holds a cache file but no manifest.json; it is not a cache this "
                "tool can resume: choose a new or empty folder",
                entry.path().string(), "manifest.json", "present", "missing");
        }
        present.push_back(name);
    }
    if (ec) {
        fail("cannot list the cache folder: " + ec.message(), cacheDir_);
    }
    if (!temporaries.empty()) {
        // Only a run of this tool killed while writing its first manifest leaves these; in
        // a folder that holds anything else they might be someone's, and stay.
        if (!present.empty()) {
            fail(
                "the folder holds an interrupted cache file but no manifest.json; choose a "
                "new or empty folder",
                temporaries.front(), "manifest.json", "present", "missing");
        }
        for (const auto& t : temporaries) {
            fs::remove(t, ec);
        }
    }
    if (!present.empty() && !options_.force) {
        fail(
            "the output folder is not empty and is not a Stage-A cache; choose a new or empty "
            "folder, or pass --force to write the cache beside its files (they are left "
            "untouched)",
            cacheDir_, "output", "a new or empty folder, or a Stage-A cache",
            std::to_string(present.size()) + " other entries, e.g. " +
                printableExcerpt(present.front()));
    }
    std::vector<std::int64_t> counts;
    for (const auto& e : corpus_) {
        counts.push_back(knownTokenCount(e.source));
    }
    m_.request = request_;
    m_.bins = options_.sketch.bins;
    m_.mMin = options_.sketch.mMin;
    m_.mMaxRequested = options_.sketch.mMax;
    m_.shardRows = options_.shardRows;
    for (const auto& e : corpus_) {
        m_.sources.push_back(e.source);
        m_.sourceCategories.push_back(e.category);
        if (!e.category.empty() && std::find(m_.categories.begin(), m_.categories.end(),
                                             e.category) == m_.categories.end()) {
            m_.categories.push_back(e.category);
        }
    }
    m_.mMax = resolveCappedMMax(counts, options_.sketch, options_.cap);
    m_.backbone = options_.backbone;
    m_.videos.resize(corpus_.size());
    m_.shardIndex = options_.shard.index;
    m_.shardCount = options_.shard.count;
    m_.provenance = options_.provenance;
    for (std::size_t i = 0; i < corpus_.size(); ++i) {
        if (!owned(i)) {
            m_.videos[i].status = StageAVideoRecord::Status::OtherShard;
        }
    }
    writeManifest(manifestPath_, m_);
}

void SketchCacheWriter::removeLeftovers() {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
        const std::string name = entry.path().filename().string();
        const std::int64_t pendingOf = stageAPendingIndex(name);
        const bool committed =
            pendingOf >= 0 && std::size_t(pendingOf) < m_.videos.size() &&
            m_.videos[std::size_t(pendingOf)].status != StageAVideoRecord::Status::Pending;
        if (isCacheTemporary(name) ||
            (committed && writtenByCache(entry.path().string(), kStageAPendingFormat))) {
            fs::remove(entry.path(), ec);
        }
    }
}

void SketchCacheWriter::flush() {
    if (buf_.videos.empty()) {
        return;
    }
    const std::size_t shard = m_.shards.size();
    std::int64_t row = m_.committedRows();
    if (buf_.rows > 0) {
        const std::string path = (dir_ / stageAShardName(shard)).string();
        requireFreeOrOurs(path, kStageAShardFormat);
        SafetensorsWriter w;
        addFiniteTensor(w, "reps", at::cat(buf_.reps).to(at::kBFloat16), path);
        addTensor(w, "weights", at::cat(buf_.weights));
        addTensor(w, "category", at::cat(buf_.category));
        addTensor(w, "video", at::cat(buf_.video));
        addTensor(w, "bin", at::cat(buf_.bin));
        if (m_.provenance) {
            addTensor(w, "exemplar", at::cat(buf_.exemplar));
        }
        w.setMetadata("format", kStageAShardFormat);
        w.write(path);
        m_.shards.push_back({stageAShardName(shard), buf_.rows});
    }
    for (const Buffered& b : buf_.videos) {
        StageAVideoRecord& v = m_.videos[b.index];
        if (b.done) {
            v.status = StageAVideoRecord::Status::Done;
            v.tokens = b.tokens;
            v.reps = b.reps;
            v.shard = stageAShardName(shard);
            v.rowBegin = row;
            row += b.reps;
            v.rowEnd = row;
        } else {
            v.status = StageAVideoRecord::Status::Failed;
            v.error = b.error;
        }
    }
    m_.backbone = backbone_;
    m_.dim = dim_;
    writeManifest(manifestPath_, m_);
    std::error_code ec;
    for (const Buffered& b : buf_.videos) {  // now in the shard: the tool's own files
        fs::remove(b.pendingFile, ec);
    }
    buf_ = Pending{};
}

void SketchCacheWriter::accept(std::size_t i, const std::string& file,
                               const std::string& videoBackbone, const at::Tensor& reps,
                               const at::Tensor& weights, const at::Tensor& bins,
                               const at::Tensor& exemplar, std::int64_t tokens) {
    if (!backbone_.empty() && !videoBackbone.empty() && videoBackbone != backbone_) {
        fail("a corpus video was encoded by another backbone", file, "backbone", backbone_,
             videoBackbone);
    }
    if (backbone_.empty()) {
        backbone_ = videoBackbone;
    }
    if (dim_ == 0) {
        dim_ = reps.size(1);
    } else if (reps.size(1) != dim_) {
        fail("feature width differs from the rest of the corpus", file, "D", std::to_string(dim_),
             std::to_string(reps.size(1)));
    }
    const std::int64_t n = reps.size(0);
    buf_.reps.push_back(reps);
    buf_.weights.push_back(weights);
    buf_.category.push_back(at::full({n}, m_.categoryIndexOf(i), at::kInt));
    buf_.video.push_back(at::full({n}, std::int64_t(i), at::kInt));
    buf_.bin.push_back(bins);
    if (m_.provenance) {
        buf_.exemplar.push_back(exemplar);
    }
    buf_.rows += n;
    buf_.videos.push_back({i, true, tokens, n, {}, {}});
}

void SketchCacheWriter::recover(std::size_t i, const std::string& path) {
    auto f = SafetensorsFile::open(path);
    if (f.meta("format") != kStageAPendingFormat) {
        fail("not a pending Stage-A sketch", path, "format", kStageAPendingFormat,
             printableExcerpt(f.meta("format")));
    }
    if (f.meta("request_sha256") != requestSha_) {
        fail("the pending sketch is of other options or another corpus", path, "request_sha256",
             requestSha_, printableExcerpt(f.meta("request_sha256")));
    }
    cacheMetaInt(f, "video", std::int64_t(i), std::int64_t(i));
    const std::string status = f.meta("status");
    if (status == "failed") {
        buf_.videos.push_back({i, false, 0, 0, f.meta("error"), path});
        return;
    }
    if (status != "done") {
        fail("invalid pending sketch status", path, "status", "done or failed",
             printableExcerpt(status));
    }
    const std::int64_t tokens =
        cacheMetaInt(f, "tokens", 0, std::numeric_limits<std::int32_t>::max());
    checkCacheEntry(f, "reps", DType::F32, {-1, dim_ > 0 ? dim_ : -1});
    const std::int64_t n = f.entry("reps").shape[0], d = f.entry("reps").shape[1];
    if (n > std::min(tokens, so_.mMax) || d < 1 || d > kMaxStageADim) {
        fail("a pending sketch has more representatives than it can", path, "reps",
             "at most " + std::to_string(std::min(tokens, so_.mMax)) + " rows of width 1.." +
                 std::to_string(kMaxStageADim),
             shapeString({n, d}));
    }
    checkCacheEntry(f, "weights", DType::I32, {n});
    checkCacheEntry(f, "bin", DType::I32, {n});
    at::Tensor exemplar;
    if (m_.provenance) {
        checkCacheEntry(f, "exemplar", DType::I32, {n, kExemplarColumns});
        exemplar = loadTensor(f, "exemplar").clone();
        checkExemplarRows(exemplar, at::full({n}, tokens, at::kLong), path, "exemplar");
    }
    at::Tensor reps = loadTensor(f, "reps").clone();
    at::Tensor weights = loadTensor(f, "weights").clone();
    at::Tensor bins = loadTensor(f, "bin").clone();
    if (!at::isfinite(reps).all().item<bool>()) {
        fail("a pending sketch holds non-finite values", path, "reps", "finite values",
             "NaN or infinity");
    }
    checkCacheRange(weights, 1, std::int64_t(std::numeric_limits<std::int32_t>::max()) + 1, path,
                    "weights", "source counts");
    checkCacheRange(bins, 0, so_.bins, path, "bin", "timeline bins");
    if (weights.sum().item<std::int64_t>() != tokens) {
        fail("a pending sketch's source counts do not sum to its token count", path, "weights",
             std::to_string(tokens), std::to_string(weights.sum().item<std::int64_t>()));
    }
    accept(i, path, f.meta("backbone"), reps, weights, bins, exemplar, tokens);
    buf_.videos.back().pendingFile = path;
}

std::string SketchCacheWriter::writePending(std::size_t i, const VideoSketch* sk,
                                            const at::Tensor& exemplar,
                                            const std::string& videoBackbone,
                                            const std::string& error) {
    const std::string path = (dir_ / stageAPendingName(i)).string();
    requireFreeOrOurs(path, kStageAPendingFormat);
    SafetensorsWriter w;
    if (sk) {
        addFiniteTensor(w, "reps", sk->reps, path);
        addTensor(w, "weights", sk->weights.contiguous());
        addTensor(w, "bin", sk->bins.contiguous());
        if (m_.provenance) {
            addTensor(w, "exemplar", exemplar.contiguous());
        }
        w.setMetadata("tokens", std::to_string(sk->numTokens));
        w.setMetadata("backbone", videoBackbone);
    } else {
        w.setMetadata("error", error);
    }
    w.setMetadata("format", kStageAPendingFormat);
    w.setMetadata("status", sk ? "done" : "failed");
    w.setMetadata("video", std::to_string(i));
    w.setMetadata("request_sha256", requestSha_);
    w.write(path);
    wroteVideo_ = true;
    return path;
}

std::size_t SketchCacheWriter::recoverPending(std::size_t first) {
    std::error_code ec;
    std::size_t next = first;
    while (next < corpus_.size()) {
        if (!owned(next)) {  // another task's video: not here, not waited for
            ++next;
            continue;
        }
        const std::string path = (dir_ / stageAPendingName(next)).string();
        if (!fs::exists(fs::symlink_status(path, ec))) {
            break;
        }
        recover(next, resolveInside(cacheDir_, stageAPendingName(next), cacheDir_,
                                    stageAPendingName(next)));
        ++next;
        ++s_.resumed;
        if (buf_.rows >= options_.shardRows) {  // where the stopped run cut (or was cutting)
            flush();
        }
    }
    return next;
}

void SketchCacheWriter::sketchRemaining(std::size_t next, const VideoEncodeFn& encodeVideo,
                                        Progress* progress,
                                        std::chrono::steady_clock::time_point start) {
    const ShardSpec& part = options_.shard;
    std::int64_t finished = s_.resumed;  // this shard's videos finished, for the bar
    if (progress) {
        progress->begin(part.sharded() ? "Stage A sketch (shard " + part.text() + ")"
                                       : std::string("Stage A sketch"),
                        double(s_.videos));
        progress->update(double(finished));
    }
    for (std::size_t i = next; i < corpus_.size(); ++i) {
        if (!owned(i)) {
            continue;
        }
        const std::string& source = corpus_[i].source;
        std::optional<VideoSketch> sk;
        at::Tensor exemplar;
        std::string videoBackbone, error;
        try {
            EncodedVideo t = loadTokens(source, encodeVideo, nullptr);
            if (!backbone_.empty() && !t.backbone.empty() && t.backbone != backbone_) {
                fail("a corpus video was encoded by another backbone", source, "backbone",
                     backbone_, t.backbone);
            }
            if (dim_ != 0 && t.features.dim() >= 2 && t.features.size(-1) != dim_) {
                fail("feature width differs from the rest of the corpus", source, "D",
                     std::to_string(dim_), std::to_string(t.features.size(-1)));
            }
            try {
                sk = sketchVideo(t.features, t.frameTimesTensor(), so_, std::int64_t(i));
                if (m_.provenance) {
                    exemplar = exemplarRows(sk->medoids, t);
                }
            } catch (const OnceError& e) {
                rethrowNamingFile(e, source);
            }
            videoBackbone = t.backbone;
            s_.tokensThisRun += sk->numTokens;
        } catch (const OnceError& e) {
            if (!options_.skipErrors) {
                throw;
            }
            error = e.what();
        }
        // Kept before anything else happens, so a stop from here on loses nothing.
        const std::string pendingFile =
            writePending(i, sk ? &*sk : nullptr, exemplar, videoBackbone, error);
        if (sk) {
            accept(i, source, videoBackbone, sk->reps, sk->weights, sk->bins, exemplar,
                   sk->numTokens);
        } else {
            buf_.videos.push_back({i, false, 0, 0, error, {}});
        }
        buf_.videos.back().pendingFile = pendingFile;
        if (buf_.rows >= options_.shardRows) {
            flush();
        }
        if (progress) {
            double secs =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            progress->update(
                double(++finished),
                std::to_string(std::int64_t(double(s_.tokensThisRun) / std::max(secs, 1e-9))) +
                    " tokens/s");
        }
    }
}

void SketchCacheWriter::finish() {
    m_.complete = true;
    writeManifest(manifestPath_, m_);
    // Shards past the end that a killed run of other results wrote, and stray pending files.
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
        const std::string name = entry.path().filename().string();
        const std::int64_t shard = stageAShardIndex(name);
        if ((shard >= 0 && std::size_t(shard) >= m_.shards.size() &&
             writtenByCache(entry.path().string(), kStageAShardFormat)) ||
            (stageAPendingIndex(name) >= 0 &&
             writtenByCache(entry.path().string(), kStageAPendingFormat))) {
            fs::remove(entry.path(), ec);
        }
    }
    for (const auto& v : m_.videos) {
        if (v.status == StageAVideoRecord::Status::Done) {
            ++s_.done;
            s_.reps += v.reps;
            s_.tokens += v.tokens;
        } else if (v.status == StageAVideoRecord::Status::Failed) {
            ++s_.failed;
        }
    }
}

SketchCacheSummary SketchCacheWriter::run(const VideoEncodeFn& encodeVideo, Progress* progress,
                                          std::chrono::steady_clock::time_point start) {
    openFolder();
    so_ = options_.sketch;
    so_.mMax = m_.mMax;
    s_.videos = options_.shard.ownedCount(std::int64_t(corpus_.size()));
    s_.mMax = so_.mMax;
    std::size_t first = 0;  // resume point: the first video (of this shard) not in a shard file
    while (first < corpus_.size() &&
           m_.videos[first].status != StageAVideoRecord::Status::Pending) {
        s_.resumed += owned(first) ? 1 : 0;
        ++first;
    }
    backbone_ = m_.backbone;
    dim_ = m_.dim;
    try {
        sketchRemaining(recoverPending(first), encodeVideo, progress, start);
        flush();
    } catch (const OnceError&) {
        // A new cache that never got a video leaves nothing behind (the user may rerun with
        // other options); one with finished videos stays resumable.
        if (fresh_ && !wroteVideo_ && m_.shards.empty()) {
            std::error_code ec;
            fs::remove(manifestPath_, ec);
            if (createdDir_) {
                fs::remove(dir_, ec);  // only when empty
            }
        }
        throw;
    }
    finish();
    s_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return s_;
}

}  // namespace

void SketchCacheOptions::validate() const {
    sketch.validate();
    if (cap < 0 || cap > kMaxStageACount) {
        fail("invalid Stage-A option", {}, "cap", "0.." + std::to_string(kMaxStageACount),
             std::to_string(cap));
    }
    if (shardRows < 1 || shardRows > kMaxStageACount) {
        fail("invalid Stage-A option", {}, "shard-rows", "1.." + std::to_string(kMaxStageACount),
             std::to_string(shardRows));
    }
}

SketchCacheSummary buildSketchCache(const std::vector<CorpusEntry>& corpus,
                                    const std::string& cacheDir, const SketchCacheOptions& options,
                                    const VideoEncodeFn& encodeVideo, Progress* progress) {
    const auto start = std::chrono::steady_clock::now();
    options.validate();
    if (corpus.empty()) {
        fail("the corpus lists no video", cacheDir, "corpus", ">= 1 video", "0");
    }
    SketchCacheWriter writer(corpus, cacheDir, options);
    return writer.run(encodeVideo, progress, start);
}

}  // namespace once
