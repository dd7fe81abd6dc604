#pragma once
// Provenance of Stage-A representatives: for each representative, the patch of the corpus that
// is most typical of it (the member of its group nearest to it, train/sketch.h `medoids`), as
// the frame, the patch cell and the times needed to find its pixels again in the source video.
// Stored in the cache as the tensor `exemplar` I32 [U, kExemplarColumns] beside `reps` (shards
// and pending files of a cache whose manifest has `provenance`, train/stage_a_manifest.h);
// Stage B turns them into per-codeword exemplars in the codebook file
// (train/exemplar_selection.h). 28 bytes per representative, about 1.5 % of a BF16 row of
// LLaVA-OneVision's width: cheap enough to be always on.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

namespace once {

struct EncodedVideo;

/// Columns of a cache's `exemplar` rows.
enum ExemplarColumn : int {
    kExemplarFrame = 0,        ///< feature frame of the video (0-based)
    kExemplarSourceFrame = 1,  ///< frame number in the source video; -1 when unknown
    kExemplarTimeMs = 2,       ///< frame time in the source video, milliseconds; -1 when unknown
    kExemplarRow = 3,          ///< patch cell row in the frame's grid
    kExemplarCol = 4,          ///< patch cell column
    kExemplarGridRows = 5,     ///< the frame's patch grid (rows × cols = patches per frame)
    kExemplarGridCols = 6,
    kExemplarColumns = 7
};

/// Largest side of a patch grid accepted in a cache or codebook (27 for SigLIP at 384 px).
constexpr std::int64_t kMaxExemplarGrid = 4096;
/// Largest frame time in milliseconds (int32; about 24.8 days).
constexpr std::int64_t kMaxExemplarTimeMs = 2147483647;

/// The `exemplar` rows of a video's sketch: `medoids` [m] int64 token indices (frame-major) of
/// `video` (its features [T, P, D] or [N, D]). The grid is the video's when gridH × gridW = P,
/// else the most square one; frame times and source frame numbers (the `frame_indices` the
/// decoder recorded: T comma-separated numbers) are -1 when missing or not usable.
at::Tensor exemplarRows(const at::Tensor& medoids, const EncodedVideo& video);

/// Checks rows I32 [n, kExemplarColumns] read from `file` (tensor `name`): grids of 1 to
/// kMaxExemplarGrid per side, cells inside them, frames and times >= 0 (or -1 where allowed),
/// and the patch inside its video: (frame + 1) × rows × cols <= `tokensOfRow` (I64 [n], the
/// token count of each row's video). Throws OnceError naming the file, the tensor and the first
/// bad row.
void checkExemplarRows(const at::Tensor& rows, const at::Tensor& tokensOfRow,
                       const std::string& file, const std::string& name);

}  // namespace once
