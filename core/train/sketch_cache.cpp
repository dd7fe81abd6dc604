#include "train/sketch_cache.h"

#include <ATen/ATen.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "features/feature_file.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace fs = std::filesystem;

namespace once {

namespace {

constexpr const char* kCacheFormat = "once-sketch-cache/1";

bool isFeatureFile(const std::string& path) {
    return fs::path(path).extension() == ".safetensors";
}

std::string shardName(std::size_t i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "shard-%05zu.safetensors", i);
    return buf;
}

nlohmann::json requestJson(const std::vector<CorpusEntry>& corpus, const SketchCacheOptions& o) {
    nlohmann::json sources = nlohmann::json::array();
    for (const auto& e : corpus) {
        sources.push_back({{"source", e.source}, {"category", e.category}});
    }
    return {{"bins", o.sketch.bins},  {"R", o.sketch.tokensPerRep},
            {"m_min", o.sketch.mMin}, {"m_max_requested", o.sketch.mMax},
            {"cap", o.cap},           {"iterations", o.sketch.iterations},
            {"seed", o.sketch.seed},  {"shard_rows", o.shardRows},
            {"backbone", o.backbone}, {"corpus", sources}};
}

// Number of tokens of a video when it can be known without encoding it (feature files).
std::int64_t knownTokenCount(const std::string& path) {
    if (!isFeatureFile(path)) {
        return -1;
    }
    auto f = SafetensorsFile::open(path);
    std::int64_t n = 1;
    const auto& shape = f.entry("features").shape;
    for (std::size_t i = 0; i + 1 < shape.size(); ++i) {
        n *= shape[i];
    }
    return n;
}

VideoTokens loadTokens(const std::string& path, const VideoEncodeFn& encode, Progress* progress) {
    if (isFeatureFile(path)) {
        FeatureFile f = FeatureFile::load(path);
        return {f.features, f.frameTimes, f.backbone};
    }
    if (!encode) {
        fail("this corpus entry is a video but no encoder was given", path, "video",
             "a .safetensors feature file or --backbone", "a video file");
    }
    return encode(path, progress);
}

struct Pending {
    std::vector<at::Tensor> reps, weights, category, video, bin;
    std::vector<std::size_t> videos;  // corpus indices finished (or failed) into this shard
    std::int64_t rows = 0;
};

}  // namespace

