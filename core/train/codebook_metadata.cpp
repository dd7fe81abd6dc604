#include "train/codebook_metadata.h"

#include <ATen/ATen.h>

#include <nlohmann/json.hpp>

#include "analysis/diagnostics.h"
#include "train/sketch_cache.h"
#include "train/stage_b.h"

namespace once {

std::string stageAProvenanceJson(const SketchCache& cache, const FitResult& fit) {
    nlohmann::json m = nlohmann::json::parse(cache.manifestJson);
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
                        {"videos", std::int64_t(cache.sources.size())},
                        {"videos_done", done},
                        {"videos_failed", failed},
                        {"representatives", cache.reps.size(0)},
                        {"dim", cache.reps.size(1)},
                        {"source_tokens", tokens},
                        {"backbone", cache.backbone},
                        {"training_data_sha256", fit.dataSha256}};
    return j.dump();
}

std::map<std::string, std::string> trainedCodebookMetadata(const SketchCache& cache,
                                                           const FitResult& fit,
                                                           const CodebookMetadataOptions& options,
                                                           Progress* progress) {
    auto meta = fit.metadata;
    meta["stage_a"] = stageAProvenanceJson(cache, fit);
    // The same rows, weights and video grouping as `once diagnose --cache`.
    TokenSet t;
    t.x = cache.reps;
    t.weights = cache.weights;
    auto [uniq, inverse] = at::_unique(cache.video.to(at::kLong), true, true);
    t.video = inverse;
    t.numVideos = uniq.size(0);
    DiagnosticsOptions d;
    d.bootstrap = options.bootstrap;
    d.randomCodebooks = options.randomCodebooks;
    meta["diagnostics"] = diagnoseCodebook(fit.codebook, t, d, progress).toJson(-1);
    return meta;
}

}  // namespace once
