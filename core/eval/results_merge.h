#pragma once
// `once eval --shard I/N` and `once eval merge`: one benchmark evaluated by the tasks of a
// cluster array job, merged into the results file one process writes.
//
// Partition: by video, so that every video is decoded and encoded by exactly one task and the
// records' `reused_encoding` flags are those of a single run. The benchmark's questions (after
// --limit) are grouped by video in first-appearance order (the runner's order); video g belongs
// to task g mod N (cluster/shard.h). Each task writes its records to its own results file and,
// beside it, RESULTS.shard.json: the plan of the run (benchmark, configuration, the ordered
// method × budget jobs, totals) and the questions it owns with their global positions.
//
// Merge: every plan must describe the same run (the first differing field is named) and the
// shards 0..N-1 must each be present once; every owned question must have a record for every job
// and no record may be of a question or job outside its shard. The merged file holds the
// records in the single-process order: videos in first-appearance order, then questions, then
// jobs. Records are copied unchanged (timings included: they are measured, not recomputed).
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cluster/shard.h"
#include "eval/benchmark.h"

namespace once {

constexpr const char* kEvalShardPlanFormat = "once-eval-shard/1";
/// Largest plan file read (256 MiB: millions of questions).
constexpr std::size_t kMaxEvalShardPlanBytes = std::size_t(256) << 20;

struct EvalShardJob {
    std::string method;  ///< "dense" or a registry name
    std::map<std::string, std::string> params;
    std::int64_t budget = 0;  ///< 0 for dense
    std::uint64_t seed = 0;   ///< as stored in the records (0 for dense)
};

struct EvalShardQuestion {
    std::string id;
    std::int64_t position = 0;  ///< in the benchmark's question order (after --limit)
    std::int64_t video = 0;     ///< first-appearance index of its video
};

struct EvalShardPlan {
    ShardSpec shard;
    std::string benchmark, config;
    std::vector<EvalShardJob> jobs;
    std::int64_t questionsTotal = 0, videosTotal = 0;
    std::vector<EvalShardQuestion> questions;  ///< owned, in position order

    nlohmann::json toJson() const;
    /// Throws OnceError naming `file` and the field on any malformed or inconsistent entry.
    static EvalShardPlan parse(std::string_view bytes, const std::string& file);
};

/// RESULTS.shard.json
std::string evalShardPlanPath(const std::string& resultsPath);

/// The plan of task `shard` for `questions` (already cut by --limit), and those questions it
/// owns, in order.
EvalShardPlan planEvalShard(const std::string& benchmark,
                            const std::vector<EvalQuestion>& questions,
                            const std::vector<EvalShardJob>& jobs, const std::string& config,
                            const ShardSpec& shard, std::vector<EvalQuestion>* owned);

/// Writes the plan beside `resultsPath`, or checks that the one there (from an earlier run of
/// the task) is the same; refuses another one naming the first differing field, unless the
/// results file holds no record yet (then the plan is replaced).
void writeOrCheckEvalShardPlan(const EvalShardPlan& plan, const std::string& resultsPath);

struct EvalMergeSummary {
    std::int64_t shards = 0, questions = 0, records = 0;
};

/// Merges the results files of every task (each with its .shard.json) into `output` (written
/// atomically; an existing file is refused unless `overwrite`).
EvalMergeSummary mergeEvalResults(const std::vector<std::string>& shardResults,
                                  const std::string& output, bool overwrite = false);

}  // namespace once
