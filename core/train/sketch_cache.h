#pragma once
// The Stage-A cache (DESIGN §2): a folder of shards `shard-NNNNN.safetensors` (reps BF16 [U, D],
// weights I32 [U], category I32 [U], video I32 [U], bin I32 [U]) and `manifest.json` with the
// run's options and every video's status. Shards are cut at fixed row counts in corpus order
// and every file is written atomically, shard first, manifest second: a run killed at any moment
// resumes after the last committed shard and ends with the same bytes as an uninterrupted run.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "train/sketch.h"
#include "util/progress.h"

namespace once {

/// One line of the corpus manifest (JSONL): {"video": path, "category": name}. Relative paths
/// are resolved against the manifest's folder; a missing or null category is "".
struct CorpusEntry {
    std::string source;
    std::string category;
};
std::vector<CorpusEntry> readCorpusManifest(const std::string& path);

/// What Stage A needs of one video.
struct VideoTokens {
    at::Tensor features;    ///< [T, P, D]
    at::Tensor frameTimes;  ///< [T] seconds (may be undefined: frame index)
    std::string backbone;
};
/// Decodes and encodes a video file (entries that are not .safetensors feature files).
using VideoEncodeFn = std::function<VideoTokens(const std::string& path, Progress* progress)>;

struct SketchCacheOptions {
    SketchOptions sketch;
    std::int64_t cap = 5'000'000;  ///< global representative cap (0: none)
    std::int64_t shardRows = 65536;
    std::string backbone;     ///< expected backbone; empty: taken from the first video
    bool skipErrors = false;  ///< record a failing video as "failed" instead of stopping
};

struct SketchCacheSummary {
    std::int64_t videos = 0, done = 0, failed = 0, resumed = 0;
    std::int64_t reps = 0, tokens = 0;
    std::int64_t mMax = 0;  ///< after the cap
    std::int64_t tokensThisRun = 0;
    double seconds = 0;
};

/// Builds or resumes the cache in `cacheDir`. Resuming checks that the corpus and options are
/// those of the manifest and refuses a mismatch naming the field. Throws Cancelled via progress.
SketchCacheSummary buildSketchCache(const std::vector<CorpusEntry>& corpus,
                                    const std::string& cacheDir, const SketchCacheOptions& options,
                                    const VideoEncodeFn& encodeVideo, Progress* progress = nullptr);

/// A finished cache in memory.
struct SketchCache {
    at::Tensor reps;      ///< [U, D] BF16 unit rows
    at::Tensor weights;   ///< [U] int32 source counts
    at::Tensor category;  ///< [U] int32 (-1: no label)
    at::Tensor video;     ///< [U] int32 corpus index
    at::Tensor bin;       ///< [U] int32 timeline bin
    std::vector<std::string> categories;
    std::vector<std::string> sources;
    std::string backbone;
    std::string featureSource;
    std::string manifestJson;
    /// Loads every shard; throws OnceError when the cache is unfinished or damaged.
    static SketchCache load(const std::string& cacheDir);
};

}  // namespace once
