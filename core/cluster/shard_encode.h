#pragma once
// `once encode --shard I/N`: the batch encoder (encode/batch_encode.h) over the videos one task
// of a sharded run owns (position v mod N of the folder's sorted list or the manifest,
// cluster/shard.h). The tasks share one output folder: feature file names are those of an
// unsharded run, and each task keeps its finished list in its own
// `encoded-shard-IIIII-of-NNNNN.jsonl` (an unsharded run: `encoded.jsonl`); every list in the
// folder counts as finished work on resume, with or without --shard. No merge is needed.
#include <string>

#include "cluster/shard.h"
#include "encode/batch_encode.h"

namespace once {

/// The finished-videos list a task writes: encoded.jsonl when not sharded.
std::string shardFinishedListName(const ShardSpec& shard);

/// encodeBatch restricted to `shard`'s videos; report.total counts those videos.
BatchReport encodeBatchShard(const std::string& input, const std::string& outDir,
                             const EncodeOptions& options, const ShardSpec& shard,
                             Progress* progress = nullptr);

}  // namespace once
