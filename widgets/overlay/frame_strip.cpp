#include "overlay/frame_strip.h"

#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>

#include "overlay/group_overlay.h"
#include "overlay/overlay_painter.h"

namespace once::studio {

FrameStrip::FrameStrip(GroupOverlay* overlay, QWidget* parent)
    : QAbstractScrollArea(parent), overlay_(overlay) {
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setAccessibleName(tr("Sampled frames"));
    connect(overlay_, &GroupOverlay::changed, this, [this] {
        updateScrollRange();
        viewport()->update();
    });
    connect(overlay_, &GroupOverlay::currentFrameChanged, this, [this](int t) {
        ensureVisible(t);
        viewport()->update();
    });
    connect(horizontalScrollBar(), &QScrollBar::valueChanged, viewport(),
            qOverload<>(&QWidget::update));
}

QSize FrameStrip::sizeHint() const {
    return {720, 132};
}
QSize FrameStrip::minimumSizeHint() const {
    // One row of the smallest thumbnails (thumbHeight()) and the scroll bar: with the frame
    // view's minimum, the window still fits 1366 x 768 at QT_SCALE_FACTOR=2 (683 x 384).
    return {120, 48};
}

int FrameStrip::thumbHeight() const {
    return std::max(24, viewport()->height() - 2 * kSpacing);
}

int FrameStrip::thumbWidth() const {
    return std::max(24, static_cast<int>(thumbHeight() * overlay_->aspectRatio()));
}

QRect FrameStrip::thumbnailRect(int t) const {
    const int x = kSpacing + t * (thumbWidth() + kSpacing) - horizontalScrollBar()->value();
    return QRect(x, kSpacing, thumbWidth(), thumbHeight());
}

int FrameStrip::frameAt(const QPoint& pos) const {
    for (int t = 0; t < overlay_->frameCount(); ++t) {
        if (thumbnailRect(t).contains(pos)) {
            return t;
        }
    }
    return -1;
}

void FrameStrip::updateScrollRange() {
    const int total = kSpacing + overlay_->frameCount() * (thumbWidth() + kSpacing);
    horizontalScrollBar()->setRange(0, std::max(0, total - viewport()->width()));
    horizontalScrollBar()->setPageStep(viewport()->width());
    horizontalScrollBar()->setSingleStep(thumbWidth() + kSpacing);
}

void FrameStrip::ensureVisible(int t) {
    const QRect r = thumbnailRect(t);
    QScrollBar* bar = horizontalScrollBar();
    if (r.left() < 0) {
        bar->setValue(bar->value() + r.left() - kSpacing);
    } else if (r.right() > viewport()->width()) {
        bar->setValue(bar->value() + r.right() - viewport()->width() + kSpacing);
    }
}

void FrameStrip::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    updateScrollRange();
}

void FrameStrip::paintEvent(QPaintEvent*) {
    QPainter painter(viewport());
    painter.fillRect(viewport()->rect(), palette().color(QPalette::Base));
    const bool selection = overlay_->hasSelection();
    OverlayPaintOptions options;
    options.outlines = false;  // thumbnails: borders would only add noise
    for (int t = 0; t < overlay_->frameCount(); ++t) {
        const QRect r = thumbnailRect(t);
        if (r.right() < 0 || r.left() > viewport()->width()) {
            continue;
        }
        paintFrameOverlay(painter, r, *overlay_, t, options);
        if (t == overlay_->currentFrame()) {
            painter.setPen(QPen(palette().color(QPalette::Highlight), 3));
            painter.drawRect(r.adjusted(-2, -2, 1, 1));
        }
        if (selection) {
            const int members = overlay_->selectedMembersInFrame(t);
            const QString badge = QString::number(members);
            const QRect b(r.left() + 2, r.top() + 2, 8 + 7 * badge.size(), 16);
            painter.fillRect(b, members > 0 ? QColor(255, 230, 0) : QColor(80, 80, 80));
            painter.setPen(members > 0 ? Qt::black : Qt::white);
            painter.drawText(b, Qt::AlignCenter, badge);
        }
    }
}

void FrameStrip::mousePressEvent(QMouseEvent* event) {
    const int t = frameAt(event->position().toPoint());
    if (t >= 0) {
        overlay_->setCurrentFrame(t);
    }
}

void FrameStrip::wheelEvent(QWheelEvent* event) {
    // A vertical wheel scrolls the horizontal strip (there is nothing to scroll vertically).
    const int delta =
        event->angleDelta().y() != 0 ? event->angleDelta().y() : event->angleDelta().x();
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta);
    event->accept();
}

}  // namespace once::studio
