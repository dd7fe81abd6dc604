#pragma once
// The large view of one sampled frame with its codeword groups. Hover shows the patch's group
// rank, codeword, group size and cosine residual; a click selects the group (highlighted in all
// frames); arrow keys step through frames, Escape clears the selection.
#include <QWidget>

#include "overlay/group_overlay.h"

namespace once::studio {

class FrameOverlayView : public QWidget {
    Q_OBJECT
  public:
    explicit FrameOverlayView(GroupOverlay* overlay, QWidget* parent = nullptr);

    /// The rectangle the current frame is drawn into (widget coordinates).
    QRectF frameRect() const;
    /// Widget position of the centre of a patch of the current frame (tests, tooltips).
    QPoint patchCentre(int patch) const;
    /// Tooltip text for a patch (empty when it has no group data).
    QString describe(const PatchInfo& info) const;

    QSize sizeHint() const override { return {720, 480}; }
    QSize minimumSizeHint() const override { return {200, 150}; }

  signals:
    /// The patch under the mouse (info.valid false when none).
    void patchHovered(const once::studio::PatchInfo& info);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

  private:
    PatchInfo infoAt(const QPointF& pos) const;

    GroupOverlay* overlay_;
    int hoveredPatch_ = -1;
};

}  // namespace once::studio
