#include "eval/efficiency_bench.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numeric>
#include <set>

#include "compress/token_compressor.h"
#include "eval/report.h"
#include "eval/results_file.h"
#include "util/device.h"
#include "util/error.h"

namespace once {
namespace {

namespace fs = std::filesystem;

/// The folder a file is to be written in exists, and the file is not a folder.
void checkWritable(const std::string& path, const std::string& field) {
    std::error_code ec;
    const fs::path p(path);
    const fs::path parent = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::is_directory(parent, ec)) {
        fail("the folder to write into does not exist", path, field, "an existing folder",
             parent.string());
    }
    if (fs::is_directory(p, ec)) {
        fail("the output names a folder", path, field, "a file name", "a folder");
    }
}

/// The stage `name` of this question (the last one of that name: load stages come first).
const StageReport& stageOf(const AskReport& r, const std::string& name) {
    for (auto it = r.stages.rbegin(); it != r.stages.rend(); ++it) {
        if (it->name == name) {
            return *it;
        }
    }
    fail("the session reported no '" + name + "' stage", {}, "stages", name, "none");
}

struct Sample {
    double compress = 0, prefill = 0, decode = 0, e2e = 0;
};

/// What one method × budget collects over videos and repetitions.
struct Cell {
    EfficiencyBenchRow row;
    std::vector<Sample> samples;
    double prepareSum = 0, visualSum = 0, contentSum = 0, sourceSum = 0, flopsSum = 0;
    int videos = 0;
};

double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) {
        s += x;
    }
    return v.empty() ? 0 : s / double(v.size());
}

double sd(const std::vector<double>& v) {
    if (v.size() < 2) {
        return 0;
    }
    const double m = mean(v);
    double s = 0;
    for (double x : v) {
        s += (x - m) * (x - m);
    }
    return std::sqrt(s / double(v.size() - 1));
}

void finish(Cell& c) {
    EfficiencyBenchRow& r = c.row;
    std::vector<double> compress, prefill, decode, e2e;
    for (const Sample& s : c.samples) {
        compress.push_back(s.compress * 1e3);
        prefill.push_back(s.prefill * 1e3);
        decode.push_back(s.decode * 1e3);
        e2e.push_back(s.e2e * 1e3);
    }
    const double videos = std::max(1, c.videos);
    r.samples = std::int64_t(c.samples.size());
    r.prepareMs = c.prepareSum * 1e3 / videos;
    r.visualTokens = c.visualSum / videos;
    r.contentTokens = c.contentSum / videos;
    r.sourceTokens = c.sourceSum / videos;
    r.prefillFlops = c.flopsSum / videos;
    r.compressMs = mean(compress);
    r.compressionMs = r.prepareMs + r.compressMs;
    r.prefillMs = mean(prefill);
    r.prefillMsSd = sd(prefill);
    r.ttftMs = r.compressionMs + r.prefillMs;
    r.decodeMs = mean(decode);
    r.decodeTokensPerS =
        r.newTokens > 1 && r.decodeMs > 0 ? double(r.newTokens - 1) / (r.decodeMs / 1e3) : 0;
    r.e2eMs = mean(e2e);
    r.e2eMsSd = sd(e2e);
    r.e2eMsMin = *std::min_element(e2e.begin(), e2e.end());
    r.e2eMsMax = *std::max_element(e2e.begin(), e2e.end());
}

/// Overall accuracy per benchmark of `once eval` results, by method label and budget.
std::map<std::pair<std::string, std::int64_t>, std::map<std::string, double>> accuracyOf(
    const std::string& path) {
    std::map<std::pair<std::string, std::int64_t>, std::map<std::string, double>> out;
    const EvalSummary s = summarizeResults(readResults(path), 0);
    for (const AccuracyCell& c : s.accuracy) {
        if (c.task.empty()) {
            out[{c.method, c.budget}][c.benchmark] = c.accuracyPct.value;
        }
    }
    return out;
}

std::string methodLabel(const EfficiencyBenchMethod& m) {
    EvalRecord r;
    r.method = m.name;
    r.params = m.params;
    return r.methodLabel();
}

}  // namespace

