#pragma once
// The picture of the player (issue 30, view 13): the decoded frame at the playhead fitted into the
// widget, black around it, and over it the codeword groups of the sampled frame at or before that
// time — the same drawing as the main view and the exported clip (overlay/overlay_painter.h,
// GroupOverlay::frameAtTime), so what plays is what the export writes.
#include <QImage>
#include <QWidget>

namespace once::studio {

class GroupOverlay;

class PlaybackView : public QWidget {
    Q_OBJECT
  public:
    explicit PlaybackView(GroupOverlay* overlay, QWidget* parent = nullptr);
    /// The decoded frame on screen and its time in the video (seconds).
    void setFrame(const QImage& image, double time);
    const QImage& image() const { return image_; }
    double time() const { return time_; }
    /// Whether the groups are drawn over the picture (on by default).
    void setShowsGroups(bool on);
    bool showsGroups() const { return showsGroups_; }
    /// The sampled frame whose groups are drawn now (−1: none: no groups, or switched off).
    int groupsFrame() const;
    QSize sizeHint() const override { return {320, 180}; }

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    GroupOverlay* overlay_;
    QImage image_;
    double time_ = -1;
    bool showsGroups_ = true;
};

}  // namespace once::studio
