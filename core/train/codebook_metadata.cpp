#include "train/codebook_metadata.h"

#include <ATen/ATen.h>

#include <nlohmann/json.hpp>

#include "analysis/diagnostics.h"
#include "train/cache_reader.h"
#include "train/sketch_cache.h"
#include "train/stage_b.h"

namespace once {

namespace {

// `stage_a` from the manifest and the cache's shape (a loaded or a mapped cache).
std::string provenanceJson(const std::string& manifestJson, std::size_t sources, std::int64_t rows,
                           std::int64_t dim, const std::string& backbone, const FitResult& fit) {
    nlohmann::json m = nlohmann::json::parse(manifestJson);
    nlohmann::json options = m.value("request", nlohmann::json::object());
    options.erase("corpus");  // absolute paths of the machine that sketched it
    std::int64_t done = 0, failed = 0, tokens = 0;
    for (const auto& v : m.value("videos", nlohmann::json::array())) {
        const std::string status = v.value("status", "");
        done += status == "done" ? 1 : 0;
        failed += status == "failed" ? 1 : 0;
        tokens += v.value("tokens", std::int64_t(0));
    }
    nlohmann::json j = {{"format", m.value("format", "")},
                        {"options", options},
                        {"m_max", m.value("m_max", std::int64_t(0))},
                        {"categories", m.value("categories", nlohmann::json::array())},
                        {"videos", std::int64_t(sources)},
                        {"videos_done", done},
                        {"videos_failed", failed},
                        {"representatives", rows},
                        {"dim", dim},
                        {"source_tokens", tokens},
                        {"backbone", backbone},
                        {"training_data_sha256", fit.dataSha256}};
    return j.dump();
}

// fit.metadata + stage_a + the diagnostics of `t`.
std::map<std::string, std::string> metadataOf(const TokenSet& t, std::string stageA,
                                              const FitResult& fit,
                                              const CodebookMetadataOptions& options,
                                              Progress* progress) {
    auto meta = fit.metadata;
    meta["stage_a"] = std::move(stageA);
    DiagnosticsOptions d;
    d.bootstrap = options.bootstrap;
    d.randomCodebooks = options.randomCodebooks;
    meta["diagnostics"] = diagnoseCodebook(fit.codebook, t, d, progress).toJson(-1);
    return meta;
}

// The cache's weights, and its videos numbered 0… in order of first index.
void groupByVideo(TokenSet& t, const at::Tensor& weights, const at::Tensor& video) {
    t.weights = weights;
    auto [uniq, inverse] = at::_unique(video.to(at::kLong), true, true);
    t.video = inverse;
    t.numVideos = uniq.size(0);
}

}  // namespace

std::string stageAProvenanceJson(const SketchCache& cache, const FitResult& fit) {
    return provenanceJson(cache.manifestJson, cache.sources.size(), cache.reps.size(0),
                          cache.reps.size(1), cache.backbone, fit);
}

TokenSet cacheTokenSet(const SketchCache& cache) {
    TokenSet t;
    t.x = cache.reps;
    groupByVideo(t, cache.weights, cache.video);
    return t;
}

TokenSet cacheTokenSet(const CacheReader& cache) {
    TokenSet t;
    t.readRows = [&cache](std::int64_t b, std::int64_t e) { return cache.slice(b, e); };
    t.gatherRows = [&cache](const std::vector<std::int64_t>& rows) { return cache.gather(rows); };
    t.rowCount = cache.rows();
    t.dim = cache.dim();
    groupByVideo(t, cache.weights(), cache.video());
    return t;
}

std::map<std::string, std::string> trainedCodebookMetadata(const SketchCache& cache,
                                                           const FitResult& fit,
                                                           const CodebookMetadataOptions& options,
                                                           Progress* progress) {
    return metadataOf(cacheTokenSet(cache), stageAProvenanceJson(cache, fit), fit, options,
                      progress);
}

std::map<std::string, std::string> trainedCodebookMetadata(const CacheReader& cache,
                                                           const FitResult& fit,
                                                           const CodebookMetadataOptions& options,
                                                           Progress* progress) {
    const StageAManifest& m = cache.manifest();
    // SketchCache::load keeps the manifest as m.toJson().dump(): the same `stage_a` bytes.
    return metadataOf(cacheTokenSet(cache),
                      provenanceJson(m.toJson().dump(), m.sources.size(), cache.rows(), cache.dim(),
                                     m.backbone, fit),
                      fit, options, progress);
}

}  // namespace once
