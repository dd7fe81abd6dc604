#pragma once
// Stage B's record of the corpus for the codebook explorer (codebook/codebook_exemplars.h): each
// Stage-A representative goes to its nearest codeword of the fitted codebook; a codeword's
// corpus usage is what its representatives stand for (source tokens, representatives, videos),
// and its exemplars are the exemplar patches (train/sketch_provenance.h) of its
// representatives of highest cosine, one per video first (so that a codeword is not shown
// through eight patches of one clip), then the next best. Deterministic: the same cache and
// codebook give the same bytes.
//
// Exemplar pixels are not copied from the corpus by default: a codebook is shared more widely
// than its training videos may be, and names where they lie instead (paths relative to the
// corpus folder, frame, cell). `thumbnailSide` > 0 (`once train fit --exemplar-thumbnails`)
// cuts small RGB thumbnails from the corpus videos into the file, for sharing a codebook with
// its pictures (K·E·S²·3 bytes: 201 MB at K = 8192, E = 8, S = 32, seven times the F32
// codebook at D = 896; `--exemplars 2` makes it 50 MB).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "train/exemplar_pixels.h"
#include "util/progress.h"
#include "video/video_reader.h"

namespace once {

struct SketchCache;
class CacheReader;

/// Representatives assigned to their nearest codeword per pass (bounds the F32 copy of a tile:
/// 65,536 × D × 4 bytes, 0.9 GiB at D = 3,584).
constexpr std::int64_t kExemplarTileRows = 65536;

struct ExemplarOptions {
    int perCodeword = 8;    ///< E, 0..kMaxExemplarsPerCodeword (0: usage only)
    int thumbnailSide = 0;  ///< S: cut thumbnails of S × S pixels from the corpus videos (0: none)
    VideoLimits limits;     ///< for decoding the corpus videos (thumbnails)
    /// Rows per assignment pass (>= 1). The same tiles give the same bits from a loaded and a
    /// mapped cache; tests shrink it to cross shard files within a tile.
    std::int64_t tileRows = kExemplarTileRows;
};

struct CodebookExemplarTables {
    at::Tensor usage;       ///< I64 [K, 3]: tokens, representatives, videos
    at::Tensor exemplars;   ///< I32 [K, E, kCodebookExemplarColumns]; undefined when E = 0
    at::Tensor thumbnails;  ///< U8 [K, E, S, S, 3]; undefined when S = 0
    int perCodeword = 0, thumbnailSide = 0;
    int thumbnailContext = 0;         ///< cells of context around the exemplar in each thumbnail
    std::string root;                 ///< common folder of the corpus videos
    std::vector<std::string> videos;  ///< exemplar videos, relative to root
    std::vector<std::string> videoSources;  ///< the same, as the cache names them
    std::int64_t thumbnailsMissing = 0;     ///< exemplars whose video could not be read

    /// The `corpus_exemplars` metadata value.
    std::string metadataJson() const;
    /// Adds the metadata key and the tensors for saveCodebookFile (codebook/codebook_writer.h).
    void addTo(std::map<std::string, std::string>& metadata,
               std::vector<std::pair<std::string, at::Tensor>>& tensors) const;
};

/// Usage and exemplars of `codebook` [K, D] over the cache's representatives (read in tiles).
/// A cache without provenance (written before it) gives usage only (E = 0). OnceError naming
/// the option when perCodeword, thumbnailSide or tileRows is out of range, or the widths differ.
CodebookExemplarTables selectCodebookExemplars(const SketchCache& cache, const at::Tensor& codebook,
                                               const ExemplarOptions& options = {},
                                               Progress* progress = nullptr);
/// The same tables, bit for bit, from a cache read through its mapped shard files (what
/// `once train fit` uses): the representatives are copied out one tile at a time, so memory is
/// a tile plus O(U) per-row scalars (the reader's int32 columns; each row's nearest codeword,
/// cosine and sort order, about 40 bytes a row) instead of the U × D × 2 bytes of the cache.
CodebookExemplarTables selectCodebookExemplars(const CacheReader& cache, const at::Tensor& codebook,
                                               const ExemplarOptions& options = {},
                                               Progress* progress = nullptr);

/// Decodes each exemplar video once and fills `tables.thumbnails` (side × side, the exemplar
/// cell with `context` cells around it, train/exemplar_pixels.h). A video that cannot be read
/// leaves its exemplars without thumbnails (counted in thumbnailsMissing).
void cutExemplarThumbnails(CodebookExemplarTables& tables, int side, const VideoLimits& limits = {},
                           Progress* progress = nullptr, int context = kDefaultExemplarContext);

/// The folder common to every path (lexically; relative paths stay relative unless the set
/// mixes relative and absolute ones) and each path relative to it.
std::pair<std::string, std::vector<std::string>> commonRoot(const std::vector<std::string>& paths);

}  // namespace once
