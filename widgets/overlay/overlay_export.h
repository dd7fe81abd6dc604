#pragma once
// The overlay as pictures for papers and talks: the current frame, every frame as a captioned
// grid, the strip of thumbnails, and every frame as a numbered PNG sequence (the "video" of the
// overlay: an image sequence is lossless, needs no codec and turns into a clip with one
// `ffmpeg -framerate 2 -i overlay_%04d.png overlay.mp4`). All drawn by the same painter as the
// views, with the overlay's opacity, colour mode, outlines and selection.
#include <QImage>
#include <QString>
#include <functional>

namespace once::studio {

class GroupOverlay;

struct OverlayExportLimits {
    /// Width of one frame in a picture: frames wider than this are scaled down (a 4K clip would
    /// make a 32-frame grid of 100 megapixels), smaller ones kept at their own size.
    static constexpr int kMaxFrameWidth = 1920;
    /// Pixels per patch when the video has no frames (feature file alone).
    static constexpr int kPixelsPerPatch = 16;
    /// Frames in a sequence export (the studio samples far fewer; a damaged input may not).
    static constexpr int kMaxSequenceFrames = 100000;
};

/// Size one frame is exported at (its own size, bounded by kMaxFrameWidth).
QSize overlayFrameSize(const GroupOverlay& overlay);
/// Frame `t` with its groups, at overlayFrameSize().
QImage renderOverlayFrame(const GroupOverlay& overlay, int t);
/// Every frame in a grid of `columns` (0: about square), each captioned "Frame i · t s".
QImage renderOverlayGrid(const GroupOverlay& overlay, int columns = 0);
/// One row of thumbnails `thumbHeight` high, as the strip draws them, captioned.
QImage renderOverlayStrip(const GroupOverlay& overlay, int thumbHeight = 160);

/// Writes an image (format from the suffix: png, jpg, bmp, webp…) through a temporary file
/// renamed into place. False with `error` naming the file on failure.
bool saveOverlayImage(const QImage& image, const QString& path, QString* error = nullptr);

/// Writes every frame as `<folder>/<prefix>_0001.png`, … Refuses (before writing anything) when
/// one of those files already exists, so nothing the studio did not create is overwritten.
/// `progress(done, total)` may return false to stop. Returns the number written.
int exportOverlaySequence(const GroupOverlay& overlay, const QString& folder, const QString& prefix,
                          QString* error = nullptr,
                          const std::function<bool(int, int)>& progress = {});

}  // namespace once::studio
