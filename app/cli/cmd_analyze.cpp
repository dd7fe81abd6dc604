// once analyze stress | support-origin | break-even: the paper's codebook and cost analyses on
// the user's own data. Each prints a table and writes CSV (--csv) the GUI can chart.
#include <fstream>
#include <iostream>
#include <sstream>

#include "analysis/break_even.h"
#include "analysis/stress_diagnostic.h"
#include "analysis/support_origin.h"
#include "cli/command.h"
#include "codebook/codebook.h"
#include "eval/results_file.h"
#include "features/feature_file.h"
#include "util/error.h"
#include "util/regular_file.h"

namespace once::cli {
namespace {

void writeText(const std::string& path, const std::string& text) {
    std::ofstream out(path);
    out << text;
    if (!out) {
        fail("cannot write CSV", path, "csv", "a writable path", "write error");
    }
}

// Feature files of the videos, checked against the codebook.
std::vector<at::Tensor> loadVideos(const ArgParser& a, const Codebook& cb) {
    std::vector<at::Tensor> videos;
    for (const auto& path : a.getAll("features")) {
        const EncodedVideo f = loadFeatureFile(path);
        cb.checkCompatible(f.features.size(-1), f.backbone, path);
        videos.push_back(f.features);
    }
    if (videos.empty()) {
        throw UsageError("give --features FILE (repeatable), one per video");
    }
    return videos;
}

void declareStress(ArgParser& p) {
    StressOptions d;
    p.option("codebook", "FILE",
             "learned codebook (repeatable: each is also compared with the first, paired)")
        .option("features", "FILE", "feature file of one video (repeatable)")
        .option("random-codebooks", "N", "random-exemplar codebooks",
                std::to_string(d.randomCodebooks))
        .option("random-seed", "S", "seed of the first random codebook",
                std::to_string(d.randomSeed))
        .option("bootstrap", "N", "resamples of videos and seeds", std::to_string(d.bootstrap))
        .option("bootstrap-seed", "S", "bootstrap seed", std::to_string(d.bootstrapSeed))
        .option("csv", "PREFIX",
                "write PREFIX.csv (summary), PREFIX_videos.csv (per video) and, per extra "
                "codebook i, PREFIX_vs_first_i.csv / PREFIX_i.csv");
}

int runStress(const ArgParser& a) {
    if (!a.has("codebook")) {
        throw UsageError("--codebook FILE is required");
    }
    const auto paths = a.getAll("codebook");
    std::vector<Codebook> cbs;
    for (const auto& path : paths) {
        cbs.push_back(Codebook::load(path));
    }
    auto videos = loadVideos(a, cbs.front());
    StressOptions o;
    o.randomCodebooks = int(a.getInt("random-codebooks"));
    o.randomSeed = std::uint64_t(a.getInt("random-seed"));
    o.bootstrap = a.getInt("bootstrap");
    o.bootstrapSeed = std::uint64_t(a.getInt("bootstrap-seed"));
    Progress progress = terminalProgress();
    for (std::size_t i = 0; i < cbs.size(); ++i) {
        if (i > 0) {
            cbs[i].checkCompatible(cbs.front().vectors().size(1), cbs.front().backbone(),
                                   paths.front());
        }
        std::cout << paths[i] << "\n";
        StressResult r = stressDiagnostic(cbs[i].vectors(), videos, o, &progress);
        std::cout << stressTableText(r);
        const std::string suffix = i == 0 ? "" : "_" + std::to_string(i);
        if (a.has("csv")) {
            writeText(a.get("csv") + suffix + ".csv", stressCsv(r));
            writeText(a.get("csv") + suffix + "_videos.csv", stressPerVideoCsv(r));
        }
        if (i > 0) {
            auto c = compareCodebooks(cbs.front().vectors(), cbs[i].vectors(), videos, o.bootstrap,
                                      o.bootstrapSeed);
            std::cout << comparisonTableText(c, paths.front(), paths[i]);
            if (a.has("csv")) {
                writeText(a.get("csv") + "_vs_first" + suffix + ".csv", comparisonCsv(c));
            }
        }
        std::cout << "\n";
    }
    return 0;
}

void declareSupport(ArgParser& p) {
    SupportOriginOptions d;
    p.option("codebook", "FILE", "learned codebook")
        .option("features", "FILE", "feature file of one video (repeatable; >= 2)")
        .option("budgets", "LIST", "budgets, comma-separated", "32,64,128,256")
        .option("groups", "FILE", "one group label per line and video (creators kept apart)")
        .option("bootstrap", "N", "resamples of pairs", std::to_string(d.bootstrap))
        .option("bootstrap-seed", "S", "bootstrap seed", std::to_string(d.bootstrapSeed))
        .option("csv", "FILE", "write the per-budget table as CSV");
}

int runSupport(const ArgParser& a) {
    if (!a.has("codebook")) {
        throw UsageError("--codebook FILE is required");
    }
    Codebook cb = Codebook::load(a.get("codebook"));
    auto videos = loadVideos(a, cb);
    SupportOriginOptions o;
    o.budgets.clear();
    std::stringstream ss(a.get("budgets"));
    for (std::string b; std::getline(ss, b, ',');) {
        try {
            o.budgets.push_back(std::stoll(b));
        } catch (const std::exception&) {
            throw UsageError("--budgets takes integers, got '" + b + "'");
        }
    }
    if (a.has("groups")) {
        // One group name per feature file: 64 MiB is far more than any run has videos.
        std::istringstream in(readRegularFile(a.get("groups"), std::size_t(64) << 20, "groups"));
        for (std::string line; std::getline(in, line);) {
            o.groups.push_back(line);
        }
    }
    o.bootstrap = a.getInt("bootstrap");
    o.bootstrapSeed = std::uint64_t(a.getInt("bootstrap-seed"));
    Progress progress = terminalProgress();
    SupportOriginResult r = supportOrigin(cb.vectors(), videos, o, &progress);
    std::cout << supportOriginTableText(r);
    if (a.has("csv")) {
        writeText(a.get("csv"), supportOriginCsv(r));
    }
    return 0;
}

void declareBreakEven(ArgParser& p) {
    p.option("offline-seconds", "S", "T_A + T_B: codebook construction wall time")
        .option("stage-a", "S", "T_A: Stage A seconds (with --stage-b)")
        .option("stage-b", "S", "T_B: Stage B seconds (with --stage-a)")
        .option("results", "FILE", "`once eval` results with dense and compressed records")
        .option("dense-latency", "S", "per-video dense latency (instead of --results)")
        .option("method-latency", "S", "per-video compressed latency (with --dense-latency)")
        .option("csv", "FILE", "write the table as CSV");
}

int runBreakEven(const ArgParser& a) {
    double offline = 0;
    if (a.has("offline-seconds") == (a.has("stage-a") || a.has("stage-b"))) {
        throw UsageError("give --offline-seconds or --stage-a and --stage-b");
    }
    if (a.has("offline-seconds")) {
        offline = a.getDouble("offline-seconds");
    } else {
        if (!a.has("stage-a") || !a.has("stage-b")) {
            throw UsageError("--stage-a and --stage-b go together");
        }
        offline = a.getDouble("stage-a") + a.getDouble("stage-b");
    }
    std::vector<BreakEvenRow> rows;
    if (a.has("results")) {
        requireRegularFile(a.get("results"), "results");
        rows = breakEvenFromResults(readResults(a.get("results")), offline);
        if (rows.empty()) {
            fail("no compressed records with dense records of the same questions", a.get("results"),
                 "results", "dense and compressed records", "none matched");
        }
    } else if (a.has("dense-latency") && a.has("method-latency")) {
        BreakEvenRow r;
        r.method = "given";
        r.denseSeconds = a.getDouble("dense-latency");
        r.methodSeconds = a.getDouble("method-latency");
        r.offlineSeconds = offline;
        r.nStar = breakEvenCount(offline, r.denseSeconds - r.methodSeconds);
        rows.push_back(r);
    } else {
        throw UsageError("give --results FILE or --dense-latency and --method-latency");
    }
    std::cout << breakEvenTableText(rows);
    if (a.has("csv")) {
        writeText(a.get("csv"), breakEvenCsv(rows));
    }
    return 0;
}

const CommandRegistrar regStress{
    {"analyze stress",
     "public-video stress diagnostic: learned vs random-exemplar codebook residuals", declareStress,
     runStress}};
const CommandRegistrar regSupport{
    {"analyze support-origin", "support-origin diagnostic: current vs donor support across budgets",
     declareSupport, runSupport}};
const CommandRegistrar regBreakEven{{"analyze break-even",
                                     "break-even count N* of the offline codebook cost",
                                     declareBreakEven, runBreakEven}};

}  // namespace
}  // namespace once::cli
