#pragma once
// Opacity, colour mode (group colour, the group's mean image colour, or the residual heat-map
// with its colour bar) and outlines of the overlay: a small bar above the frame view that edits
// the GroupOverlay directly.
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;

namespace once::studio {

class GroupOverlay;

class OverlayControls : public QWidget {
    Q_OBJECT
  public:
    explicit OverlayControls(GroupOverlay* overlay, QWidget* parent = nullptr);

    QSlider* opacitySlider() const { return opacity_; }
    QComboBox* modeBox() const { return mode_; }
    QCheckBox* outlinesBox() const { return outlines_; }
    /// The heat-map's colour bar (visible in that mode only).
    QLabel* residualScale() const { return scale_; }

  private:
    /// Enables the heat-map where there are residuals and redraws its colour bar.
    void refresh();

    GroupOverlay* overlay_;
    QSlider* opacity_;
    QComboBox* mode_;
    QCheckBox* outlines_;
    QLabel* scale_;
};

}  // namespace once::studio