std::vector<CorpusEntry> readCorpusManifest(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        fail("cannot open the corpus manifest", path);
    }
    std::vector<CorpusEntry> out;
    std::string line;
    int lineNo = 0;
    const fs::path base = fs::path(path).parent_path();
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(line);
        } catch (const std::exception& e) {
            fail("invalid JSON in the corpus manifest", path, "line " + std::to_string(lineNo),
                 "one JSON object per line", e.what());
        }
        if (!j.is_object() || !j.contains("video") || !j["video"].is_string()) {
            fail("corpus manifest line without a \"video\" path", path,
                 "line " + std::to_string(lineNo), "{\"video\": path, \"category\": name}", line);
        }
        CorpusEntry e;
        fs::path p = j["video"].get<std::string>();
        e.source = (p.is_relative() ? base / p : p).lexically_normal().string();
        if (j.contains("category") && j["category"].is_string()) {
            e.category = j["category"].get<std::string>();
        }
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
    fs::create_directories(cacheDir);
    const std::string manifestPath = cacheDir + "/manifest.json";
    nlohmann::json request = requestJson(corpus, options);
    nlohmann::json m;
    if (fs::exists(manifestPath)) {
        m = nlohmann::json::parse(readWholeFile(manifestPath));
        if (m.value("format", "") != kCacheFormat) {
            fail("not a Stage-A cache manifest", manifestPath, "format", kCacheFormat,
                 m.value("format", ""));
        }
        for (auto& [key, value] : request.items()) {
            if (m["request"][key] != value) {
                fail(
                    "the cache was started with other options or another corpus; use a new "
                    "folder or the same options",
                    manifestPath, key, m["request"][key].dump().substr(0, 200),
                    value.dump().substr(0, 200));
            }
        }
    } else {
        std::vector<std::int64_t> counts;
        for (const auto& e : corpus) {
            counts.push_back(knownTokenCount(e.source));
        }
        std::int64_t mMax = resolveCappedMMax(counts, options.sketch, options.cap);
        nlohmann::json categories = nlohmann::json::array();
        std::vector<std::string> seen;
        for (const auto& e : corpus) {
            if (!e.category.empty() &&
                std::find(seen.begin(), seen.end(), e.category) == seen.end()) {
                seen.push_back(e.category);
                categories.push_back(e.category);
            }
        }
        nlohmann::json videos = nlohmann::json::array();
        for (std::size_t i = 0; i < corpus.size(); ++i) {
            videos.push_back({{"status", "pending"}});
        }
        m = {{"format", kCacheFormat},
             {"request", request},
             {"m_max", mMax},
             {"categories", categories},
             {"backbone", options.backbone},
             {"feature_source", ""},
             {"dim", 0},
             {"videos", videos},
             {"shards", nlohmann::json::array()},
             {"complete", false}};
        writeFileAtomically(manifestPath, m.dump(1));
    }

    SketchOptions so = options.sketch;
    so.mMax = m["m_max"].get<std::int64_t>();
    std::vector<std::string> categories = m["categories"].get<std::vector<std::string>>();
    auto categoryIndex = [&](const std::string& c) {
        auto it = std::find(categories.begin(), categories.end(), c);
        return it == categories.end() ? -1 : int(it - categories.begin());
    };
    // Anything beyond the committed shards is a leftover of a killed run: it is rewritten.
    const std::size_t committedShards = m["shards"].size();
    for (const auto& entry : fs::directory_iterator(cacheDir)) {
        std::string name = entry.path().filename().string();
        bool stray = name.find(".tmp-") != std::string::npos;
        if (name.rfind("shard-", 0) == 0 && name.size() == 23) {
            stray = stray || std::stoul(name.substr(6, 5)) >= committedShards;
        }
        if (stray) {
            fs::remove(entry.path());
        }
    }

    SketchCacheSummary s;
    s.videos = std::int64_t(corpus.size());
    s.mMax = so.mMax;
    for (const auto& v : m["videos"]) {
        s.resumed += v["status"] != "pending" ? 1 : 0;
    }
    std::size_t first = 0;  // resume point: the first pending video
    while (first < corpus.size() && m["videos"][first]["status"] != "pending") {
        ++first;
    }
    std::string backbone = m["backbone"].get<std::string>();
    std::int64_t dim = m["dim"].get<std::int64_t>();
    Pending buf;

    auto flush = [&] {
        if (buf.videos.empty()) {
            return;
        }
        const std::size_t shard = m["shards"].size();
        std::int64_t rowBegin = 0;
        for (const auto& sh : m["shards"]) {
            rowBegin += sh["rows"].get<std::int64_t>();
        }
        if (buf.rows > 0) {
            SafetensorsWriter w;
            addTensor(w, "reps", at::cat(buf.reps).to(at::kBFloat16));
            addTensor(w, "weights", at::cat(buf.weights));
            addTensor(w, "category", at::cat(buf.category));
            addTensor(w, "video", at::cat(buf.video));
            addTensor(w, "bin", at::cat(buf.bin));
            w.setMetadata("format", "once-sketch-shard/1");
            w.write(cacheDir + "/" + shardName(shard));
            m["shards"].push_back({{"file", shardName(shard)}, {"rows", buf.rows}});
        }
        std::int64_t row = rowBegin;
        for (std::size_t i = 0; i < buf.videos.size(); ++i) {
            auto& v = m["videos"][buf.videos[i]];
            if (v["status"] == "running") {
                v["status"] = "done";
                v["shard"] = shardName(shard);
                v["row_begin"] = row;
                row += v["reps"].get<std::int64_t>();
                v["row_end"] = row;
            }
        }
        m["backbone"] = backbone;
        m["dim"] = dim;
        writeFileAtomically(manifestPath, m.dump(1));
        buf = Pending{};
    };

    if (progress) {
        progress->begin("Stage A sketch", double(corpus.size()));
        progress->update(double(first));
    }
    for (std::size_t i = first; i < corpus.size(); ++i) {
        auto& v = m["videos"][i];
        try {
            VideoTokens t = loadTokens(corpus[i].source, encodeVideo, nullptr);
            if (!backbone.empty() && !t.backbone.empty() && t.backbone != backbone) {
                fail("a corpus video was encoded by another backbone", corpus[i].source, "backbone",
                     backbone, t.backbone);
            }
            if (backbone.empty()) {
                backbone = t.backbone;
            }
            if (dim == 0) {
                dim = t.features.size(-1);
            } else if (t.features.size(-1) != dim) {
                fail("feature width differs from the rest of the corpus", corpus[i].source, "D",
                     std::to_string(dim), std::to_string(t.features.size(-1)));
            }
            VideoSketch sk = sketchVideo(t.features, t.frameTimes, so, std::int64_t(i));
            const std::int64_t reps = sk.reps.size(0);
            buf.reps.push_back(sk.reps);
            buf.weights.push_back(sk.weights);
            buf.category.push_back(at::full({reps}, categoryIndex(corpus[i].category), at::kInt));
            buf.video.push_back(at::full({reps}, std::int64_t(i), at::kInt));
            buf.bin.push_back(sk.bins);
            buf.rows += reps;
            v["status"] = "running";
            v["tokens"] = sk.numTokens;
            v["reps"] = reps;
            s.tokensThisRun += sk.numTokens;
        } catch (const OnceError& e) {
            if (!options.skipErrors) {
                throw;
            }
            v["status"] = "failed";
            v["error"] = e.what();
        }
        buf.videos.push_back(i);
        if (buf.rows >= options.shardRows) {
            flush();
        }
        if (progress) {
            double secs =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            progress->update(double(i + 1), std::to_string(std::int64_t(double(s.tokensThisRun) /
                                                                        std::max(secs, 1e-9))) +
                                                " tokens/s");
        }
    }
    flush();
    m["complete"] = true;
    writeFileAtomically(manifestPath, m.dump(1));
    for (const auto& v : m["videos"]) {
        if (v["status"] == "done") {
            ++s.done;
            s.reps += v["reps"].get<std::int64_t>();
            s.tokens += v["tokens"].get<std::int64_t>();
        } else if (v["status"] == "failed") {
            ++s.failed;
        }
    }
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return s;
}

