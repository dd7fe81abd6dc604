#include "cluster/shard.h"

#include <charconv>
#include <cstdlib>

#include "util/error.h"
#include "util/json_file.h"

namespace once {

namespace {

std::optional<std::int64_t> parseCount(const std::string& s) {
    std::int64_t v = 0;
    const char* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, v);
    if (s.empty() || ec != std::errc() || p != end) {
        return std::nullopt;
    }
    return v;
}

std::int64_t envInt(const EnvLookup& getenv, const std::string& name, std::int64_t lo,
                    std::int64_t hi) {
    const std::optional<std::string> v = getenv(name);
    if (!v) {
        fail("a cluster task variable is missing", "environment", name,
             "an integer in " + std::to_string(lo) + ".." + std::to_string(hi), "unset");
    }
    const auto n = parseCount(*v);
    if (!n || *n < lo || *n > hi) {
        fail("a cluster task variable is not a valid index or count", "environment", name,
             "an integer in " + std::to_string(lo) + ".." + std::to_string(hi),
             printableExcerpt(*v, 40));
    }
    return *n;
}

}  // namespace

std::string ShardSpec::text() const {
    return std::to_string(index) + "/" + std::to_string(count);
}

std::int64_t ShardSpec::ownedCount(std::int64_t total) const {
    return total <= index ? 0 : (total - index + count - 1) / count;
}

ShardSpec parseShard(const std::string& text, const std::string& field) {
    const auto slash = text.find('/');
    const std::string expected =
        "I/N with 0 <= I < N <= " + std::to_string(kMaxShardCount) + " (0-based, e.g. 0/4)";
    if (slash == std::string::npos) {
        fail("invalid shard", {}, field, expected, printableExcerpt(text, 40));
    }
    const auto i = parseCount(text.substr(0, slash));
    const auto n = parseCount(text.substr(slash + 1));
    if (!i || !n || *n < 1 || *n > kMaxShardCount || *i < 0 || *i >= *n) {
        fail("invalid shard", {}, field, expected, printableExcerpt(text, 40));
    }
    return {*i, *n, "--" + field};
}

std::optional<ShardSpec> shardFromEnvironment(const EnvLookup& getenv) {
    if (getenv("SLURM_ARRAY_TASK_ID")) {
        const std::int64_t count = envInt(getenv, "SLURM_ARRAY_TASK_COUNT", 1, kMaxShardCount);
        const std::int64_t big = std::int64_t(1) << 40;
        const std::int64_t lo =
            getenv("SLURM_ARRAY_TASK_MIN") ? envInt(getenv, "SLURM_ARRAY_TASK_MIN", 0, big) : 0;
        const std::int64_t id = envInt(getenv, "SLURM_ARRAY_TASK_ID", lo, big);
        if (getenv("SLURM_ARRAY_TASK_MAX")) {
            const std::int64_t hi = envInt(getenv, "SLURM_ARRAY_TASK_MAX", lo, big);
            // --array=0-9:2 or 1,3,7: the indices are not 0..N-1 after the shift, so some videos
            // would belong to no task.
            if (hi - lo + 1 != count) {
                fail(
                    "the Slurm array is not a contiguous range of task ids; submit it as "
                    "--array=0-(N-1) (a % throttle is fine) or pass --shard I/N",
                    "environment", "SLURM_ARRAY_TASK_COUNT",
                    std::to_string(hi - lo + 1) +
                        " (SLURM_ARRAY_TASK_MAX - SLURM_ARRAY_TASK_MIN + 1)",
                    std::to_string(count));
            }
        }
        if (id - lo >= count) {
            fail("the Slurm array task id is beyond the array", "environment",
                 "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN + 0.." + std::to_string(count - 1),
                 std::to_string(id));
        }
        return ShardSpec{id - lo, count, "SLURM_ARRAY_TASK_ID"};
    }
    if (getenv("JOB_COMPLETION_INDEX")) {
        if (!getenv("ONCE_SHARD_COUNT")) {
            fail(
                "a Kubernetes Indexed Job task needs the number of completions in "
                "ONCE_SHARD_COUNT (Kubernetes does not export it; set it to spec.completions)",
                "environment", "ONCE_SHARD_COUNT", "the Job's completions", "unset");
        }
        const std::int64_t count = envInt(getenv, "ONCE_SHARD_COUNT", 1, kMaxShardCount);
        const std::int64_t id = envInt(getenv, "JOB_COMPLETION_INDEX", 0, count - 1);
        return ShardSpec{id, count, "JOB_COMPLETION_INDEX"};
    }
    return std::nullopt;
}

EnvLookup processEnvironment() {
    return [](const std::string& name) -> std::optional<std::string> {
        const char* v = std::getenv(name.c_str());
        if (!v) {
            return std::nullopt;
        }
        return std::string(v);
    };
}

ShardSpec resolveShard(const std::string& option, const EnvLookup& getenv) {
    if (option == "none") {
        return {};
    }
    if (!option.empty()) {
        return parseShard(option);
    }
    if (auto s = shardFromEnvironment(getenv)) {
        return *s;
    }
    return {};
}

}  // namespace once
