#pragma once
// Draws one sampled frame with its codeword groups: the frame (or a neutral background), every
// patch filled with its group's colour at the overlay's opacity, group outlines, dropped tokens
// hatched, the selected group outlined while the rest is dimmed, and the inspected patch ringed.
// Shared by the large view and the thumbnail strip so both always agree.
#include <QImage>
#include <QRectF>

class QPainter;

namespace once::studio {

class GroupOverlay;

struct OverlayPaintOptions {
    bool outlines = true;       ///< group borders (skipped when patches get too small anyway)
    bool dimUnselected = true;  ///< darken everything outside the selected group
    /// Drawn under the groups instead of the sampled frame's picture (null: that picture): the
    /// clip export lays a sampled frame's groups over each played frame of the video.
    QImage picture;
};

void paintFrameOverlay(QPainter& painter, const QRectF& target, const GroupOverlay& overlay,
                       int frame, const OverlayPaintOptions& options = {});

/// Largest rectangle of `aspect` (width/height) centred in `bounds`.
QRectF fitAspect(const QRectF& bounds, double aspect);

/// The patch index under `point` in a frame drawn into `target`, or −1.
int patchAt(const QRectF& target, int gridH, int gridW, const QPointF& point);

}  // namespace once::studio
