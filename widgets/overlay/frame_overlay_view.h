#pragma once
// The large view of one sampled frame with its codeword groups. Hover shows the patch's group
// rank, codeword, group size and cosine residual (kept current when the frame, the budget or the
// method changes under a still mouse); a click selects the group (highlighted in all frames) and
// makes the patch the inspected one (the patch inspector's);
// arrow keys step through frames, Escape clears the selection. The wheel (or +/−) zooms at the
// cursor, dragging pans a zoomed frame, 0 or a double-click fits it again. The context menu
// selects, zooms, copies and exports the overlay (frame, grid of all frames, strip, PNG sequence).
#include <QWidget>

#include "overlay/group_overlay.h"

class QMenu;

namespace once::studio {

class FrameOverlayView : public QWidget {
    Q_OBJECT
  public:
    explicit FrameOverlayView(GroupOverlay* overlay, QWidget* parent = nullptr);

    /// The rectangle the current frame is drawn into (widget coordinates; larger than the view
    /// when zoomed).
    QRectF frameRect() const;
    /// Widget position of the centre of a patch of the current frame (tests, tooltips).
    QPoint patchCentre(int patch) const;
    /// Tooltip text for a patch (empty when it has no group data).
    QString describe(const PatchInfo& info) const;
    /// The hover text shown now ("" when the mouse is over no patch).
    QString hoverText() const { return hoverText_; }

    /// 1 = the whole frame fits; up to kMaxZoom.
    double zoom() const { return zoom_; }
    static constexpr double kMaxZoom = 16.0;
    /// Zooms by `factor` keeping the frame point under `anchor` (widget coordinates) in place.
    void zoomBy(double factor, const QPointF& anchor);
    void resetZoom();
    /// Moves a zoomed frame by `delta` pixels (kept covering the view).
    void panBy(const QPointF& delta);

    /// The context menu for a position (tests open it without showing it).
    QMenu* createContextMenu(const QPoint& pos);

    QSize sizeHint() const override { return {720, 480}; }
    /// Small enough that the window fits 1366 x 768 at QT_SCALE_FACTOR=2 (issue 30, item 10).
    QSize minimumSizeHint() const override { return {160, 96}; }

  public slots:
    /// Interactive exports (file dialogs; failures in a message box).
    void exportCurrentFrame();
    void exportAllFramesGrid();
    void exportStrip();
    void exportFrameSequence();
    void copyCurrentFrame();

  signals:
    /// The patch under the mouse (info.valid false when none); sent again when what is under a
    /// still mouse changes (another frame, budget or method).
    void patchHovered(const once::studio::PatchInfo& info);
    /// "Show Codeword in the Codebook View" was chosen in the context menu.
    void codewordRequested(std::int64_t codeword);
    /// "Inspect This Patch" was chosen in the context menu (the overlay's inspected token is set
    /// already; a plain click sets it too, without asking for the inspector to be shown).
    void inspectRequested(int token);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    PatchInfo infoAt(const QPointF& pos) const;
    /// The frame fitted into the view at zoom 1.
    QRectF fittedRect() const;
    void clampPan();
    /// Re-reads the patch under the remembered mouse position after a change.
    void refreshHover();
    void setHover(const PatchInfo& info, const QPoint& globalPos, bool showTip);
    QString askSavePath(const QString& title, const QString& name);

    GroupOverlay* overlay_;
    int hoveredPatch_ = -1;
    QString hoverText_;
    bool mouseInside_ = false;
    QPointF mousePos_;
    double zoom_ = 1.0;
    QPointF pan_;  ///< offset of the zoomed frame's centre from the fitted frame's centre
    bool pressed_ = false;
    bool dragged_ = false;
    QPointF pressPos_;
};

}  // namespace once::studio
