#pragma once
// Sharding a corpus over the tasks of a cluster array job (Slurm job arrays, Kubernetes Indexed
// Jobs): which task does which video, as a pure function of the video's position in the corpus.
//
// Indices are 0-based, as both engines give them: Slurm's `--array=0-(N-1)` sets
// SLURM_ARRAY_TASK_ID 0..N-1 (an array starting elsewhere is shifted by SLURM_ARRAY_TASK_MIN),
// Kubernetes sets JOB_COMPLETION_INDEX 0..completions-1. `--shard I/N` uses the same numbers.
//
// The partition is round-robin over the corpus order: video v belongs to shard v mod N. It
// depends on nothing but v and N (never on timing, the host or the other shards), so every
// video is in exactly one shard, a rerun of one failed task does exactly its videos again
// (and resumes from what it had finished), and a merge knows where each video's results live.
// Round-robin rather than contiguous ranges: corpus manifests are usually grouped (by source,
// by category, by length), and interleaving gives every task the same mix, so the tasks of an
// array finish together; the tasks' outputs are merged by corpus index, not concatenated.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace once {

/// Most tasks of one sharded run (Slurm's default MaxArraySize is 1001; Kubernetes' Indexed
/// Jobs allow 100,000 completions).
constexpr std::int64_t kMaxShardCount = 100000;

struct ShardSpec {
    std::int64_t index = 0;  ///< 0-based
    std::int64_t count = 1;  ///< 1: not sharded
    /// Where the spec came from, for messages: "--shard", "SLURM_ARRAY_TASK_ID", ...
    std::string origin;

    bool sharded() const { return count > 1; }
    /// Video (or question group) `position` of the corpus order belongs to this shard.
    bool owns(std::int64_t position) const { return position % count == index; }
    /// "3/10"
    std::string text() const;
    /// Videos of a corpus of `total` that this shard owns.
    std::int64_t ownedCount(std::int64_t total) const;
};

/// Parses "I/N" (0 <= I < N <= kMaxShardCount). Throws OnceError naming `field` otherwise.
ShardSpec parseShard(const std::string& text, const std::string& field = "shard");

/// Reads the shard from the environment of a cluster task, or nullopt when none is set:
/// SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT (and SLURM_ARRAY_TASK_MIN/MAX: the array
/// must be a contiguous range, `--array=A-B`, without a step), else JOB_COMPLETION_INDEX with
/// ONCE_SHARD_COUNT (Kubernetes does not export the completions count; the shipped manifests
/// set it). Throws OnceError naming the variable for an inconsistent or malformed value.
/// `getenv` is injectable for tests.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
std::optional<ShardSpec> shardFromEnvironment(const EnvLookup& getenv);
EnvLookup processEnvironment();

/// The shard a command runs: `option` ("I/N", "none" to ignore the environment, or empty) or,
/// when empty, the environment; otherwise the whole corpus (0/1).
ShardSpec resolveShard(const std::string& option, const EnvLookup& getenv = processEnvironment());

}  // namespace once
