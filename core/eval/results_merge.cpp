#include "eval/results_merge.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "eval/eval_record.h"
#include "eval/results_file.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/json_file.h"

namespace fs = std::filesystem;

namespace once {

namespace {

std::string at(const std::string& array, std::size_t i) {
    return array + "[" + std::to_string(i) + "]";
}

std::string recordKey(const std::string& benchmark, const std::string& question,
                      const EvalShardJob& j) {
    EvalRecord r;
    r.benchmark = benchmark;
    r.questionId = question;
    r.method = j.method;
    r.params = j.params;
    r.budget = j.budget;
    r.seed = j.seed;
    return r.key();
}

nlohmann::json jobJson(const EvalShardJob& j) {
    return {{"method", j.method}, {"params", j.params}, {"budget", j.budget}, {"seed", j.seed}};
}

// The first field in which two plans of one run differ (the shard and its questions aside).
std::string firstDifference(const nlohmann::json& a, const nlohmann::json& b) {
    for (const char* key :
         {"format", "benchmark", "config", "jobs", "questions_total", "videos_total"}) {
        if (a.value(key, nlohmann::json()) != b.value(key, nlohmann::json())) {
            return key;
        }
    }
    if (a["shard"]["count"] != b["shard"]["count"]) {
        return "shard.count";
    }
    return {};
}

// The value of a field firstDifference names, as text for a message.
std::string fieldText(const nlohmann::json& plan, const std::string& field) {
    const nlohmann::json v =
        field == "shard.count" ? plan["shard"]["count"] : plan.value(field, nlohmann::json());
    return printableExcerpt(v.dump(), 200);
}

}  // namespace

std::string evalShardPlanPath(const std::string& resultsPath) {
    return resultsPath + ".shard.json";
}

nlohmann::json EvalShardPlan::toJson() const {
    nlohmann::json js = nlohmann::json::array(), qs = nlohmann::json::array();
    for (const auto& j : jobs) {
        js.push_back(jobJson(j));
    }
    for (const auto& q : questions) {
        qs.push_back({{"id", q.id}, {"position", q.position}, {"video", q.video}});
    }
    return {{"format", kEvalShardPlanFormat},
            {"shard", {{"index", shard.index}, {"count", shard.count}}},
            {"benchmark", benchmark},
            {"config", config},
            {"jobs", js},
            {"questions_total", questionsTotal},
            {"videos_total", videosTotal},
            {"questions", qs}};
}

EvalShardPlan EvalShardPlan::parse(std::string_view bytes, const std::string& file) {
    JsonLimits limits;
    limits.maxBytes = kMaxEvalShardPlanBytes;
    if (bytes.size() > kMaxEvalShardPlanBytes) {
        fail("the shard plan is too large", file, {},
             "at most " + std::to_string(kMaxEvalShardPlanBytes) + " bytes",
             std::to_string(bytes.size()) + " bytes");
    }
    const nlohmann::json j = parseJsonText(bytes, file, {}, limits);
    if (!j.is_object()) {
        fail("not a shard plan of `once eval --shard`", file, "(top level)", "a JSON object",
             jsonTypeName(j));
    }
    const std::string format = jsonToString(jsonRequire(j, "format", file, {}), file, "format");
    if (format != kEvalShardPlanFormat) {
        fail("not a shard plan of `once eval --shard`", file, "format", kEvalShardPlanFormat,
             printableExcerpt(format));
    }
    EvalShardPlan p;
    const nlohmann::json& sh = jsonRequire(j, "shard", file, {});
    p.shard.count =
        jsonToInt(jsonRequire(sh, "count", file, "shard"), file, "shard.count", 2, kMaxShardCount);
    p.shard.index = jsonToInt(jsonRequire(sh, "index", file, "shard"), file, "shard.index", 0,
                              p.shard.count - 1);
    p.shard.origin = file;
    p.benchmark = jsonToString(jsonRequire(j, "benchmark", file, {}), file, "benchmark");
    p.config = jsonToString(jsonRequire(j, "config", file, {}), file, "config");
    const std::int64_t big = std::int64_t(1) << 40;
    p.questionsTotal =
        jsonToInt(jsonRequire(j, "questions_total", file, {}), file, "questions_total", 0, big);
    p.videosTotal =
        jsonToInt(jsonRequire(j, "videos_total", file, {}), file, "videos_total", 0, big);
    const nlohmann::json& jobs = jsonRequire(j, "jobs", file, {});
    if (!jobs.is_array() || jobs.empty()) {
        fail("wrong JSON type", file, "jobs", "a non-empty array", jsonTypeName(jobs));
    }
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const std::string f = at("jobs", i);
        EvalShardJob job;
        job.method = jsonToString(jsonRequire(jobs[i], "method", file, f), file, f + ".method");
        const nlohmann::json& params = jsonRequire(jobs[i], "params", file, f);
        if (!params.is_object()) {
            fail("wrong JSON type", file, f + ".params", "an object", jsonTypeName(params));
        }
        for (auto& [k, v] : params.items()) {
            job.params[k] = jsonToString(v, file, f + ".params." + k);
        }
        job.budget =
            jsonToInt(jsonRequire(jobs[i], "budget", file, f), file, f + ".budget", 0, big);
        job.seed = std::uint64_t(
            jsonToInt(jsonRequire(jobs[i], "seed", file, f), file, f + ".seed", 0, INT64_MAX));
        p.jobs.push_back(std::move(job));
    }
    const nlohmann::json& qs = jsonRequire(j, "questions", file, {});
    if (!qs.is_array()) {
        fail("wrong JSON type", file, "questions", "an array", jsonTypeName(qs));
    }
    std::int64_t last = -1;
    std::map<std::string, std::int64_t> positionOf;  // records are keyed by id: one position each
    for (std::size_t i = 0; i < qs.size(); ++i) {
        const std::string f = at("questions", i);
        EvalShardQuestion q;
        q.id = jsonToString(jsonRequire(qs[i], "id", file, f), file, f + ".id");
        q.position = jsonToInt(jsonRequire(qs[i], "position", file, f), file, f + ".position",
                               last + 1, std::max<std::int64_t>(p.questionsTotal - 1, last + 1));
        if (q.position >= p.questionsTotal) {
            fail("a question position beyond the benchmark", file, f + ".position",
                 "< " + std::to_string(p.questionsTotal), std::to_string(q.position));
        }
        q.video = jsonToInt(jsonRequire(qs[i], "video", file, f), file, f + ".video", 0,
                            std::max<std::int64_t>(p.videosTotal - 1, 0));
        if (!p.shard.owns(q.video)) {
            fail("a question of a video another shard owns", file, f + ".video",
                 "a video v with v mod " + std::to_string(p.shard.count) + " = " +
                     std::to_string(p.shard.index),
                 std::to_string(q.video));
        }
        if (const auto [it, fresh] = positionOf.emplace(q.id, q.position); !fresh) {
            fail("a question id at two positions", file, f + ".id",
                 "each question id at one position",
                 printableExcerpt(q.id, 60) + " at positions " + std::to_string(it->second) +
                     " and " + std::to_string(q.position));
        }
        last = q.position;
        p.questions.push_back(std::move(q));
    }
    return p;
}

