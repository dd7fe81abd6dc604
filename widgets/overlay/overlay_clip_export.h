#pragma once
// The overlaid clip (issue 30, item 13): every frame of the video as the player plays it — all
// decoded frames, at the clip's own rate, not only the sampled ones — each with the codeword
// groups of the sampled frame the player shows for it (GroupOverlay::frameAtTime, the player's
// own mapping; frames before the first sampled one get the first one's groups, which is what
// the player shows at the start), drawn by the views' painter with the overlay's opacity,
// colour mode, outlines and selection, and encoded by the core's writer (video/video_writer.h)
// as MP4 or GIF in one step. The PNG exports (overlay_export.h) stay for single pictures.
#include <QString>
#include <cstdint>
#include <string>

namespace once {
class Progress;
}

namespace once::studio {

class GroupOverlay;

struct OverlayClipOptions {
    /// Writes the frame's time and the sampled frame whose groups are drawn in a corner.
    bool caption = true;
};

struct OverlayClipResult {
    std::int64_t frames = 0;  ///< frames written
    std::string codec;        ///< "libx264", "mpeg4" or "gif"
    int width = 0, height = 0;
    double fps = 0;
};

/// Frame rate assumed for a video that states none (the player steps at this rate too).
constexpr double kClipDefaultFps = 25.0;

/// Writes `video` (a file the core decodes) overlaid with `overlay` to `output` (.mp4 or .gif).
/// Frames are at most OverlayExportLimits::kMaxFrameWidth wide (and as high), aspect kept. A GIF
/// of a clip faster than kMaxGifFps keeps every n-th frame (n as small as fits) at rate / n.
/// Runs on a worker: `overlay` must not change meanwhile (give it a GroupOverlay::snapshot()).
/// Throws OnceError naming the file (video or output) on failure and once::Cancelled when
/// `progress` is cancelled; either way nothing is left at `output`'s temporary name and an
/// existing file there is untouched.
OverlayClipResult exportOverlaidClip(const GroupOverlay& overlay, const std::string& video,
                                     const std::string& output, once::Progress& progress,
                                     const OverlayClipOptions& options = {});

/// The caption of a frame at `seconds` drawn with the groups of sampled frame `frame` (0-based).
QString overlayClipCaption(double seconds, int frame);

}  // namespace once::studio
