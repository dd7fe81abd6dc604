#pragma once
// A finished Stage-A cache read without copying its representatives: the shard files are
// mapped, every check of SketchCache::load is made (one shard at a time, in fixed-size row
// tiles), and rows are copied out only on request — a tile in row order or any rows by index.
// Stage B streams its mini-batches from this (train/stage_b.h), so its memory is bounded by
// the mini-batch and not by the corpus: the page cache holds what the kernel chooses to keep.
// The merge of a sharded run (train/cache_merge.h) reads its shard caches the same way.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "train/stage_a_manifest.h"

namespace once {

class CacheReader {
  public:
    /// Opens and checks `cacheDir` (see SketchCache::load for the checks and errors). A shard
    /// cache of a sharded run (its manifest has request.shard) is refused naming
    /// `request.shard` unless `allowShardCache` (only the merge reads those).
    static CacheReader open(const std::string& cacheDir, bool allowShardCache = false);

    const StageAManifest& manifest() const { return manifest_; }
    const std::string& manifestPath() const { return manifestPath_; }
    std::int64_t rows() const { return rows_; }
    std::int64_t dim() const { return manifest_.dim; }
    /// Whole small columns, in memory: int32 [U].
    const at::Tensor& weights() const { return weights_; }
    const at::Tensor& category() const { return category_; }
    const at::Tensor& video() const { return video_; }
    const at::Tensor& bin() const { return bin_; }
    /// int32 [U, kExemplarColumns] (train/sketch_provenance.h); undefined when the cache has no
    /// provenance (manifest().provenance false: written before it).
    const at::Tensor& exemplar() const { return exemplar_; }
    /// The mapped BF16 [rows, D] representatives of shard file `i` (read-only memory).
    const at::Tensor& shardReps(std::size_t i) const { return reps_[i]; }
    std::size_t shardCount() const { return reps_.size(); }

    /// A BF16 copy of rows [begin, end).
    at::Tensor slice(std::int64_t begin, std::int64_t end) const;
    /// A BF16 copy of the given rows, in the given order (every index in 0..rows-1).
    at::Tensor gather(const std::vector<std::int64_t>& rows) const;

  private:
    StageAManifest manifest_;
    std::string manifestPath_;
    std::vector<at::Tensor> reps_;
    std::vector<std::int64_t> begin_;  ///< first global row of each shard file, then rows_
    std::int64_t rows_ = 0;
    at::Tensor weights_, category_, video_, bin_, exemplar_;
};

}  // namespace once
