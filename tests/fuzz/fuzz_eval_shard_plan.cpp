// fuzz-sources: core/eval/results_merge.cpp core/eval/eval_record.cpp core/eval/results_file.cpp
// fuzz-sources: core/cluster/shard.cpp core/util/json_file.cpp core/util/atomic_file.cpp
// fuzz-sources: core/util/error.cpp core/util/regular_file.cpp
// libFuzzer target for the plan `once eval --shard I/N` writes beside its results
// (RESULTS.shard.json, eval/results_merge.h), which `once eval merge` and a rerun of the task
// read back: any byte string must either parse into a plan whose shard, jobs and questions are
// consistent, or throw OnceError. A parsed plan must survive its own round trip (toJson, parse
// again) to the same value. Crashes, other exceptions and sanitizer reports are bugs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "eval/results_merge.h"
#include "util/error.h"

namespace {

void check(const once::EvalShardPlan& p) {
    if (p.shard.count < 2 || p.shard.count > once::kMaxShardCount || p.shard.index < 0 ||
        p.shard.index >= p.shard.count || p.jobs.empty() || p.questionsTotal < 0 ||
        p.videosTotal < 0) {
        std::abort();
    }
    std::int64_t last = -1;
    std::set<std::string> ids;  // records are keyed by id: one position each
    for (const auto& q : p.questions) {
        if (!ids.insert(q.id).second) {
            std::abort();
        }
        // Owned questions in strictly increasing position, inside the benchmark, of this
        // shard's videos.
        if (q.position <= last || q.position >= p.questionsTotal || q.video < 0 ||
            q.video >= p.videosTotal || !p.shard.owns(q.video)) {
            std::abort();
        }
        last = q.position;
    }
    for (const auto& j : p.jobs) {
        if (j.budget < 0) {
            std::abort();
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    once::EvalShardPlan p;
    try {
        p = once::EvalShardPlan::parse({reinterpret_cast<const char*>(data), size}, "fuzz");
    } catch (const once::OnceError&) {
        return 0;
    }
    check(p);
    try {
        const auto again = once::EvalShardPlan::parse(p.toJson().dump(1), "fuzz-roundtrip");
        if (again.toJson() != p.toJson()) {
            std::abort();
        }
    } catch (const once::OnceError&) {
        std::abort();  // what the tool writes it must read back
    }
    return 0;
}
