// once bench: the efficiency table (visual tokens, compression time, time to first token,
// end-to-end latency, speed-ups over Dense, prefill FLOPs, peak memory, decode speed) of each
// method × budget on any model folder and videos, with the machine it ran on. The measuring is
// core's (eval/efficiency_bench.h); this file reads the options, prints and writes the table.
#include <iostream>

#include "cli/command.h"
#include "cli/method_options.h"
#include "cli/output_options.h"
#include "cli/video_options.h"
#include "eval/efficiency_bench.h"

namespace once::cli {
namespace {

void declare(ArgParser& p) {
    p.positional("VIDEO", "video files or frame folders (each encoded once)", false, true)
        .option("features", "FILE",
                "feature file of `once encode` to measure like a video, without decoding and "
                "encoding (repeatable; for builds without a video decoder)")
        .option("model", "DIR|ORG/NAME",
                "Hugging Face folder of the backbone (LLaVA-OneVision, Qwen3.5), or its "
                "repository in the hub cache (HF_HUB_CACHE)")
        .option("methods", "LIST",
                "dense and compressors of the registry, comma-separated (once needs --codebook)",
                "dense,once,forestprune,fastvid")
        .option("param", "METHOD.KEY=VALUE", "compressor parameter (repeatable)")
        .option("budgets", "LIST", "visual token budgets, comma-separated",
                "32,64,128,256,512,1024")
        .integerListIn(1, kMaxIntOption)
        .option("codebook", "FILE", "codebook for methods that need one (once)")
        .option("frames", "N", "uniform:N frames (shorthand for --sampling uniform:N)")
        .integerIn(1, kMaxIntOption)
        .option("question", "TEXT", "the prompt's question (the same for every method)",
                EfficiencyBenchOptions{}.question)
        .option("new-tokens", "N", "tokens generated per run, greedy, past stop tokens", "16")
        .integerIn(1, kMaxIntOption)
        .option("reps", "R", "timed runs of each method × budget per video", "3")
        .integerIn(1, kMaxIntOption)
        .option("warmup", "W", "untimed runs before them", "1")
        .integerIn(0, kMaxIntOption)
        .option("seed", "S", "compressor seed", "42")
        .integerIn(0, kMaxSeedOption)
        .option("device", "DEV", "cpu, cuda or cuda:N", "cpu")
        .option("accuracy", "RESULTS",
                "`once eval` results (JSONL): their accuracy joins the rows of the same method "
                "and budget (the studio's chart draws it)")
        .option("output", "FILE", "the table as JSON (once-bench/1)", std::nullopt, "-o")
        .option("csv", "PREFIX", "also write PREFIX_rows.csv and PREFIX_videos.csv")
        .flag("json", "print the JSON instead of the table");
    declareOverwrite(p);
    declareVideoModelOptions(p, true);
}

int run(const ArgParser& a) {
    for (const char* req : {"model", "output"}) {
        if (!a.has(req)) {
            throw UsageError(std::string("--") + req + " is required");
        }
    }
    if (a.has("frames") && a.has("sampling")) {
        throw UsageError("give --frames N or --sampling RULE, not both");
    }
    EfficiencyBenchOptions o;
    std::string samplingNotice;
    o.session = sessionOptionsFrom(a, &samplingNotice);
    if (a.has("frames")) {
        o.session.sampling = "uniform:" + a.get("frames");
    }
    o.videos = a.getAll("VIDEO");
    o.featureFiles = a.getAll("features");
    const std::vector<std::string> methods = splitList(a.get("methods"));
    auto params = methodParams(a.getAll("param"), methods);
    for (const std::string& m : methods) {
        o.methods.push_back({m, params[m]});
    }
    o.budgets = a.getIntList("budgets");
    o.question = a.get("question");
    o.newTokens = a.getInt("new-tokens");
    o.reps = a.getInt32("reps", "bench");
    o.warmup = a.getInt32("warmup", "bench");
    o.seed = std::uint64_t(a.getInt("seed"));
    o.accuracyResults = a.getOr("accuracy", "");
    o.output = a.get("output");
    o.csvPrefix = a.getOr("csv", "");
    o.replace = replaceFrom(a);
    const bool json = a.flagSet("json");
    if (!json && !a.has("frames")) {
        printNotices({samplingNotice});
    }
    Progress progress = terminalProgress(json);
    const EfficiencyBench bench = runEfficiencyBench(o, &progress);
    saveEfficiencyBench(bench, o.output, o.csvPrefix, o.replace);
    if (json) {
        std::cout << efficiencyBenchJson(bench);
    } else {
        std::cout << efficiencyBenchText(bench);
        std::cerr << "written: " << o.output
                  << (o.csvPrefix.empty()
                          ? ""
                          : ", " + o.csvPrefix + "_rows.csv, " + o.csvPrefix + "_videos.csv")
                  << "\n";
    }
    return 0;
}

const CommandRegistrar reg{{"bench",
                            "efficiency table: latency, speed-ups and memory of methods × budgets",
                            declare, run}};

}  // namespace
}  // namespace once::cli
