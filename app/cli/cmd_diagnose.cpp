// once diagnose: utilisation and coverage of a codebook on a Stage-A cache or feature files.
#include <ATen/ATen.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "analysis/diagnostics.h"
#include "cli/command.h"
#include "cli/output_options.h"
#include "cli/statistics_options.h"
#include "codebook/codebook.h"
#include "features/feature_file.h"
#include "train/cache_reader.h"
#include "train/codebook_metadata.h"
#include "util/error.h"

namespace once::cli {
namespace {

void declare(ArgParser& p) {
    DiagnosticsOptions d;
    p.option("codebook", "FILE", "codebook (.safetensors, .npy or .pt)")
        .option("cache", "DIR", "Stage-A cache: representatives weighted by source count")
        .option("features", "FILE", "feature file(s), one video each (repeatable)");
    declareBootstrap(p, "video-level bootstrap resamples (0: none)", d.bootstrap,
                     d.bootstrapSeed);
    declareRandomCodebooks(p, "random-exemplar codebooks (0: none)", 0, d.randomCodebooks,
                           "seed of the first random-exemplar codebook", d.randomSeed);
    p.flag("json", "print JSON");
}

int run(const ArgParser& a) {
    a.requireOneOf({"cache", "features"});
    DiagnosticsOptions o;
    o.bootstrap = a.getInt("bootstrap");
    o.bootstrapSeed = std::uint64_t(a.getInt("bootstrap-seed"));
    o.randomCodebooks = int(a.getInt("random-codebooks"));
    o.randomSeed = std::uint64_t(a.getInt("random-seed"));
    Codebook cb = Codebook::load(a.get("codebook"));
    TokenSet t;
    std::optional<CacheReader> reader;  // read a tile at a time: memory bounded by the tile
    if (a.has("cache")) {
        reader.emplace(CacheReader::open(a.get("cache")));
        cb.checkCompatible(reader->dim(), reader->manifest().backbone, a.get("cache"));
        t = cacheTokenSet(*reader);
    } else {
        std::vector<at::Tensor> xs, vs;
        for (const auto& path : a.getAll("features")) {
            const EncodedVideo f = loadFeatureFile(path);
            cb.checkCompatible(f.features.size(-1), f.backbone, path);
            at::Tensor x = f.features.reshape({-1, f.features.size(-1)}).to(at::kFloat);
            vs.push_back(at::full({x.size(0)}, t.numVideos++, at::kLong));
            xs.push_back(x);
        }
        t.x = at::cat(xs);
        t.video = at::cat(vs);
        t.weights = at::ones({t.x.size(0)}, at::kDouble);
    }
    Progress progress = terminalProgress(a.flagSet("json"));
    Diagnostics d = diagnoseCodebook(cb.vectors(), t, o, &progress);
    if (a.flagSet("json")) {
        printJson(nlohmann::json::parse(d.toJson()));
        return 0;
    }
    auto ci = [](const Estimate& e) {
        std::ostringstream s;
        s << e.value << " [" << e.lo << ", " << e.hi << "]";
        return s.str();
    };
    std::cout << "codebook " << a.get("codebook") << ": K " << d.codewords << ", " << d.rows
              << " rows of " << d.videos << " video(s)\n"
              << "  active codes %            " << ci(d.activeCodesPct) << "\n"
              << "  entropy-effective capacity % " << ci(d.entropyCapacityPct) << "\n"
              << "  mean cosine error         " << ci(d.meanCosineError) << "\n  decile shares";
    for (double s : d.decileShares) {
        std::cout << " " << s;
    }
    std::cout << "\n";
    for (const auto& [name, e] : d.residuals) {
        std::cout << "  " << name << " (mean over videos) " << ci(e) << "\n";
    }
    if (d.hasRandom) {
        std::cout << "  random - full mean residual " << ci(d.diffMeanResidual) << "\n"
                  << "  random - full R95           " << ci(d.diffR95) << "\n";
    }
    return 0;
}

const CommandRegistrar reg{
    {"diagnose", "codebook utilisation and coverage with bootstrap CIs", declare, run}};

}  // namespace
}  // namespace once::cli
