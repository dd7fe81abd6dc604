#include "overlay/overlay_controls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>

#include "overlay/group_overlay.h"

namespace once::studio {

OverlayControls::OverlayControls(GroupOverlay* overlay, QWidget* parent)
    : QWidget(parent), overlay_(overlay) {
    opacity_ = new QSlider(Qt::Horizontal, this);
    opacity_->setRange(0, 100);
    opacity_->setValue(static_cast<int>(overlay->opacity() * 100 + 0.5));
    opacity_->setMaximumWidth(160);
    // In a row that scrolls sideways a slider may be squeezed to its handle (issue 30: a square
    // at QT_SCALE_FACTOR=2): it keeps room to slide.
    opacity_->setMinimumWidth(80);
    opacity_->setAccessibleName(tr("Overlay opacity"));
    mode_ = new QComboBox(this);
    mode_->addItem(tr("Group colour"), static_cast<int>(GroupOverlay::ColourMode::GroupColour));
    mode_->addItem(tr("Group mean colour"), static_cast<int>(GroupOverlay::ColourMode::GroupMean));
    mode_->setAccessibleName(tr("Overlay colours"));
    outlines_ = new QCheckBox(tr("O&utlines"), this);
    outlines_->setChecked(overlay->showOutlines());

    auto* label = new QLabel(tr("&Opacity:"), this);
    label->setBuddy(opacity_);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(4, 2, 4, 2);
    row->addWidget(label);
    row->addWidget(opacity_);
    row->addSpacing(12);
    row->addWidget(mode_);
    row->addWidget(outlines_);
    row->addStretch(1);
    row->addWidget(new QLabel(tr("Click a patch to highlight its group in all frames; hatched "
                                 "patches were dropped."),
                              this));

    connect(opacity_, &QSlider::valueChanged, overlay_,
            [this](int v) { overlay_->setOpacity(v / 100.0); });
    connect(mode_, &QComboBox::currentIndexChanged, overlay_, [this] {
        overlay_->setColourMode(
            static_cast<GroupOverlay::ColourMode>(mode_->currentData().toInt()));
    });
    connect(outlines_, &QCheckBox::toggled, overlay_, &GroupOverlay::setShowOutlines);
}

}  // namespace once::studio
