#include "train/sketch_cache.h"

#include <ATen/ATen.h>

#include <charconv>
#include <chrono>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>

#include "features/feature_file.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "train/cache_reader.h"
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

// Rows checked at a time for finite values when a cache is opened (bounds the temporary).
constexpr std::int64_t kCacheCheckTileRows = 65536;

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

std::string shapeText(const std::vector<std::int64_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(shape[i]);
    }
    return s + "]";
}

// Checks the header of tensor `name` of `f` against the expected dtype and shape (-1: any
// extent), so that nothing is indexed with, or allocated for, a tensor of another length.
void checkEntry(const SafetensorsFile& f, const std::string& name, DType dtype,
                const std::vector<std::int64_t>& shape) {
    const TensorEntry& e = f.entry(name);
    bool ok = e.dtype == dtype && e.shape.size() == shape.size();
    for (std::size_t i = 0; ok && i < shape.size(); ++i) {
        ok = shape[i] < 0 || e.shape[i] == shape[i];
    }
    if (!ok) {
        std::string expected = std::string(dtypeName(dtype)) + " [";
        for (std::size_t i = 0; i < shape.size(); ++i) {
            expected +=
                (i ? ", " : "") + (shape[i] < 0 ? std::string("*") : std::to_string(shape[i]));
        }
        fail("a cache tensor has the wrong type or length", f.path(), name, expected + "]",
             std::string(dtypeName(e.dtype)) + " " + shapeText(e.shape));
    }
}

// First position where `bad` (bool [n]) is true, as text for an error message.
std::string firstBad(const at::Tensor& bad, const at::Tensor& values) {
    const std::int64_t i = bad.nonzero().index({0, 0}).item<std::int64_t>();
    return "row " + std::to_string(i) + " holds " + std::to_string(values[i].item<std::int64_t>());
}

// Values of an int32 tensor all in [lo, hi).
void checkRange(const at::Tensor& t, std::int64_t lo, std::int64_t hi, const std::string& file,
                const std::string& name, const std::string& what) {
    const at::Tensor wide = t.to(at::kLong);  // bounds such as 2^31 do not fit int32
    at::Tensor bad = wide.lt(lo).logical_or(wide.ge(hi));
    if (bad.any().item<bool>()) {
        fail("a cache tensor holds an index out of range", file, name,
             what + " in " + std::to_string(lo) + ".." + std::to_string(hi - 1), firstBad(bad, t));
    }
}

std::int64_t metaInt(const SafetensorsFile& f, const std::string& key, std::int64_t lo,
                     std::int64_t hi) {
    const std::string v = f.meta(key);
    std::int64_t x = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc() || p != v.data() + v.size() || x < lo || x > hi) {
        fail("invalid metadata value", f.path(), key,
             "an integer in " + std::to_string(lo) + ".." + std::to_string(hi),
             printableExcerpt(v));
    }
    return x;
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

StageAManifest readManifest(const std::string& path) {
    return parseStageAManifest(readFileLimited(path, kMaxStageAManifestBytes), path);
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

std::vector<CorpusEntry> readCorpusManifest(const std::string& path) {
    const std::string text = readFileLimited(path, kMaxCorpusManifestBytes);
    std::vector<CorpusEntry> out;
    const fs::path base = fs::path(path).parent_path();
    std::size_t pos = 0;
    int lineNo = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) {
            end = text.size();
        }
        const std::string_view line(text.data() + pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
            continue;
        }
        const std::string where = "line " + std::to_string(lineNo);
        const nlohmann::json j = parseJsonText(line, path, where);
        const nlohmann::json* video = j.is_object() ? jsonFind(j, "video", path, where) : nullptr;
        if (!video || !video->is_string() || video->get<std::string>().empty()) {
            fail("corpus manifest line without a \"video\" path", path, where,
                 "{\"video\": path, \"category\": name}", printableExcerpt(line));
        }
        const std::string v = video->get<std::string>();
        if (v.find('\0') != std::string::npos) {
            fail("a corpus video path contains a NUL byte", path, where + ".video",
                 "a path without NUL bytes", printableExcerpt(v));
        }
        CorpusEntry e;
        fs::path p = v;
        e.source = (p.is_relative() ? base / p : p).lexically_normal().string();
        e.category = jsonStringOr(j, "category", "", path, where);
        out.push_back(std::move(e));
    }
    if (out.empty()) {
        fail("the corpus manifest lists no video", path, "videos", ">= 1", "0");
    }
    return out;
}

