// once eval: answer a benchmark's questions dense and with each compressor at each budget,
// appending resumable JSONL records; then print the Table 1-style accuracy table.
// once eval report: accuracy (overall, per task, bootstrap CIs) and efficiency tables of one or
// more results files, as text or CSV.
#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/dtype_option.h"
#include "cli/method_options.h"
#include "cli/output_options.h"
#include "cli/statistics_options.h"
#include "cli/video_options.h"
#include "cluster/shard.h"
#include "eval/benchmark.h"
#include "eval/report.h"
#include "eval/results_file.h"
#include "eval/results_merge.h"
#include "eval/runner.h"
#include "models/backbone.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace once::cli {
namespace {

// The summaries' bootstrap (the same for `eval` and `eval report`, so their CIs agree).
constexpr std::int64_t kDefaultBootstrap = 1000;
constexpr std::uint64_t kDefaultBootstrapSeed = 20260811;

void declareRun(ArgParser& p) {
    p.option("benchmark", "NAME", "mvbench, egoschema, videomme or longvideobench")
        .option("annotations", "PATH", "annotation file or folder (see docs/evaluation.md)")
        .option("videos", "DIR", "folder with the benchmark's videos")
        .option("model", "DIR|ORG/NAME",
                "Hugging Face folder of the backbone (LLaVA-OneVision, Qwen3.5), or its "
                "repository in the hub cache (HF_HUB_CACHE)")
        .option("methods", "LIST", "compressors of the registry, comma-separated", "once")
        .option("param", "METHOD.KEY=VALUE", "compressor parameter (repeatable)")
        .option("budgets", "LIST", "visual token budgets, comma-separated",
                "32,64,128,256,512,1024")
        .integerListIn(1, kMaxIntOption)
        .flag("no-dense", "skip the dense (uncompressed) reference")
        .option("codebook", "FILE", "codebook for methods that need one (once)")
        .option("limit", "N", "first N questions only")
        .integerIn(1, kMaxSeedOption)
        .option("seed", "S", "compressor seed", "42")
        .integerIn(0, kMaxSeedOption)
        .option("device", "DEV", "cpu, cuda or cuda:N", "cpu")
        .option("output", "FILE", "results JSONL (appended; finished lines are skipped)", {}, "-o")
        .flag("overwrite",
              "replace the output file instead of resuming it (it stays until the first new "
              "record is written)")
        .option("shard", "I/N|none",
                "answer only the questions of task I of N (0-based; the questions of the g-th "
                "video, in first-appearance order, are in shard g mod N), writing RESULTS and "
                "RESULTS.shard.json for `once eval merge`; default: "
                "SLURM_ARRAY_TASK_ID/COUNT or JOB_COMPLETION_INDEX/ONCE_SHARD_COUNT when set "
                "(docs/cluster.md), 'none' ignores them",
                std::string(""))
        .flag("json", "print a JSON summary instead of the table");
    declareBootstrap(p, "bootstrap resamples for the CIs of the summary", kDefaultBootstrap,
                     kDefaultBootstrapSeed);
    declareVideoModelOptions(p, true);
}

nlohmann::json summaryJson(const EvalSummary& s) {
    nlohmann::json acc = nlohmann::json::array(), eff = nlohmann::json::array();
    for (const auto& c : s.accuracy) {
        acc.push_back(
            {{"benchmark", c.benchmark},
             {"method", c.method},
             {"budget", c.budget == 0 ? nlohmann::json(nullptr) : nlohmann::json(c.budget)},
             {"task", c.task.empty() ? "overall" : c.task},
             {"questions", c.questions},
             {"correct", c.correct},
             {"accuracy_pct", c.accuracyPct.value},
             {"ci95", {c.accuracyPct.lo, c.accuracyPct.hi}}});
    }
    auto num = [](double v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); };
    for (const auto& e : s.efficiency) {
        eff.push_back(
            {{"benchmark", e.benchmark},
             {"method", e.method},
             {"budget", e.budget == 0 ? nlohmann::json(nullptr) : nlohmann::json(e.budget)},
             {"questions", e.questions},
             {"visual_tokens", e.visualTokens},
             {"prefill_flops", e.prefillFlops},
             {"prefill_seconds", e.prefillSeconds},
             {"e2e_seconds", e.e2eSeconds},
             {"token_reduction_pct", num(e.tokenReductionPct)},
             {"flops_reduction_pct", num(e.flopsReductionPct)},
             {"speedup", num(e.speedup)}});
    }
    return {{"accuracy", acc}, {"efficiency", eff}};
}

