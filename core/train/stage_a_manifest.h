#pragma once
// The Stage-A cache's manifest.json as plain structs, parsed from bytes without LibTorch so that
// the parser can be fuzzed on its own (tests/fuzz/fuzz_stage_a_manifest.cpp). The file is
// untrusted: every option, count, row range and shard name is checked here against the rest of
// the manifest, so that the cache code only has to check the shards' tensors against these
// numbers. toJson() writes the layout parseStageAManifest reads (format once-sketch-cache/1).
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace once {

constexpr const char* kStageACacheFormat = "once-sketch-cache/1";
constexpr const char* kStageAShardFormat = "once-sketch-shard/1";
constexpr const char* kStageAPendingFormat = "once-sketch-pending/1";
/// Value of the manifest's optional `provenance` key: every shard and pending file of the cache
/// holds the `exemplar` tensor (train/sketch_provenance.h). Caches written before provenance
/// have no such key and no such tensors; they still load, resume and train.
constexpr const char* kStageAProvenanceFormat = "once-sketch-provenance/1";

/// Largest manifest.json read (512 MiB: about 1.5 million corpus videos; LLaVA-Video-178K's
/// manifest is about 50 MB). Raise it here for larger corpora.
constexpr std::size_t kMaxStageAManifestBytes = std::size_t(512) << 20;
/// Most timeline bins L (the sketcher allocates per bin; the paper uses 4).
constexpr std::int64_t kMaxSketchBins = 65536;
/// Largest count read from a manifest or a shard (rows, representatives, tokens, m_max, cap,
/// shard rows; also the most rows and tokens of a whole cache): 2^40, far above any corpus, so
/// that sums of them cannot overflow.
constexpr std::int64_t kMaxStageACount = std::int64_t(1) << 40;
/// Widest feature vector D accepted in a cache (LLaVA-OneVision's is 3584).
constexpr std::int64_t kMaxStageADim = std::int64_t(1) << 20;

/// "shard-00003.safetensors": the only shard names the tool writes (and accepts).
std::string stageAShardName(std::size_t index);
/// "pending-00000017.safetensors": a finished video's sketch not yet in a shard.
std::string stageAPendingName(std::size_t video);
/// Index of a name stageAShardName writes, or -1.
std::int64_t stageAShardIndex(std::string_view name);
/// Index of a name stageAPendingName writes, or -1.
std::int64_t stageAPendingIndex(std::string_view name);

struct StageAVideoRecord {
    /// OtherShard: the video belongs to another task of a sharded run (cluster/shard.h); only
    /// in a shard's manifest, for exactly the videos the shard does not own.
    enum class Status { Pending, Done, Failed, OtherShard };
    Status status = Status::Pending;
    std::int64_t tokens = 0, reps = 0;      ///< done only
    std::string shard;                      ///< done only
    std::int64_t rowBegin = 0, rowEnd = 0;  ///< done only: global rows [begin, end)
    std::string error;                      ///< failed only
};

struct StageAShardRecord {
    std::string file;
    std::int64_t rows = 0;
};

struct StageAManifest {
    /// The run's options and corpus, as buildSketchCache compares them on resume.
    nlohmann::json request;
    // Typed views of `request` (validated).
    std::int64_t bins = 0, mMin = 0, mMaxRequested = 0, shardRows = 0;
    std::vector<std::string> sources;           ///< corpus video paths, in corpus order
    std::vector<std::string> sourceCategories;  ///< their categories ("" = none)
    /// `request.shard` of one task of a sharded run ({"index": I, "count": N}, 0 <= I < N,
    /// 2 <= N <= kMaxShardCount); count 1 (no such key) for a whole-corpus cache.
    std::int64_t shardIndex = 0, shardCount = 1;

    std::int64_t mMax = 0;  ///< after the global cap
    std::vector<std::string> categories;
    std::string backbone, featureSource;
    std::int64_t dim = 0;  ///< 0 until a video was sketched
    std::vector<StageAVideoRecord> videos;
    std::vector<StageAShardRecord> shards;
    bool complete = false;
    /// The cache keeps each representative's exemplar patch (key `provenance`, absent in caches
    /// written before it). Not part of `request`: a cache started without it resumes without.
    bool provenance = false;

    /// Index of `sourceCategories[v]` in `categories`, or -1.
    int categoryIndexOf(std::size_t video) const;
    std::int64_t committedRows() const;
    nlohmann::json toJson() const;
};

/// Parses and validates a manifest (`source` names it in errors). Throws OnceError naming the
/// file and the entry (e.g. `shards[0].file`, `videos[3].row_end`) on the first problem: wrong
/// format or types, options out of range, videos not matching the corpus, statuses out of order,
/// row ranges that are not contiguous or disagree with the shards, shard names other than the
/// ones the tool writes (so never `../x` or an absolute path), counts over kMaxStageACount.
/// In a shard's manifest, exactly the videos v with v mod N != I are `other_shard`, and the
/// order and row rules apply to the shard's own videos.
StageAManifest parseStageAManifest(std::string_view bytes, const std::string& source);

}  // namespace once