SketchCache SketchCache::load(const std::string& cacheDir) {
    const std::string manifestPath = cacheDir + "/manifest.json";
    if (!fs::exists(manifestPath)) {
        fail("no Stage-A cache here (manifest.json missing)", cacheDir, "manifest.json");
    }
    nlohmann::json m = nlohmann::json::parse(readWholeFile(manifestPath));
    if (m.value("format", "") != kCacheFormat) {
        fail("not a Stage-A cache manifest", manifestPath, "format", kCacheFormat,
             m.value("format", ""));
    }
    if (!m.value("complete", false)) {
        fail("the Stage-A cache is unfinished: rerun `once train sketch` to resume it",
             manifestPath, "complete", "true", "false");
    }
    SketchCache c;
    std::vector<at::Tensor> reps, weights, category, video, bin;
    for (const auto& sh : m["shards"]) {
        auto f = SafetensorsFile::open(cacheDir + "/" + sh["file"].get<std::string>());
        at::Tensor r = loadTensor(f, "reps");
        if (r.size(0) != sh["rows"].get<std::int64_t>()) {
            fail("shard row count differs from the manifest", f.path(), "reps", sh["rows"].dump(),
                 std::to_string(r.size(0)));
        }
        reps.push_back(r.clone());
        weights.push_back(loadTensor(f, "weights").clone());
        category.push_back(loadTensor(f, "category").clone());
        video.push_back(loadTensor(f, "video").clone());
        bin.push_back(loadTensor(f, "bin").clone());
    }
    if (reps.empty()) {
        fail("the Stage-A cache holds no representative", manifestPath, "shards", ">= 1", "0");
    }
    c.reps = at::cat(reps);
    c.weights = at::cat(weights);
    c.category = at::cat(category);
    c.video = at::cat(video);
    c.bin = at::cat(bin);
    c.categories = m["categories"].get<std::vector<std::string>>();
    for (const auto& e : m["request"]["corpus"]) {
        c.sources.push_back(e["source"].get<std::string>());
    }
    c.backbone = m.value("backbone", "");
    c.manifestJson = m.dump();
    return c;
}

}  // namespace once