void checkEfficiencyBenchOptions(const EfficiencyBenchOptions& o) {
    std::error_code ec;
    if (o.videos.empty() && o.featureFiles.empty()) {
        fail("no video to measure", {}, "VIDEO",
             "at least one video file, frame folder or feature "
             "file",
             "none");
    }
    for (const std::string& v : o.videos) {
        if (!fs::is_regular_file(v, ec) && !fs::is_directory(v, ec)) {
            fail("video not found", v, "VIDEO", "a video file or frame folder", "missing");
        }
    }
    for (const std::string& f : o.featureFiles) {
        if (!fs::is_regular_file(f, ec)) {
            fail("feature file not found", f, "features", "a feature file of `once encode`",
                 "missing");
        }
    }
    if (o.methods.empty()) {
        fail("no method to measure", {}, "methods", "dense and/or compressors", "none");
    }
    std::set<std::string> seen;
    bool compressing = false;
    for (const EfficiencyBenchMethod& m : o.methods) {
        if (!seen.insert(methodLabel(m)).second) {
            fail("a method is listed twice", {}, "methods", "each method once", m.name);
        }
        if (m.name == "dense") {
            if (!m.params.empty()) {
                fail("dense takes no parameters", {}, "param", "none", m.params.begin()->first);
            }
            continue;
        }
        compressing = true;
        const CompressorInfo& info = compressorInfo(m.name);  // names the known ones
        if (info.needsCodebook) {
            if (o.session.codebook.empty()) {
                fail("method '" + m.name + "' needs a codebook", {}, "codebook", "--codebook FILE",
                     "none");
            }
            for (const auto& [k, v] : m.params) {
                if (!info.defaults.count(k)) {
                    fail("method '" + m.name + "' has no parameter '" + k + "'", {}, k);
                }
            }
        } else {
            (void)makeCompressor({m.name, m.params, nullptr, {}, nullptr});  // checks keys and values
        }
    }
    if (compressing && o.budgets.empty()) {
        fail("no budget for the compressing methods", {}, "budgets", "at least one budget", "none");
    }
    for (std::int64_t b : o.budgets) {
        if (b < 1) {
            fail("the token budget must be at least 1", {}, "budgets", ">= 1", std::to_string(b));
        }
    }
    if (std::set<std::int64_t>(o.budgets.begin(), o.budgets.end()).size() != o.budgets.size()) {
        fail("a budget is listed twice", {}, "budgets", "each budget once", "a repeat");
    }
    if (o.reps < 1 || o.warmup < 0 || o.newTokens < 1) {
        fail("repetitions, warm-up runs or new tokens out of range", {}, "reps/warmup/new-tokens",
             "reps >= 1, warmup >= 0, new tokens >= 1",
             std::to_string(o.reps) + ", " + std::to_string(o.warmup) + ", " +
                 std::to_string(o.newTokens));
    }
    if (!o.session.codebook.empty() && !fs::is_regular_file(o.session.codebook, ec)) {
        fail("codebook not found", o.session.codebook, "codebook", "a codebook file", "missing");
    }
    if (!o.accuracyResults.empty() && !fs::is_regular_file(o.accuracyResults, ec)) {
        fail("accuracy results not found", o.accuracyResults, "accuracy",
             "a results file of `once eval`", "missing");
    }
    if (!o.output.empty()) {
        checkWritable(o.output, "output");
        checkOutputPath(o.output, o.replace, "output");
    }
    if (!o.csvPrefix.empty()) {
        for (const char* suffix : {"_rows.csv", "_videos.csv"}) {
            checkWritable(o.csvPrefix + suffix, "csv");
            checkOutputPath(o.csvPrefix + suffix, o.replace, "csv");
        }
    }
    (void)resolveAnswerSessionOptions(o.session);  // the model folder's config.json, or its error
}

