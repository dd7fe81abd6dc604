#pragma once
// What a trained codebook file records about its training, shared by `once train fit` and the
// studio's trainer: the Stage-B configuration and history, a description of the Stage-A cache
// that does not depend on where the cache or the corpus lie (content hash instead of paths), and
// the training-corpus diagnostics that the studio's charts compare each video against. No
// paths, no clock: the same inputs, seed and thread count give the same file bytes.
#include <map>
#include <string>

#include "util/progress.h"

namespace once {

struct SketchCache;
struct FitResult;
struct TokenSet;
class CacheReader;

struct CodebookMetadataOptions {
    std::int64_t bootstrap = 1000;  ///< diagnostics' video-level bootstrap resamples (0: none)
    int randomCodebooks = 0;        ///< random-exemplar comparisons (each a full assignment pass)
};

/// The rows, weights and video grouping that `once diagnose --cache` and the stored
/// diagnostics use (videos numbered in order of their first row). From a loaded cache the rows
/// are its tensor; from a reader they are read a tile at a time (the reader must outlive the
/// set).
TokenSet cacheTokenSet(const SketchCache& cache);
TokenSet cacheTokenSet(const CacheReader& cache);

/// `stage_a`: the cache's options (corpus paths left out), resolved m_max, categories, video and
/// representative counts, source tokens, backbone and the fit's `training_data_sha256`.
std::string stageAProvenanceJson(const SketchCache& cache, const FitResult& fit);

/// fit.metadata + `stage_a` + `diagnostics` (the object `once diagnose --json` prints for this
/// codebook on this cache with the same options).
std::map<std::string, std::string> trainedCodebookMetadata(
    const SketchCache& cache, const FitResult& fit, const CodebookMetadataOptions& options = {},
    Progress* progress = nullptr);
/// The same metadata, byte for byte, from a cache read through its mapped shard files: the
/// diagnostics read the representatives a tile at a time (analysis/diagnostics.h), so memory
/// is bounded by a tile and the per-row scalars instead of the whole cache (33 GiB at the
/// paper's scale; the peak is in docs/cluster.md). What `once train fit` uses.
std::map<std::string, std::string> trainedCodebookMetadata(
    const CacheReader& cache, const FitResult& fit, const CodebookMetadataOptions& options = {},
    Progress* progress = nullptr);

}  // namespace once
