// once analyze stress | support-origin | break-even: the paper's codebook and cost analyses on
// the user's own data. Each prints a table and writes CSV (--csv) the GUI can chart.
#include <fstream>
#include <iostream>
#include <sstream>

#include "analysis/break_even.h"
#include "analysis/stress_diagnostic.h"
#include "analysis/support_origin.h"
#include "cli/command.h"
#include "cli/output_options.h"
#include "cli/statistics_options.h"
#include "codebook/codebook.h"
#include "eval/results_file.h"
#include "features/feature_file.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/regular_file.h"

namespace once::cli {
namespace {

// Whole or not at all, never through a link (util/atomic_file.h).
void writeText(const ArgParser& a, const std::string& path, const std::string& text) {
    writeFileAtomically(path, text, replaceFrom(a));
}

// The CSV outputs of a run, checked before any work (and before any of them is written).
void checkCsvOutputs(const ArgParser& a, const std::vector<std::string>& paths) {
    for (const auto& path : paths) {
        checkOutputPath(path, replaceFrom(a), "csv");
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
        .option("features", "FILE", "feature file of one video (repeatable)");
    declareRandomCodebooks(p, "random-exemplar codebooks", 1, d.randomCodebooks,
                           "seed of the first random codebook", d.randomSeed);
    declareBootstrap(p, "resamples of videos and seeds", d.bootstrap, d.bootstrapSeed);
    p.option("csv", "PREFIX",
                "write PREFIX.csv (summary), PREFIX_videos.csv (per video) and, per extra "
                "codebook i, PREFIX_vs_first_i.csv / PREFIX_i.csv");
    declareOverwrite(p);
}

int runStress(const ArgParser& a) {
    if (!a.has("codebook")) {
        throw UsageError("--codebook FILE is required");
    }
    const auto paths = a.getAll("codebook");
    if (a.has("csv")) {
        std::vector<std::string> csv;
        for (std::size_t i = 0; i < paths.size(); ++i) {
            const std::string suffix = i == 0 ? "" : "_" + std::to_string(i);
            csv.push_back(a.get("csv") + suffix + ".csv");
            csv.push_back(a.get("csv") + suffix + "_videos.csv");
            if (i > 0) {
                csv.push_back(a.get("csv") + "_vs_first" + suffix + ".csv");
            }
        }
        checkCsvOutputs(a, csv);
    }
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
            writeText(a, a.get("csv") + suffix + ".csv", stressCsv(r));
            writeText(a, a.get("csv") + suffix + "_videos.csv", stressPerVideoCsv(r));
        }
        if (i > 0) {
            auto c = compareCodebooks(cbs.front().vectors(), cbs[i].vectors(), videos, o.bootstrap,
                                      o.bootstrapSeed);
            std::cout << comparisonTableText(c, paths.front(), paths[i]);
            if (a.has("csv")) {
                writeText(a, a.get("csv") + "_vs_first" + suffix + ".csv", comparisonCsv(c));
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
        .integerListIn(1, kMaxIntOption)
        .option("groups", "FILE", "one group label per line and video (creators kept apart)");
    declareBootstrap(p, "resamples of pairs", d.bootstrap, d.bootstrapSeed);
    p.option("csv", "FILE", "write the per-budget table as CSV");
    declareOverwrite(p);
}

int runSupport(const ArgParser& a) {
    if (!a.has("codebook")) {
        throw UsageError("--codebook FILE is required");
    }
    if (a.has("csv")) {
        checkCsvOutputs(a, {a.get("csv")});
    }
    Codebook cb = Codebook::load(a.get("codebook"));
    auto videos = loadVideos(a, cb);
    SupportOriginOptions o;
    o.budgets = a.getIntList("budgets");
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
        writeText(a, a.get("csv"), supportOriginCsv(r));
    }
    return 0;
}

void declareBreakEven(ArgParser& p) {
    // Seconds: finite, not negative, below 10^12 (30,000 years).
    const double most = 1e12;
    p.option("offline-seconds", "S", "T_A + T_B: codebook construction wall time")
        .numberIn(0, most)
        .option("stage-a", "S", "T_A: Stage A seconds (with --stage-b)")
        .numberIn(0, most)
        .option("stage-b", "S", "T_B: Stage B seconds (with --stage-a)")
        .numberIn(0, most)
        .option("results", "FILE", "`once eval` results with dense and compressed records")
        .option("dense-latency", "S", "per-video dense latency (instead of --results)")
        .numberIn(0, most)
        .option("method-latency", "S", "per-video compressed latency (with --dense-latency)")
        .numberIn(0, most)
        .option("csv", "FILE", "write the table as CSV");
    declareOverwrite(p);
}

int runBreakEven(const ArgParser& a) {
    double offline = 0;
    if (a.has("csv")) {
        checkCsvOutputs(a, {a.get("csv")});
    }
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
        writeText(a, a.get("csv"), breakEvenCsv(rows));
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