EfficiencyBench runEfficiencyBench(const EfficiencyBenchOptions& o, Progress* progress) {
    checkEfficiencyBenchOptions(o);
    const auto accuracy = o.accuracyResults.empty() ? decltype(accuracyOf(o.accuracyResults)){}
                                                    : accuracyOf(o.accuracyResults);
    AnswerSession session(o.session);
    session.checkCodebook();
    const AnswerSessionOptions& so = session.options();

    EfficiencyBench bench;
    bench.machine = describeMachine(resolveDevice(so.device));
    bench.settings = {{"model", so.modelDir},
                      {"backbone", so.backbone},
                      {"device", so.device},
                      {"dtype", so.dtype},
                      {"sampling", so.sampling},
                      {"pool_stride", std::to_string(so.poolStride)},
                      {"prompt_format", so.promptFormat},
                      {"positions", so.positions},
                      {"codebook", so.codebook},
                      {"question", o.question},
                      {"seed", std::to_string(o.seed)},
                      {"new_tokens", std::to_string(o.newTokens)},
                      {"reps", std::to_string(o.reps)},
                      {"warmup", std::to_string(o.warmup)}};
    // One cell per method × budget, Dense first.
    std::vector<Cell> cells;
    std::vector<std::size_t> order(o.methods.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_partition(order.begin(), order.end(),
                          [&](std::size_t i) { return o.methods[i].name == "dense"; });
    std::vector<std::pair<const EfficiencyBenchMethod*, std::int64_t>> jobs;
    for (std::size_t i : order) {
        const EfficiencyBenchMethod& m = o.methods[i];
        for (std::int64_t b : m.name == "dense" ? std::vector<std::int64_t>{0} : o.budgets) {
            jobs.emplace_back(&m, b);
            Cell c;
            c.row.method = methodLabel(m);
            c.row.budget = b;
            c.row.newTokens = o.newTokens;
            if (auto it = accuracy.find({c.row.method, b}); it != accuracy.end()) {
                c.row.accuracyPct = it->second;
            }
            cells.push_back(std::move(c));
        }
    }
    const int runs = o.warmup + o.reps;
    std::vector<std::pair<std::string, bool>> inputs;  // path, is a feature file
    for (const std::string& v : o.videos) {
        inputs.emplace_back(v, false);
    }
    for (const std::string& f : o.featureFiles) {
        inputs.emplace_back(f, true);
    }
    if (progress) {
        progress->begin("benchmark", double(inputs.size() * jobs.size() * std::size_t(runs)));
    }
    double done = 0;
    for (const auto& [path, featureFile] : inputs) {
        if (featureFile) {
            session.loadFeatures(path);
        } else {
            session.loadVideo(path, progress);
        }
        EfficiencyBenchVideo video;
        video.path = path;
        video.featureFile = featureFile;
        video.frames = session.video().features.size(0);
        video.sourceTokens = session.video().numTokens();
        for (const StageReport& s : session.loadStages()) {
            (s.name == "decode" ? video.decodeMs : video.encodeMs) += s.seconds * 1e3;
        }
        bench.videos.push_back(video);
        std::map<std::string, double> prepared;  // method label → its prepare() on this video
        for (std::size_t j = 0; j < jobs.size(); ++j) {
            const auto& [method, budget] = jobs[j];
            Cell& cell = cells[j];
            AskOptions ao;
            if (method->name != "dense") {
                ao.budget = budget;
                ao.method = method->name;
                ao.params = method->params;
            }
            ao.seed = o.seed;
            ao.maxNewTokens = o.newTokens;
            ao.stopAtStopTokens = false;
            for (int run = 0; run < runs; ++run) {
                const AskReport r = session.ask(o.question, ao, progress);
                prepared[cell.row.method] += r.prepareSeconds;
                const StageReport &c = stageOf(r, "compress"), &p = stageOf(r, "prefill"),
                                  &g = stageOf(r, "generate");
                if (run >= o.warmup) {
                    Sample s;
                    s.compress = std::max(0.0, c.seconds - r.prepareSeconds);
                    s.prefill = p.seconds;
                    s.decode = g.seconds;
                    s.e2e = prepared[cell.row.method] + s.compress + s.prefill + s.decode;
                    cell.samples.push_back(s);
                    for (const StageReport* st : {&c, &p, &g}) {
                        cell.row.peakRssBytes = std::max(cell.row.peakRssBytes, st->peakRssBytes);
                        cell.row.cudaPeakReservedBytes =
                            std::max(cell.row.cudaPeakReservedBytes, st->devicePeakReservedBytes);
                        cell.row.cudaPeakAllocatedBytes =
                            std::max(cell.row.cudaPeakAllocatedBytes, st->devicePeakAllocatedBytes);
                    }
                }
                if (run == runs - 1) {
                    cell.visualSum += double(r.contentTokens + r.layoutTokens);
                    cell.contentSum += double(r.contentTokens);
                    cell.sourceSum += double(r.sourceTokens);
                    cell.flopsSum += r.prefillFlops;
                    ++cell.videos;
                }
                if (progress) {
                    progress->update(
                        ++done, cell.row.method + (budget ? " B=" + std::to_string(budget) : ""));
                }
            }
        }
        for (Cell& cell : cells) {
            cell.prepareSum += prepared[cell.row.method];
        }
    }
    for (Cell& c : cells) {
        finish(c);
    }
    const Cell* dense = nullptr;
    for (const Cell& c : cells) {
        if (c.row.method == "dense") {
            dense = &c;
        }
    }
    for (Cell& c : cells) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        c.row.e2eSpeedup = dense ? dense->row.e2eMs / c.row.e2eMs : nan;
        c.row.prefillSpeedup = dense ? dense->row.prefillMs / c.row.prefillMs : nan;
        bench.rows.push_back(c.row);
    }
    return bench;
}

}  // namespace once