int runEval(const ArgParser& a) {
    for (const char* req : {"benchmark", "annotations", "videos", "model", "output"}) {
        if (!a.has(req)) {
            throw UsageError(std::string("--") + req + " is required");
        }
    }
    EvalOptions o;
    const DtypeChoice dtype = dtypeFrom(a);
    std::string samplingNotice;
    o.session = sessionOptionsFrom(a, &samplingNotice);
    printNotices({samplingNotice});
    o.dense = !a.flagSet("no-dense");
    o.limit = a.has("limit") ? a.getInt("limit") : -1;
    o.seed = std::uint64_t(a.getInt("seed"));
    o.output = a.get("output");
    o.overwrite = a.flagSet("overwrite");
    const std::vector<std::string> methods = splitList(a.get("methods"));
    auto params = methodParams(a.getAll("param"), methods);
    for (const auto& m : methods) {
        o.methods.push_back({m, params[m]});
    }
    o.budgets = a.getIntList("budgets");
    const bool json = a.flagSet("json");
    Benchmark bench = loadBenchmark(a.get("benchmark"), a.get("annotations"), a.get("videos"));
    const ShardSpec shard = resolveShard(a.get("shard"));
    if (shard.sharded()) {
        // --limit cuts the benchmark before it is split, so the shards of `--limit N` are the
        // N questions a single run answers. The jobs are the runner's, in its order.
        if (o.limit >= 0 && std::int64_t(bench.questions.size()) > o.limit) {
            bench.questions.resize(std::size_t(o.limit));
        }
        o.limit = -1;
        std::vector<EvalShardJob> jobs;
        if (o.dense) {
            jobs.push_back({"dense", {}, 0, 0});
        }
        for (const auto& m : o.methods) {
            for (std::int64_t budget : o.budgets) {
                jobs.push_back({m.method, m.params, budget, o.seed});
            }
        }
        std::vector<EvalQuestion> owned;
        const EvalShardPlan plan =
            planEvalShard(bench.name, bench.questions, jobs, evalConfig(o.session), shard, &owned);
        writeOrCheckEvalShardPlan(plan, o.output);
        bench.questions = std::move(owned);
        std::cerr << "evaluation shard " << shard.text() << " (from " << shard.origin
                  << "): " << bench.questions.size() << " of " << plan.questionsTotal
                  << " questions\n";
    }
    Progress progress = terminalProgress(json);
    EvalRunSummary run = runEvaluation(bench, o, &progress);
    EvalSummary s = summarizeResults(readResults(o.output), a.getInt("bootstrap"),
                                     std::uint64_t(a.getInt("bootstrap-seed")));
    if (json) {
        nlohmann::json j = summaryJson(s);
        j["run"] = {{"questions", run.questions},
                    {"written", run.written},
                    {"skipped", run.skipped},
                    {"output", o.output}};
        j["dtype"] = dtypeJson(dtype);
        printJson(j);
        return 0;
    }
    std::cerr << run.written << " record(s) written, " << run.skipped << " already present, in "
              << o.output << "\n";
    std::cout << accuracyTableText(s);
    return 0;
}

void declareReport(ArgParser& p) {
    p.positional("RESULTS", "results JSONL file(s) of `once eval`", true, true)
        .option("csv", "PREFIX", "write PREFIX_accuracy.csv and PREFIX_efficiency.csv")
        .flag("tasks", "also print per-task accuracy")
        .flag("json", "print JSON");
    declareBootstrap(p, "bootstrap resamples (0: none)", kDefaultBootstrap,
                     kDefaultBootstrapSeed);
    declareOverwrite(p);
}

int runReport(const ArgParser& a) {
    std::vector<EvalRecord> all;
    for (const auto& path : a.getAll("RESULTS")) {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(path, ec)) {
            fail("results file not found", path, "RESULTS", "a file written by `once eval`",
                 std::filesystem::exists(path, ec) ? "not a regular file" : "missing");
        }
        auto r = readResults(path);
        all.insert(all.end(), r.begin(), r.end());
    }
    EvalSummary s =
        summarizeResults(all, a.getInt("bootstrap"), std::uint64_t(a.getInt("bootstrap-seed")));
    if (a.has("csv")) {
        const std::string prefix = a.get("csv");
        const OutputReplace replace = replaceFrom(a);
        for (const char* suffix : {"_accuracy.csv", "_efficiency.csv"}) {
            checkOutputPath(prefix + suffix, replace, "csv");  // both before either is written
        }
        for (const auto& [suffix, text] :
             {std::pair{std::string("_accuracy.csv"), accuracyCsv(s)},
              std::pair{std::string("_efficiency.csv"), efficiencyCsv(s)}}) {
            // Whole or not at all: a failed write leaves an older CSV as it was.
            writeFileAtomically(prefix + suffix, text, replace);
        }
    }
    if (a.flagSet("json")) {
        printJson(summaryJson(s));
        return 0;
    }
    std::cout << "Accuracy (%) with 95% bootstrap CIs\n" << accuracyTableText(s) << "\n";
    if (a.flagSet("tasks")) {
        for (const auto& b : s.benchmarks) {
            std::cout << perTaskTableText(s, b) << "\n";
        }
    }
    std::cout << "Efficiency (means per question; relative columns vs dense)\n"
              << efficiencyTableText(s);
    return 0;
}

void declareMerge(ArgParser& p) {
    p.positional("SHARD", "results file of each task (`once eval --shard I/N`)", true, true)
        .option("output", "FILE", "merged results JSONL", std::nullopt, "-o")
        .flag("overwrite", "replace an existing output file")
        .flag("json", "print a JSON summary");
}

int runMerge(const ArgParser& a) {
    const EvalMergeSummary s =
        mergeEvalResults(a.getAll("SHARD"), a.get("output"), a.flagSet("overwrite"));
    if (a.flagSet("json")) {
        printJson({{"output", a.get("output")},
                   {"shards", s.shards},
                   {"questions", s.questions},
                   {"records", s.records}});
    } else {
        std::cout << "merged " << s.shards << " shard(s): " << s.records << " record(s) of "
                  << s.questions << " question(s) -> " << a.get("output") << "\n";
    }
    return 0;
}

const CommandRegistrar regRun{{"eval",
                               "evaluate compressors on MVBench / EgoSchema / Video-MME / "
                               "LongVideoBench (resumable JSONL)",
                               declareRun, runEval}};
const CommandRegistrar regReport{{"eval report",
                                  "accuracy and efficiency tables of eval results (text, CSV)",
                                  declareReport, runReport}};
const CommandRegistrar regMerge{{"eval merge",
                                 "merge the results files of a sharded `once eval` run "
                                 "(single-process order)",
                                 declareMerge, runMerge}};

}  // namespace
}  // namespace once::cli
