#pragma once
// Opacity, colour mode (group colour or the group's mean image colour) and outlines of the
// overlay: a small bar above the frame view that edits the GroupOverlay directly.
#include <QWidget>

class QCheckBox;
class QComboBox;
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

  private:
    GroupOverlay* overlay_;
    QSlider* opacity_;
    QComboBox* mode_;
    QCheckBox* outlines_;
};

}  // namespace once::studio
