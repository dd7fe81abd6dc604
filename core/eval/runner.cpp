#include "eval/runner.h"

#include <filesystem>
#include <set>

#include "compress/token_compressor.h"
#include "eval/results_file.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace once {
namespace {

struct Job {
    std::string method;  ///< "dense" or a registry name
    std::map<std::string, std::string> params;
    std::int64_t budget = 0;
};

EvalRecord skeleton(const Benchmark& b, const EvalQuestion& q, const Job& j, std::uint64_t seed,
                    const std::string& config) {
    EvalRecord r =
        questionRecord(b.name, q, j.method, j.params, j.budget, j.method == "dense" ? 0 : seed);
    r.config = config;
    return r;
}

}  // namespace

std::string evalConfig(const SessionOptions& s) {
    std::string c = "model=" + s.modelDir + ";sampling=" + s.sampling +
                    ";pool_stride=" + std::to_string(s.poolStride) + ";dtype=" + s.dtype +
                    ";device=" + s.device;
    // Choices that change the answers; named only when not the default, so the records of
    // runs made before they existed stay comparable.
    if (!s.positions.empty() && s.positions != "first") {
        c += ";positions=" + s.positions;
    }
    if (!s.promptFormat.empty() && s.promptFormat != "auto") {
        c += ";prompt_format=" + s.promptFormat;
    }
    return c;
}

EvalRunSummary runEvaluation(const Benchmark& b, const EvalOptions& given, Progress* progress) {
    EvalOptions o = given;
    if (o.session.sampling.empty()) {
        // The backbone's sampling is part of the configuration every record names.
        o.session = resolveSessionOptions(o.session);
    }
    if (o.output.empty()) {
        fail("no results file given", {}, "output", "-o RESULTS.jsonl", "none");
    }
    std::vector<Job> jobs;
    if (o.dense) {
        jobs.push_back({"dense", {}, 0});
    }
    for (const auto& m : o.methods) {
        // Unknown methods and parameters fail here, before the model is loaded.
        const CompressorInfo& info = compressorInfo(m.method);
        for (const auto& [k, v] : m.params) {
            if (!info.defaults.count(k)) {
                fail("unknown parameter for method '" + m.method + "'", {}, k,
                     "a parameter of " + m.method, k + "=" + v);
            }
        }
        if (info.needsCodebook && o.session.codebook.empty()) {
            fail("method '" + m.method + "' needs a codebook", {}, "codebook", "--codebook FILE",
                 "none");
        }
        for (std::int64_t budget : o.budgets) {
            if (budget < 1) {
                fail("budget out of range", {}, "budgets", ">= 1", std::to_string(budget));
            }
            jobs.push_back({m.method, m.params, budget});
        }
    }
    if (jobs.empty()) {
        fail("nothing to evaluate", {}, "methods", "--methods with --budgets, or dense", "none");
    }

    std::vector<const EvalQuestion*> questions;
    for (const auto& q : b.questions) {
        if (o.limit >= 0 && std::int64_t(questions.size()) >= o.limit) {
            break;
        }
        questions.push_back(&q);
    }
    const std::string config = evalConfig(o.session);
    std::set<std::string> done;
    // A folder, or (without --overwrite) a symlink or special file: refused before any work.
    checkOutputPath(o.output, outputReplace(o.overwrite));
    if (!o.overwrite) {
        for (const auto& r : checkResultsFile(o.output).records) {
            if (r.config != config) {
                fail(
                    "the results file was written under another configuration; use another "
                    "output or --overwrite",
                    o.output, "config", config, r.config);
            }
            done.insert(r.key());
        }
    }
    // Work grouped by video in first-appearance order, so each video is encoded once.
    std::vector<std::string> videoOrder;
    std::map<std::string, std::vector<std::pair<const EvalQuestion*, Job>>> todo;
    EvalRunSummary sum;
    sum.questions = std::int64_t(questions.size());
    for (const auto* q : questions) {
        for (const auto& j : jobs) {
            if (done.count(skeleton(b, *q, j, o.seed, config).key())) {
                ++sum.skipped;
                continue;
            }
            if (!todo.count(q->videoPath)) {
                videoOrder.push_back(q->videoPath);
            }
            todo[q->videoPath].push_back({q, j});
        }
    }
    if (videoOrder.empty()) {
        return sum;
    }
    for (const auto& v : videoOrder) {
        std::error_code ec;
        if (!std::filesystem::exists(v, ec)) {
            fail("video of the benchmark not found", v, "videos", "the file under --videos",
                 "missing (question " + todo[v].front().first->id + ")");
        }
    }
    std::int64_t total = 0;
    for (const auto& [v, list] : todo) {
        total += std::int64_t(list.size());
    }
    ResultsWriter writer(o.output, o.overwrite);  // opens nothing before the first record
    Session session(o.session);
    if (progress) {
        progress->begin("evaluating " + b.name, double(total));
    }
    std::int64_t n = 0;
    for (const auto& v : videoOrder) {
        session.loadVideo(v, progress);
        std::map<std::string, double> load;
        for (const auto& st : session.loadStages()) {
            load[st.name] += st.seconds;
        }
        bool reused = false;
        for (const auto& [q, j] : todo[v]) {
            if (progress) {
                progress->throwIfCancelled();
            }
            AskOptions ao;
            if (j.method != "dense") {
                ao.budget = j.budget;
                ao.method = j.method;
                ao.params = j.params;
            }
            ao.seed = o.seed;
            ao.maxNewTokens = b.maxNewTokens;
            AskReport rep = session.ask(q->prompt, ao, progress);
            EvalRecord r = skeleton(b, *q, j, o.seed, config);
            r.prediction = rep.answer;
            r.parsed = b.parse(rep.answer, *q);
            r.correct = r.parsed == r.answer;
            r.contentTokens = rep.contentTokens;
            r.layoutTokens = rep.layoutTokens;
            r.sourceTokens = rep.sourceTokens;
            r.promptTokens = rep.promptTokens;
            r.prefillFlops = rep.prefillFlops;
            r.seconds = load;
            double e2e = 0;
            for (const auto& [name, s] : load) {
                e2e += s;
            }
            for (const auto& st : rep.stages) {
                if (st.name == "compress" || st.name == "prefill" || st.name == "generate") {
                    r.seconds[st.name] = st.seconds;
                    e2e += st.seconds;
                }
            }
            r.seconds["e2e"] = e2e;
            r.reusedEncoding = reused;
            reused = true;
            writer.append(r);
            ++sum.written;
            if (o.onRecord) {
                o.onRecord(r);
            }
            if (progress) {
                progress->update(double(++n), q->id);
            }
        }
    }
    return sum;
}

}  // namespace once
