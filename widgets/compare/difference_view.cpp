#include "compare/difference_view.h"

#include <QPainter>

#include "analysis/group_difference.h"
#include "overlay/group_overlay.h"
#include "overlay/overlay_painter.h"

namespace once::studio {

DifferenceView::DifferenceView(const GroupOverlay* frames, QWidget* parent)
    : QWidget(parent), frames_(frames) {
    connect(frames_, &GroupOverlay::changed, this, qOverload<>(&QWidget::update));
    connect(frames_, &GroupOverlay::currentFrameChanged, this, qOverload<>(&QWidget::update));
}

void DifferenceView::setStates(std::vector<std::uint8_t> states) {
    states_ = std::move(states);
    update();
}

QColor DifferenceView::stateColour(std::uint8_t state) {
    switch (state) {
        case GroupDifference::Moved:
            return QColor(255, 140, 0, 190);
        case GroupDifference::DroppedInA:
            return QColor(40, 110, 255, 190);
        case GroupDifference::DroppedInB:
            return QColor(220, 30, 60, 190);
        case GroupDifference::DroppedInBoth:
            return QColor(60, 60, 60, 190);
        default:
            return QColor(0, 0, 0, 0);
    }
}

QRectF DifferenceView::frameRect() const {
    return fitAspect(QRectF(rect()).adjusted(2, 2, -2, -2), frames_->aspectRatio());
}

void DifferenceView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Window));
    const QRectF target = frameRect();
    const int t = frames_->currentFrame();
    const QImage image = frames_->frameImage(t);
    if (image.isNull()) {
        painter.fillRect(target, QColor(128, 128, 128));
    } else {
        // Dimmed, so the coloured patches read as the figure and the frame as its ground.
        painter.drawImage(target, image);
        painter.fillRect(target, QColor(0, 0, 0, 90));
    }
    const int gh = frames_->gridH(), gw = frames_->gridW(), p = gh * gw;
    if (gh <= 0 || gw <= 0 || static_cast<int>(states_.size()) < (t + 1) * p) {
        return;
    }
    const double cw = target.width() / gw, ch = target.height() / gh;
    for (int i = 0; i < p; ++i) {
        const QColor c = stateColour(states_[static_cast<std::size_t>(t * p + i)]);
        if (c.alpha() > 0) {
            painter.fillRect(
                QRectF(target.left() + (i % gw) * cw, target.top() + (i / gw) * ch, cw, ch), c);
        }
    }
}

}  // namespace once::studio
