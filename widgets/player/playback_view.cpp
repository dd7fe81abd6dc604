#include "player/playback_view.h"

#include <QPainter>

#include "overlay/group_overlay.h"
#include "overlay/overlay_painter.h"

namespace once::studio {

PlaybackView::PlaybackView(GroupOverlay* overlay, QWidget* parent)
    : QWidget(parent), overlay_(overlay) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(160, 90);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    // New groups, opacity, colour mode, selection: drawn as the main view draws them.
    connect(overlay_, &GroupOverlay::changed, this, qOverload<>(&QWidget::update));
    connect(overlay_, &GroupOverlay::selectionChanged, this, qOverload<>(&QWidget::update));
    connect(overlay_, &GroupOverlay::inspectedTokenChanged, this, qOverload<>(&QWidget::update));
}

void PlaybackView::setFrame(const QImage& image, double time) {
    image_ = image;
    time_ = time;
    update();
}

void PlaybackView::setShowsGroups(bool on) {
    showsGroups_ = on;
    update();
}

int PlaybackView::groupsFrame() const {
    if (!showsGroups_ || image_.isNull() || time_ < 0 || !overlay_->hasResult()) {
        return -1;
    }
    return overlay_->frameAtTime(time_);
}

void PlaybackView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), Qt::black);
    if (image_.isNull()) {
        return;
    }
    const QSize fitted = image_.size().scaled(size(), Qt::KeepAspectRatio);
    const QRect target(QPoint((width() - fitted.width()) / 2, (height() - fitted.height()) / 2),
                       fitted);
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    const int sampled = groupsFrame();
    if (sampled < 0) {
        p.drawImage(target, image_);
        return;
    }
    OverlayPaintOptions options;
    options.picture = image_;
    paintFrameOverlay(p, QRectF(target), *overlay_, sampled, options);
}

}  // namespace once::studio