EvalShardPlan planEvalShard(const std::string& benchmark,
                            const std::vector<EvalQuestion>& questions,
                            const std::vector<EvalShardJob>& jobs, const std::string& config,
                            const ShardSpec& shard, std::vector<EvalQuestion>* owned) {
    EvalShardPlan p;
    p.shard = shard;
    p.benchmark = benchmark;
    p.config = config;
    p.jobs = jobs;
    p.questionsTotal = std::int64_t(questions.size());
    std::map<std::string, std::int64_t> videoIndex;  // first-appearance order, as the runner
    for (std::size_t i = 0; i < questions.size(); ++i) {
        const EvalQuestion& q = questions[i];
        auto [it, added] = videoIndex.emplace(q.videoPath, std::int64_t(videoIndex.size()));
        if (shard.owns(it->second)) {
            p.questions.push_back({q.id, std::int64_t(i), it->second});
            if (owned) {
                owned->push_back(q);
            }
        }
    }
    p.videosTotal = std::int64_t(videoIndex.size());
    return p;
}

void writeOrCheckEvalShardPlan(const EvalShardPlan& plan, const std::string& resultsPath) {
    const std::string path = evalShardPlanPath(resultsPath);
    const nlohmann::json mine = plan.toJson();
    std::error_code ec;
    if (fs::exists(fs::symlink_status(path, ec))) {
        const EvalShardPlan old =
            EvalShardPlan::parse(readFileLimited(path, kMaxEvalShardPlanBytes), path);
        const nlohmann::json theirs = old.toJson();
        // A plan whose run never wrote a record (it failed on its options before any work) is
        // replaced: no record depends on it.
        if (theirs != mine && !readResults(resultsPath).empty()) {
            std::string field = firstDifference(theirs, mine);
            if (field.empty()) {
                field = theirs["shard"] != mine["shard"] ? "shard" : "questions";
            }
            fail(
                "the results file belongs to another sharded run (other shard, options or "
                "questions); use another -o",
                path, field, fieldText(theirs, field), fieldText(mine, field));
        }
        if (theirs == mine) {
            return;
        }
    }
    if (fs::path(path).has_parent_path()) {
        fs::create_directories(fs::path(path).parent_path(), ec);
    }
    writeFileAtomically(path, mine.dump(1) + "\n");
}