SketchCacheSummary buildSketchCache(const std::vector<CorpusEntry>& corpus,
                                    const std::string& cacheDir, const SketchCacheOptions& options,
                                    const VideoEncodeFn& encodeVideo, Progress* progress) {
    const auto start = std::chrono::steady_clock::now();
    options.validate();
    if (corpus.empty()) {
        fail("the corpus lists no video", cacheDir, "corpus", ">= 1 video", "0");
    }
    const fs::path dir(cacheDir);
    const std::string manifestPath = (dir / "manifest.json").string();
    const nlohmann::json request = requestJson(corpus, options);
    const std::string requestDump = request.dump();
    const std::string requestSha = Sha256::hex(requestDump.data(), requestDump.size());

    // The folder: new, empty, a Stage-A cache of this tool (resumed), or refused.
    std::error_code ec;
    const auto dirStatus = fs::status(dir, ec);
    bool createdDir = false;
    if (!fs::exists(dirStatus)) {
        fs::create_directories(dir, ec);
        if (ec) {
            fail("cannot create the cache folder: " + ec.message(), cacheDir, "output",
                 "a folder that can be created", "an error");
        }
        createdDir = true;
    } else if (!fs::is_directory(dirStatus)) {
        fail("the cache folder is a file", cacheDir, "output", "a folder", "a file");
    }
    StageAManifest m;
    const bool fresh = !fs::exists(fs::symlink_status(manifestPath, ec));
    if (!fresh) {
        m = readManifest(manifestPath);
        for (auto& [key, value] : request.items()) {
            const nlohmann::json saved = m.request.contains(key) ? m.request[key] : nullptr;
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
                manifestPath, field, printableExcerpt(saved.dump(), 200),
                printableExcerpt(value.dump(), 200));
        }
        // A key only the saved run had (a shard cache resumed without its --shard, or the
        // reverse): the same refusal, or the run would sketch another task's videos into it.
        for (auto& [key, value] : m.request.items()) {
            if (!request.contains(key)) {
                fail(
                    "the cache was started with other options or another corpus; use a new "
                    "folder or the same options",
                    manifestPath, key, printableExcerpt(value.dump(), 200), "none");
            }
        }
    } else {
        std::vector<std::string> present, temporaries;
        for (const auto& entry : fs::directory_iterator(dir, ec)) {
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
            fail("cannot list the cache folder: " + ec.message(), cacheDir);
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
        if (!present.empty() && !options.force) {
            fail(
                "the output folder is not empty and is not a Stage-A cache; choose a new or empty "
                "folder, or pass --force to write the cache beside its files (they are left "
                "untouched)",
                cacheDir, "output", "a new or empty folder, or a Stage-A cache",
                std::to_string(present.size()) + " other entries, e.g. " +
                    printableExcerpt(present.front()));
        }
        std::vector<std::int64_t> counts;
        for (const auto& e : corpus) {
            counts.push_back(knownTokenCount(e.source));
        }
        m.request = request;
        m.bins = options.sketch.bins;
        m.mMin = options.sketch.mMin;
        m.mMaxRequested = options.sketch.mMax;
        m.shardRows = options.shardRows;
        for (const auto& e : corpus) {
            m.sources.push_back(e.source);
            m.sourceCategories.push_back(e.category);
            if (!e.category.empty() && std::find(m.categories.begin(), m.categories.end(),
                                                 e.category) == m.categories.end()) {
                m.categories.push_back(e.category);
            }
        }
        m.mMax = resolveCappedMMax(counts, options.sketch, options.cap);
        m.backbone = options.backbone;
        m.videos.resize(corpus.size());
        m.shardIndex = options.shard.index;
        m.shardCount = options.shard.count;
        m.provenance = options.provenance;
        for (std::size_t i = 0; i < corpus.size(); ++i) {
            if (!options.shard.owns(std::int64_t(i))) {
                m.videos[i].status = StageAVideoRecord::Status::OtherShard;
            }
        }
        writeManifest(manifestPath, m);
    }

    // Leftovers of a killed run of this cache (never files of anyone else): interrupted atomic
    // writes, and pending sketches whose shard was committed before the kill.
    if (!fresh) {
        for (const auto& entry : fs::directory_iterator(dir, ec)) {
            const std::string name = entry.path().filename().string();
            const std::int64_t pendingOf = stageAPendingIndex(name);
            const bool committed =
                pendingOf >= 0 && std::size_t(pendingOf) < m.videos.size() &&
                m.videos[std::size_t(pendingOf)].status != StageAVideoRecord::Status::Pending;
            if (isCacheTemporary(name) ||
                (committed && writtenByCache(entry.path().string(), kStageAPendingFormat))) {
                fs::remove(entry.path(), ec);
            }
        }
    }

    SketchOptions so = options.sketch;
    so.mMax = m.mMax;
    SketchCacheSummary s;
    const ShardSpec& part = options.shard;
    auto owned = [&](std::size_t i) { return part.owns(std::int64_t(i)); };
    s.videos = part.ownedCount(std::int64_t(corpus.size()));
    s.mMax = so.mMax;
    std::size_t first = 0;  // resume point: the first video (of this shard) not in a shard file
    while (first < corpus.size() && m.videos[first].status != StageAVideoRecord::Status::Pending) {
        s.resumed += owned(first) ? 1 : 0;
        ++first;
    }
    std::string backbone = m.backbone;
    std::int64_t dim = m.dim;
    Pending buf;
    bool wroteVideo = false;  // a pending file or shard of this run exists

    auto flush = [&] {
        if (buf.videos.empty()) {
            return;
        }
        const std::size_t shard = m.shards.size();
        std::int64_t row = m.committedRows();
        if (buf.rows > 0) {
            const std::string path = (dir / stageAShardName(shard)).string();
            requireFreeOrOurs(path, kStageAShardFormat);
            SafetensorsWriter w;
            addFiniteTensor(w, "reps", at::cat(buf.reps).to(at::kBFloat16), path);
            addTensor(w, "weights", at::cat(buf.weights));
            addTensor(w, "category", at::cat(buf.category));
            addTensor(w, "video", at::cat(buf.video));
            addTensor(w, "bin", at::cat(buf.bin));
            if (m.provenance) {
                addTensor(w, "exemplar", at::cat(buf.exemplar));
            }
            w.setMetadata("format", kStageAShardFormat);
            w.write(path);
            m.shards.push_back({stageAShardName(shard), buf.rows});
        }
        for (const Buffered& b : buf.videos) {
            StageAVideoRecord& v = m.videos[b.index];
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
        m.backbone = backbone;
        m.dim = dim;
        writeManifest(manifestPath, m);
        for (const Buffered& b : buf.videos) {  // now in the shard: the tool's own files
            fs::remove(b.pendingFile, ec);
        }
        buf = Pending{};
    };

    // Adds a finished video to the buffer (from this run or from a pending file).
    auto accept = [&](std::size_t i, const std::string& file, const std::string& videoBackbone,
                      const at::Tensor& reps, const at::Tensor& weights, const at::Tensor& bins,
                      const at::Tensor& exemplar, std::int64_t tokens) {
        if (!backbone.empty() && !videoBackbone.empty() && videoBackbone != backbone) {
            fail("a corpus video was encoded by another backbone", file, "backbone", backbone,
                 videoBackbone);
        }
        if (backbone.empty()) {
            backbone = videoBackbone;
        }
        if (dim == 0) {
            dim = reps.size(1);
        } else if (reps.size(1) != dim) {
            fail("feature width differs from the rest of the corpus", file, "D",
                 std::to_string(dim), std::to_string(reps.size(1)));
        }
        const std::int64_t n = reps.size(0);
        buf.reps.push_back(reps);
        buf.weights.push_back(weights);
        buf.category.push_back(at::full({n}, m.categoryIndexOf(i), at::kInt));
        buf.video.push_back(at::full({n}, std::int64_t(i), at::kInt));
        buf.bin.push_back(bins);
        if (m.provenance) {
            buf.exemplar.push_back(exemplar);
        }
        buf.rows += n;
        buf.videos.push_back({i, true, tokens, n, {}, {}});
    };

    // Recovers the pending files a stopped run left, in corpus order.
    auto recover = [&](std::size_t i, const std::string& path) {
        auto f = SafetensorsFile::open(path);
        if (f.meta("format") != kStageAPendingFormat) {
            fail("not a pending Stage-A sketch", path, "format", kStageAPendingFormat,
                 printableExcerpt(f.meta("format")));
        }
        if (f.meta("request_sha256") != requestSha) {
            fail("the pending sketch is of other options or another corpus", path, "request_sha256",
                 requestSha, printableExcerpt(f.meta("request_sha256")));
        }
        metaInt(f, "video", std::int64_t(i), std::int64_t(i));
        const std::string status = f.meta("status");
        if (status == "failed") {
            buf.videos.push_back({i, false, 0, 0, f.meta("error"), path});
            return;
        }
        if (status != "done") {
            fail("invalid pending sketch status", path, "status", "done or failed",
                 printableExcerpt(status));
        }
        const std::int64_t tokens =
            metaInt(f, "tokens", 0, std::numeric_limits<std::int32_t>::max());
        checkEntry(f, "reps", DType::F32, {-1, dim > 0 ? dim : -1});
        const std::int64_t n = f.entry("reps").shape[0], d = f.entry("reps").shape[1];
        if (n > std::min(tokens, so.mMax) || d < 1 || d > kMaxStageADim) {
            fail("a pending sketch has more representatives than it can", path, "reps",
                 "at most " + std::to_string(std::min(tokens, so.mMax)) + " rows of width 1.." +
                     std::to_string(kMaxStageADim),
                 shapeText({n, d}));
        }
        checkEntry(f, "weights", DType::I32, {n});
        checkEntry(f, "bin", DType::I32, {n});
        at::Tensor exemplar;
        if (m.provenance) {
            checkEntry(f, "exemplar", DType::I32, {n, kExemplarColumns});
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
        checkRange(weights, 1, std::int64_t(std::numeric_limits<std::int32_t>::max()) + 1, path,
                   "weights", "source counts");
        checkRange(bins, 0, so.bins, path, "bin", "timeline bins");
        if (weights.sum().item<std::int64_t>() != tokens) {
            fail("a pending sketch's source counts do not sum to its token count", path, "weights",
                 std::to_string(tokens), std::to_string(weights.sum().item<std::int64_t>()));
        }
        accept(i, path, f.meta("backbone"), reps, weights, bins, exemplar, tokens);
        buf.videos.back().pendingFile = path;
    };

    auto writePending = [&](std::size_t i, const VideoSketch* sk, const at::Tensor& exemplar,
                            const std::string& videoBackbone, const std::string& error) {
        const std::string path = (dir / stageAPendingName(i)).string();
        requireFreeOrOurs(path, kStageAPendingFormat);
        SafetensorsWriter w;
        if (sk) {
            addFiniteTensor(w, "reps", sk->reps, path);
            addTensor(w, "weights", sk->weights.contiguous());
            addTensor(w, "bin", sk->bins.contiguous());
            if (m.provenance) {
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
        w.setMetadata("request_sha256", requestSha);
        w.write(path);
        wroteVideo = true;
        return path;
    };

    try {
        std::size_t next = first;
        while (next < corpus.size()) {
            if (!owned(next)) {  // another task's video: not here, not waited for
                ++next;
                continue;
            }
            const std::string path = (dir / stageAPendingName(next)).string();
            if (!fs::exists(fs::symlink_status(path, ec))) {
                break;
            }
            recover(next, resolveInside(cacheDir, stageAPendingName(next), cacheDir,
                                        stageAPendingName(next)));
            ++next;
            ++s.resumed;
            if (buf.rows >= options.shardRows) {  // where the stopped run cut (or was cutting)
                flush();
            }
        }
        std::int64_t finished = s.resumed;  // this shard's videos finished, for the bar
        if (progress) {
            progress->begin(part.sharded() ? "Stage A sketch (shard " + part.text() + ")"
                                           : std::string("Stage A sketch"),
                            double(s.videos));
            progress->update(double(finished));
        }
        for (std::size_t i = next; i < corpus.size(); ++i) {
            if (!owned(i)) {
                continue;
            }
            const std::string& source = corpus[i].source;
            std::optional<VideoSketch> sk;
            at::Tensor exemplar;
            std::string videoBackbone, error;
            try {
                EncodedVideo t = loadTokens(source, encodeVideo, nullptr);
                if (!backbone.empty() && !t.backbone.empty() && t.backbone != backbone) {
                    fail("a corpus video was encoded by another backbone", source, "backbone",
                         backbone, t.backbone);
                }
                if (dim != 0 && t.features.dim() >= 2 && t.features.size(-1) != dim) {
                    fail("feature width differs from the rest of the corpus", source, "D",
                         std::to_string(dim), std::to_string(t.features.size(-1)));
                }
                try {
                    sk = sketchVideo(t.features, t.frameTimesTensor(), so, std::int64_t(i));
                    if (m.provenance) {
                        exemplar = exemplarRows(sk->medoids, t);
                    }
                } catch (const OnceError& e) {
                    rethrowNamingFile(e, source);
                }
                videoBackbone = t.backbone;
                s.tokensThisRun += sk->numTokens;
            } catch (const OnceError& e) {
                if (!options.skipErrors) {
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
                buf.videos.push_back({i, false, 0, 0, error, {}});
            }
            buf.videos.back().pendingFile = pendingFile;
            if (buf.rows >= options.shardRows) {
                flush();
            }
            if (progress) {
                double secs =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                progress->update(
                    double(++finished),
                    std::to_string(std::int64_t(double(s.tokensThisRun) / std::max(secs, 1e-9))) +
                        " tokens/s");
            }
        }
        flush();
    } catch (const OnceError&) {
        // A new cache that never got a video leaves nothing behind (the user may rerun with
        // other options); one with finished videos stays resumable.
        if (fresh && !wroteVideo && m.shards.empty()) {
            fs::remove(manifestPath, ec);
            if (createdDir) {
                fs::remove(dir, ec);  // only when empty
            }
        }
        throw;
    }
    m.complete = true;
    writeManifest(manifestPath, m);
    // Shards past the end that a killed run of other results wrote, and stray pending files.
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        const std::int64_t shard = stageAShardIndex(name);
        if ((shard >= 0 && std::size_t(shard) >= m.shards.size() &&
             writtenByCache(entry.path().string(), kStageAShardFormat)) ||
            (stageAPendingIndex(name) >= 0 &&
             writtenByCache(entry.path().string(), kStageAPendingFormat))) {
            fs::remove(entry.path(), ec);
        }
    }
    for (const auto& v : m.videos) {
        if (v.status == StageAVideoRecord::Status::Done) {
            ++s.done;
            s.reps += v.reps;
            s.tokens += v.tokens;
        } else if (v.status == StageAVideoRecord::Status::Failed) {
            ++s.failed;
        }
    }
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return s;
}

CacheReader CacheReader::open(const std::string& cacheDir, bool allowShardCache) {
    const std::string manifestPath = (fs::path(cacheDir) / "manifest.json").string();
    std::error_code ec;
    if (!fs::exists(fs::status(manifestPath, ec))) {
        fail("no Stage-A cache here (manifest.json missing)", cacheDir, "manifest.json");
    }
    CacheReader r;
    r.manifestPath_ = manifestPath;
    r.manifest_ = readManifest(manifestPath);
    const StageAManifest& m = r.manifest_;
    if (m.shardCount > 1 && !allowShardCache) {
        fail(
            "this is the cache of one task of a sharded run; merge the tasks' caches with "
            "`once train merge` and use the merged cache",
            manifestPath, "request.shard", "no shard (a whole-corpus cache)",
            std::to_string(m.shardIndex) + "/" + std::to_string(m.shardCount));
    }
    if (!m.complete) {
        fail("the Stage-A cache is unfinished: rerun `once train sketch` to resume it",
             manifestPath, "complete", "true", "false");
    }
    if (m.shards.empty() && m.shardCount == 1) {
        fail("the Stage-A cache holds no representative", manifestPath, "shards", ">= 1", "0");
    }
    // Every shard's header first: the row counts the manifest states must be backed by the
    // files before anything is allocated for them.
    std::vector<SafetensorsFile> files;
    for (std::size_t i = 0; i < m.shards.size(); ++i) {
        const auto& sh = m.shards[i];
        const std::string field = "shards[" + std::to_string(i) + "].file";
        files.push_back(
            SafetensorsFile::open(resolveInside(cacheDir, sh.file, manifestPath, field)));
        const SafetensorsFile& f = files.back();
        if (f.meta("format") != kStageAShardFormat) {
            fail("not a Stage-A cache shard", f.path(), "format", kStageAShardFormat,
                 printableExcerpt(f.meta("format")));
        }
        checkEntry(f, "reps", DType::BF16, {sh.rows, m.dim});
        for (const char* name : {"weights", "category", "video", "bin"}) {
            checkEntry(f, name, DType::I32, {sh.rows});
        }
        if (m.provenance) {
            checkEntry(f, "exemplar", DType::I32, {sh.rows, kExemplarColumns});
        }
    }
    // What the manifest says every row must hold: its video and that video's category.
    const std::int64_t total = m.committedRows();
    at::Tensor expectVideo = at::empty({total}, at::kInt);
    at::Tensor expectCategory = at::empty({total}, at::kInt);
    std::vector<std::int64_t> videoTokens(m.videos.size(), -1);
    for (std::size_t i = 0; i < m.videos.size(); ++i) {
        const StageAVideoRecord& v = m.videos[i];
        if (v.status == StageAVideoRecord::Status::Done) {
            expectVideo.slice(0, v.rowBegin, v.rowEnd).fill_(std::int64_t(i));
            expectCategory.slice(0, v.rowBegin, v.rowEnd).fill_(m.categoryIndexOf(i));
            videoTokens[i] = v.tokens;
        }
    }
    std::vector<at::Tensor> weights, category, video, bin, exemplar;
    const at::Tensor tokensOfVideo = at::tensor(videoTokens, at::kLong);
    std::int64_t row = 0;
    for (std::size_t i = 0; i < m.shards.size(); ++i) {
        const SafetensorsFile& f = files[i];
        const std::string& file = f.path();
        const std::int64_t n = m.shards[i].rows;
        at::Tensor reps = loadTensor(f, "reps");  // mapped: never copied whole
        at::Tensor w = loadTensor(f, "weights").clone();
        at::Tensor g = loadTensor(f, "category").clone();
        at::Tensor v = loadTensor(f, "video").clone();
        at::Tensor b = loadTensor(f, "bin").clone();
        for (std::int64_t t = 0; t < n; t += kCacheCheckTileRows) {
            if (!at::isfinite(reps.slice(0, t, std::min(n, t + kCacheCheckTileRows)))
                     .all()
                     .item<bool>()) {
                fail("a cache shard holds non-finite representatives", file, "reps",
                     "finite values", "NaN or infinity");
            }
        }
        checkRange(w, 1, std::int64_t(std::numeric_limits<std::int32_t>::max()) + 1, file,
                   "weights", "source counts");
        checkRange(v, 0, std::int64_t(m.videos.size()), file, "video", "corpus indices");
        checkRange(g, -1, std::int64_t(m.categories.size()), file, "category", "category indices");
        checkRange(b, 0, m.bins, file, "bin", "timeline bins");
        const at::Tensor ev = expectVideo.slice(0, row, row + n);
        if (!v.equal(ev)) {
            const at::Tensor bad = v.ne(ev);
            const std::int64_t k = bad.nonzero().index({0, 0}).item<std::int64_t>();
            fail("a cache shard's rows are not the videos the manifest assigns to them", file,
                 "video",
                 "video " + std::to_string(ev[k].item<std::int64_t>()) + " at row " +
                     std::to_string(k),
                 firstBad(bad, v));
        }
        const at::Tensor eg = expectCategory.slice(0, row, row + n);
        if (!g.equal(eg)) {
            const at::Tensor bad = g.ne(eg);
            const std::int64_t k = bad.nonzero().index({0, 0}).item<std::int64_t>();
            fail("a cache shard's categories are not those of its videos", file, "category",
                 "category " + std::to_string(eg[k].item<std::int64_t>()) + " at row " +
                     std::to_string(k),
                 firstBad(bad, g));
        }
        if (m.provenance) {
            at::Tensor e = loadTensor(f, "exemplar").clone();
            // After the video check: every row's video is a done one, whose token count is known.
            checkExemplarRows(e, tokensOfVideo.index_select(0, v.to(at::kLong)), file, "exemplar");
            exemplar.push_back(e);
        }
        r.begin_.push_back(row);
        row += n;
        r.reps_.push_back(reps);
        weights.push_back(w);
        category.push_back(g);
        video.push_back(v);
        bin.push_back(b);
    }
    r.begin_.push_back(row);
    r.rows_ = row;
    auto join = [](const std::vector<at::Tensor>& parts) {
        return parts.empty() ? at::empty({0}, at::kInt) : at::cat(parts);
    };
    r.weights_ = join(weights);
    r.category_ = join(category);
    r.video_ = join(video);
    r.bin_ = join(bin);
    if (m.provenance) {
        r.exemplar_ =
            exemplar.empty() ? at::empty({0, kExemplarColumns}, at::kInt) : at::cat(exemplar);
    }
    // Every done video's source counts sum to its token count.
    at::Tensor sums = at::zeros({std::int64_t(m.videos.size())}, at::kLong)
                          .index_add_(0, r.video_.to(at::kLong), r.weights_.to(at::kLong));
    const std::int64_t* ps = sums.data_ptr<std::int64_t>();
    for (std::size_t i = 0; i < m.videos.size(); ++i) {
        if (videoTokens[i] >= 0 && ps[i] != videoTokens[i]) {
            fail("a video's source counts in the cache do not sum to its token count",
                 (fs::path(cacheDir) / m.videos[i].shard).string(), "weights",
                 std::to_string(videoTokens[i]) + " (videos[" + std::to_string(i) +
                     "].tokens in manifest.json)",
                 std::to_string(ps[i]));
        }
    }
    return r;
}

SketchCache SketchCache::load(const std::string& cacheDir) {
    const CacheReader r = CacheReader::open(cacheDir);
    const StageAManifest& m = r.manifest();
    SketchCache c;
    std::vector<at::Tensor> reps;
    for (std::size_t i = 0; i < r.shardCount(); ++i) {
        reps.push_back(r.shardReps(i));
    }
    c.reps = at::cat(reps);  // a copy: the mappings may go
    c.weights = r.weights();
    c.category = r.category();
    c.video = r.video();
    c.bin = r.bin();
    c.exemplar = r.exemplar();
    c.categories = m.categories;
    c.sources = m.sources;
    c.backbone = m.backbone;
    c.featureSource = m.featureSource;
    c.manifestJson = m.toJson().dump();
    return c;
}

}  // namespace once
