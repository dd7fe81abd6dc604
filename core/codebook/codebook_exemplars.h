#pragma once
// The corpus side of a trained codebook, as the codebook explorer shows it: how much of the
// training corpus each codeword holds, and a few exemplar patches per codeword — where in which
// corpus video each one lies (and, when the codebook was trained with
// `--exemplar-thumbnails`, its pixels as a small RGB thumbnail). Written by Stage B
// (train/exemplar_selection.h) into the codebook file beside `codebook`:
//
//   metadata `corpus_exemplars`   JSON {"format": "once-exemplars/1", "per_codeword": E,
//                                  "thumbnail_size": S, "thumbnail_context": C, "root": folder,
//                                  "videos": [path relative to root, ...]}
//   (a thumbnail shows the exemplar cell with C cells around it, train/exemplar_pixels.h;
//   C is optional, 0 when absent)
//   tensor `corpus_usage`         I64 [K, 3]: source tokens, representatives, videos
//   tensor `exemplars`            I32 [K, E, kCodebookExemplarColumns] (E > 0 only)
//   tensor `exemplar_thumbnails`  U8 [K, E, S, S, 3] (S > 0 only)
//
// None of them is 2-D floating point, so every reader of codebooks (and older versions of this
// one) still picks `codebook`; a codebook without them was trained before provenance. This
// parser has no LibTorch so that it can be fuzzed on its own (tests/fuzz/fuzz_codebook_exemplars).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "io/safetensors.h"

namespace once {

constexpr const char* kCodebookExemplarsFormat = "once-exemplars/1";
constexpr const char* kCodebookExemplarsKey = "corpus_exemplars";
constexpr const char* kCorpusUsageTensor = "corpus_usage";
constexpr const char* kExemplarsTensor = "exemplars";
constexpr const char* kExemplarThumbnailsTensor = "exemplar_thumbnails";

/// Most exemplars per codeword (E). 8 are written by default.
constexpr std::int64_t kMaxExemplarsPerCodeword = 64;
/// Largest thumbnail side S in pixels (32 by default; K·E·S²·3 bytes in the file).
constexpr std::int64_t kMaxExemplarThumbnailSide = 128;
/// Most exemplar videos listed (the corpus videos the exemplars come from).
constexpr std::int64_t kMaxExemplarVideos = std::int64_t(1) << 24;
/// Largest `corpus_exemplars` metadata value (the video list), bytes.
constexpr std::size_t kMaxExemplarMetadataBytes = std::size_t(64) << 20;
/// Most cells of context around an exemplar in a thumbnail.
constexpr std::int64_t kMaxExemplarThumbnailContext = 4;
/// Largest patch grid side of an exemplar (as in the Stage-A cache).
constexpr std::int64_t kMaxCodebookExemplarGrid = 4096;

/// Columns of the `exemplars` tensor.
enum CodebookExemplarColumn : int {
    kCbExemplarVideo = 0,        ///< index into `videos`; -1: empty slot (all later slots too)
    kCbExemplarFrame = 1,        ///< feature frame of the video
    kCbExemplarSourceFrame = 2,  ///< frame number in the source video; -1: unknown
    kCbExemplarTimeMs = 3,       ///< frame time in the source video (ms); -1: unknown
    kCbExemplarRow = 4,          ///< patch cell
    kCbExemplarCol = 5,
    kCbExemplarGridRows = 6,  ///< the frame's patch grid
    kCbExemplarGridCols = 7,
    kCbExemplarThumbnail = 8,  ///< 1: its thumbnail is in `exemplar_thumbnails`
    kCodebookExemplarColumns = 9
};

struct CodewordExemplar {
    std::int32_t video = -1;  ///< -1: empty slot
    std::int32_t frame = 0, sourceFrame = -1, timeMs = -1;
    std::int32_t row = 0, col = 0, gridRows = 1, gridCols = 1;
    bool hasThumbnail = false;
    bool empty() const { return video < 0; }
};

struct CodewordUsage {
    std::int64_t tokens = 0;  ///< corpus tokens the codeword's representatives stand for
    std::int64_t reps = 0;    ///< Stage-A representatives nearest to it
    std::int64_t videos = 0;  ///< corpus videos with at least one of them
};

struct CodebookExemplars {
    std::int64_t codewords = 0;       ///< K
    int perCodeword = 0;              ///< E (0: the Stage-A cache had no provenance)
    int thumbnailSide = 0;            ///< S (0: no thumbnails)
    int thumbnailContext = 0;         ///< C: cells of context around the exemplar in a thumbnail
    std::string root;                 ///< folder of the corpus videos when the codebook was trained
    std::vector<std::string> videos;  ///< relative to root, inside it
    std::vector<CodewordUsage> usage;       ///< [K]
    std::vector<CodewordExemplar> entries;  ///< [K · E] slots, row-major (named so for Qt)
    std::uint64_t thumbnailOffset = 0;      ///< of `exemplar_thumbnails` in the file image
    std::uint64_t thumbnailBytes = 0;       ///< 0 without thumbnails

    const CodewordExemplar& exemplar(std::int64_t codeword, int j) const {
        return entries[std::size_t(codeword * perCodeword + j)];
    }
    /// Filled slots of a codeword (they come first).
    int exemplarCount(std::int64_t codeword) const;
    /// The S·S·3 RGB bytes of a slot's thumbnail inside `image` (the whole file), empty when it
    /// has none.
    std::span<const std::uint8_t> thumbnail(std::span<const std::uint8_t> image,
                                            std::int64_t codeword, int j) const;
};

/// Reads and checks the exemplar section of a codebook file (`image` is the whole file, `header`
/// its parsed header, `codewords` K of its codebook tensor). Returns nullopt when the file has
/// none of it (trained before provenance). Throws OnceError naming `path` and the field: metadata
/// over kMaxExemplarMetadataBytes, not JSON or of another format; E, S or the video count over
/// their limits; a video path that is empty, absolute, holds "..", "." or a NUL byte (the videos
/// must stay inside their root); tensors of another type or shape; negative usage or usage
/// where videos > representatives > tokens; an exemplar of a video not listed, a cell outside
/// its grid, a grid side above kMaxCodebookExemplarGrid, a filled slot after an empty one, more
/// exemplars than representatives, a thumbnail flag without thumbnails.
std::optional<CodebookExemplars> parseCodebookExemplars(const SafetensorsHeader& header,
                                                        std::span<const std::uint8_t> image,
                                                        std::int64_t codewords,
                                                        const std::string& path);

/// True when `relative` is a non-empty relative path without "..", "." or empty components or
/// NUL bytes: a name that stays inside the folder it is resolved against.
bool isContainedRelativePath(const std::string& relative);

}  // namespace once
