#pragma once
// The pixels of exemplar patches (codebook/codebook_exemplars.h): a codebook names, for each
// exemplar, a corpus video, a frame and a patch cell of the frame's grid; this cuts that cell
// out of the decoded frame and scales it to a square RGB thumbnail. Used by `once train fit
// --exemplar-thumbnails` to store thumbnails in the codebook and by the studio's codebook
// explorer to show exemplars of codebooks stored without them. The cell is the frame divided
// into the grid, as the encoders see a frame (resized whole to their square input).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "codebook/codebook_exemplars.h"
#include "video/video_reader.h"

namespace once {

/// Where one exemplar's patch lies in its video.
struct ExemplarLocation {
    std::int64_t sourceFrame = -1;  ///< frame number; -1: from the time
    std::int64_t timeMs = -1;       ///< -1: unknown
    int row = 0, col = 0, gridRows = 1, gridCols = 1;
};

/// Default side of an exemplar thumbnail, pixels.
constexpr int kDefaultExemplarThumbnailSide = 32;
/// Cells of context around the exemplar cell in a thumbnail by default: 1 gives the 3 × 3 cells
/// centred on it. A patch alone (14 px of a 384 px SigLIP input) reads as a flat colour; with
/// its neighbours one sees what it is part of, and the explorer outlines the cell itself.
constexpr int kDefaultExemplarContext = 1;

/// The cells a thumbnail with `context` cells around cell `index` of a grid side of `cells`
/// covers: {first, count}, count = min(cells, 2·context + 1), the window shifted to stay inside
/// the grid at its edges.
std::pair<int, int> exemplarContextWindow(int index, int cells, int context);

/// The file to decode for a corpus entry: the entry itself, or for a feature file
/// (.safetensors) the video its `source` metadata names beside it (a plain file name; anything
/// with a folder part is refused). "" when a feature file names no readable video.
std::string exemplarPixelSource(const std::string& corpusEntry);

/// Cuts every location's cell from `video` (a video file or frame folder, decoded once for all
/// the frames it needs, at most kExemplarDecodeBatchBytes of frames at a time), with `context`
/// cells around it (exemplarContextWindow), and scales it to side × side. Returns U8 [n, side,
/// side, 3]; `found[i]` is false (and the thumbnail black) when a location's frame is unknown or
/// past the end of the video. Throws OnceError naming the video when it cannot be read at all.
/// `side` in 1..kMaxExemplarThumbnailSide.
at::Tensor cutExemplarPatches(const std::string& video, const std::vector<ExemplarLocation>& where,
                              int side, std::vector<bool>& found, const VideoLimits& limits = {},
                              int context = 0);

/// Bytes of decoded frames held at once while cutting (frames are decoded in passes of this).
constexpr std::int64_t kExemplarDecodeBatchBytes = std::int64_t(512) << 20;

}  // namespace once