EvalMergeSummary mergeEvalResults(const std::vector<std::string>& shardResults,
                                  const std::string& output, bool overwrite) {
    if (shardResults.empty()) {
        fail("no results file to merge", output, "shards", "the results file of every task",
             "none");
    }
    std::error_code ec;
    checkOutputPath(output, outputReplace(overwrite));
    if (fs::exists(fs::symlink_status(output, ec)) && !overwrite) {
        fail("the merged results file exists; choose another -o or pass --overwrite", output,
             "output", "a new file", "an existing file");
    }
    std::vector<EvalShardPlan> plans;
    std::vector<std::string> planPaths;
    for (const auto& r : shardResults) {
        const std::string path = evalShardPlanPath(r);
        if (!fs::exists(fs::symlink_status(path, ec))) {
            fail(
                "no shard plan beside the results file: it was not written by `once eval "
                "--shard`",
                path, "file", "the .shard.json of the task", "missing");
        }
        plans.push_back(EvalShardPlan::parse(readFileLimited(path, kMaxEvalShardPlanBytes), path));
        planPaths.push_back(path);
    }
    const nlohmann::json ref = plans.front().toJson();
    const std::int64_t n = plans.front().shard.count;
    std::vector<int> byIndex(std::size_t(n), -1);
    for (std::size_t k = 0; k < plans.size(); ++k) {
        const nlohmann::json mine = plans[k].toJson();
        if (const std::string field = firstDifference(ref, mine); !field.empty()) {
            fail("shard " + plans[k].shard.text() + " belongs to another run than shard " +
                     plans.front().shard.text() + " (" + planPaths.front() + ")",
                 planPaths[k], field, fieldText(ref, field), fieldText(mine, field));
        }
        int& slot = byIndex[std::size_t(plans[k].shard.index)];
        if (slot >= 0) {
            fail("the same shard was given twice (or two runs of it)", planPaths[k], "shard.index",
                 "each of 0.." + std::to_string(n - 1) + " once",
                 plans[k].shard.text() + ", also " + planPaths[std::size_t(slot)]);
        }
        slot = int(k);
    }
    for (std::int64_t i = 0; i < n; ++i) {
        if (byIndex[std::size_t(i)] < 0) {
            fail("shard " + std::to_string(i) + "/" + std::to_string(n) +
                     " is missing: pass the results file of every task of the run",
                 planPaths.front(), "shard.index", "all of 0.." + std::to_string(n - 1),
                 std::to_string(plans.size()) + " shard(s) given");
        }
    }
    // Every question exactly once over all shards.
    struct Item {
        std::int64_t video, position;
        std::size_t shard;
        const EvalShardQuestion* q;
    };
    std::vector<Item> items;
    for (std::size_t k = 0; k < plans.size(); ++k) {
        for (const auto& q : plans[k].questions) {
            items.push_back({q.video, q.position, k, &q});
        }
    }
    std::sort(items.begin(), items.end(),
              [](const Item& a, const Item& b) { return a.position < b.position; });
    const std::int64_t total = plans.front().questionsTotal;
    for (std::size_t i = 0; i < items.size() || std::int64_t(i) < total; ++i) {
        if (i >= items.size() || items[i].position != std::int64_t(i)) {
            const bool twice =
                i < items.size() && i > 0 && items[i].position == items[i - 1].position;
            fail(twice ? "two shards list the same question" : "no shard lists a question",
                 planPaths[twice ? items[i].shard : 0], "questions",
                 "question positions 0.." + std::to_string(total - 1) + " once each",
                 twice ? "position " + std::to_string(items[i].position) + " also in " +
                             planPaths[items[i - 1].shard]
                       : "position " + std::to_string(i) + " missing");
        }
    }
    // Records are keyed by question id: one id at two positions (in two shards' plans) would
    // merge one record twice and lose another.
    std::map<std::string, const Item*> byId;
    for (const Item& it : items) {
        if (const auto [other, fresh] = byId.emplace(it.q->id, &it); !fresh) {
            fail("a question id at two positions", planPaths[it.shard], "questions",
                 "each question id at one position",
                 printableExcerpt(it.q->id, 60) + " at position " +
                     std::to_string(other->second->position) + " (" +
                     planPaths[other->second->shard] + ") and " + std::to_string(it.position));
        }
    }
    // The single-process order: videos in first-appearance order, then questions.
    std::stable_sort(items.begin(), items.end(),
                     [](const Item& a, const Item& b) { return a.video < b.video; });
    // Each shard's records by key.
    const std::string& benchmark = plans.front().benchmark;
    const std::vector<EvalShardJob>& jobs = plans.front().jobs;
    std::vector<std::map<std::string, EvalRecord>> records(plans.size());
    for (std::size_t k = 0; k < plans.size(); ++k) {
        std::set<std::string> expected;
        for (const auto& q : plans[k].questions) {
            for (const auto& j : jobs) {
                expected.insert(recordKey(benchmark, q.id, j));
            }
        }
        int line = 0;
        for (auto& r : readResults(shardResults[k])) {
            ++line;
            const std::string key = r.key();
            if (r.config != plans[k].config) {
                fail("a record was written under another configuration than the shard's plan",
                     shardResults[k], "record " + std::to_string(line) + ".config", plans[k].config,
                     r.config);
            }
            if (!expected.count(key)) {
                fail("a record of a question or job that is not this shard's", shardResults[k],
                     "record " + std::to_string(line),
                     "questions of shard " + plans[k].shard.text() + " and the plan's jobs",
                     r.questionId + " " + r.methodLabel() + " budget " + std::to_string(r.budget));
            }
            if (!records[k].emplace(key, std::move(r)).second) {
                fail("a record appears twice", shardResults[k], "record " + std::to_string(line),
                     "one record per question, method and budget", "a repeat");
            }
        }
    }
    std::string text;
    EvalMergeSummary sum;
    sum.shards = n;
    for (const Item& it : items) {
        for (const auto& j : jobs) {
            auto& map = records[it.shard];
            auto found = map.find(recordKey(benchmark, it.q->id, j));
            if (found == map.end()) {
                fail("shard " + plans[it.shard].shard.text() +
                         " is unfinished: rerun its task (it resumes)",
                     shardResults[it.shard], "records",
                     "question " + it.q->id + " " + j.method +
                         (j.method == "dense" ? std::string()
                                              : " budget " + std::to_string(j.budget)),
                     "no record");
            }
            text += found->second.toJsonLine() + "\n";
            ++sum.records;
        }
        ++sum.questions;
    }
    if (fs::path(output).has_parent_path()) {
        fs::create_directories(fs::path(output).parent_path(), ec);
    }
    writeFileAtomically(output, text, outputReplace(overwrite));
    return sum;
}

}  // namespace once
