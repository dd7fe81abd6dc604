#pragma once
// A horizontal strip of all sampled frames as thumbnails with the same overlay as the large
// view: the selected group's members light up in every frame, with their count in a badge.
// A click makes a frame current.
#include <QAbstractScrollArea>

namespace once::studio {

class GroupOverlay;

class FrameStrip : public QAbstractScrollArea {
    Q_OBJECT
  public:
    explicit FrameStrip(GroupOverlay* overlay, QWidget* parent = nullptr);

    /// Thumbnail rectangle of frame `t` in viewport coordinates.
    QRect thumbnailRect(int t) const;
    /// The frame under a viewport position, or −1.
    int frameAt(const QPoint& viewportPos) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

  private:
    int thumbHeight() const;
    int thumbWidth() const;
    void updateScrollRange();
    void ensureVisible(int t);

    GroupOverlay* overlay_;
    static constexpr int kSpacing = 6;
};

}  // namespace once::studio
