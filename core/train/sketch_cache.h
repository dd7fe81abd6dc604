#pragma once
// The Stage-A cache (DESIGN §2): a folder of shards `shard-NNNNN.safetensors` (reps BF16 [U, D],
// weights I32 [U], category I32 [U], video I32 [U], bin I32 [U], and in caches with provenance
// exemplar I32 [U, 7], train/sketch_provenance.h) and `manifest.json` with the
// run's options and every video's status (layout and checks: train/stage_a_manifest.h). Shards
// are cut at fixed row counts in corpus order. Each finished video's sketch is first kept in its
// own `pending-NNNNNNNN.safetensors` until the shard it belongs to is full, so that a stopped run
// loses no finished video whatever the shard size. Every file is written atomically (pending
// file; then shard, manifest, removal of the shard's pending files): a run killed at any moment
// resumes after its last finished video and ends with the same bytes as an uninterrupted run.
// The folder is the tool's: a new cache goes only into a new or empty folder (or, with `force`,
// beside files it leaves untouched), and nothing the tool did not write is ever deleted.
// The writer is sketch_cache.cpp (SketchCacheWriter), the reader train/cache_reader.cpp, the
// checks both make of cache files train/cache_checks.h, the corpus list train/corpus_manifest.h.
#include <ATen/core/Tensor.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cluster/shard.h"
#include "features/encoded_video.h"
#include "train/corpus_manifest.h"
#include "train/sketch.h"
#include "util/progress.h"

namespace once {

/// Decodes and encodes a video file (entries that are not .safetensors feature files); Stage A
/// reads its features, frame times (empty: frame index) and backbone.
using VideoEncodeFn = std::function<EncodedVideo(const std::string& path, Progress* progress)>;

struct SketchCacheOptions {
    SketchOptions sketch;
    std::int64_t cap = 5'000'000;  ///< global representative cap (0: none)
    std::int64_t shardRows = 65536;
    std::string backbone;     ///< expected backbone; empty: taken from the first video
    bool skipErrors = false;  ///< record a failing video as "failed" instead of stopping
    /// Start a cache in a non-empty folder that holds no cache (its files are left untouched;
    /// names the cache writes must still be free).
    bool force = false;
    /// This task's part of a sharded run (cluster/shard.h): only the videos it owns are
    /// sketched, each exactly as a whole-corpus run would (global index, global cap), into a
    /// shard cache that `mergeSketchCaches` (train/cache_merge.h) combines.
    ShardSpec shard;
    /// Keep each representative's exemplar patch (train/sketch_provenance.h) in a new cache.
    /// A resumed cache keeps what its manifest says (caches from before provenance go on
    /// without it), so that every shard of a cache is alike.
    bool provenance = true;

    /// OnceError naming the option: sketch.validate(), cap < 0, shard rows < 1, counts above
    /// kMaxStageACount.
    void validate() const;
};

struct SketchCacheSummary {
    std::int64_t videos = 0, done = 0, failed = 0, resumed = 0;
    std::int64_t reps = 0, tokens = 0;
    std::int64_t mMax = 0;  ///< after the cap
    std::int64_t tokensThisRun = 0;
    double seconds = 0;
};

/// Builds or resumes the cache in `cacheDir`. Resuming checks that the corpus and options are
/// those of the manifest and refuses a mismatch naming the field. A folder that is neither new,
/// empty nor a Stage-A cache is refused unless options.force. Throws Cancelled via progress;
/// every video finished before that is kept. A new cache whose first video fails is removed.
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
    /// [U, kExemplarColumns] int32 exemplar patch of each representative
    /// (train/sketch_provenance.h); undefined for a cache written before provenance.
    at::Tensor exemplar;
    std::vector<std::string> categories;
    std::vector<std::string> sources;
    std::string backbone;
    std::string featureSource;
    std::string manifestJson;
    /// Loads every shard; throws OnceError naming the file and the entry or tensor when the
    /// cache is unfinished or damaged: the manifest's checks (parseStageAManifest), shard names
    /// outside the folder, tensors of the wrong type or length, non-finite representatives,
    /// weights < 1, video, category or bin indices out of range or not those the manifest
    /// assigns to the rows, source counts not summing to a video's token count; and the cache of
    /// one task of a sharded run (`request.shard`: merge it first, train/cache_merge.h). The
    /// checks are CacheReader::open's (train/cache_reader.h), which reads without copying.
    static SketchCache load(const std::string& cacheDir);
};

}  // namespace once
