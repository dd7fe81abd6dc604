#pragma once
// Merging the Stage-A caches of the tasks of a sharded run (`once train sketch --shard I/N`,
// cluster/shard.h) into the cache one process builds from the whole corpus, bit for bit: the
// same shard files (representatives, weights, categories, video indices, bins, exemplar
// provenance, cut at the same rows) and the same manifest.json.
//
// Why this is exact: every task reads the whole corpus manifest, so it resolves the same global
// cap (m_max from all videos' token counts), the same category list, and sketches each of its
// videos with the video's corpus index as seed; a task's cache holds those sketches
// unchanged. The merge walks the corpus in order, takes each video's rows from the task that
// owns it (v mod N) and cuts output shards exactly where a single process cuts them (after the
// video that fills `shard_rows`), with the same writer.
//
// Refused, naming the shard's manifest and the field: a folder that is not a shard cache, an
// unfinished shard (rerun its task), shards of other options or another corpus (the first
// differing option or corpus entry), another shard count, backbone or feature width, the same
// shard twice, a missing shard. The output folder must be new or empty; it appears whole (the
// merge writes a temporary sibling folder and renames it).
#include <cstdint>
#include <string>
#include <vector>

#include "util/progress.h"

namespace once {

struct CacheMergeSummary {
    std::int64_t shards = 0, videos = 0, done = 0, failed = 0, reps = 0, files = 0;
};

CacheMergeSummary mergeSketchCaches(const std::vector<std::string>& shardDirs,
                                    const std::string& outDir, Progress* progress = nullptr);

}  // namespace once
