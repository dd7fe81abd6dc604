#include "overlay/frame_overlay_view.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include "overlay/overlay_painter.h"

namespace once::studio {

FrameOverlayView::FrameOverlayView(GroupOverlay* overlay, QWidget* parent)
    : QWidget(parent), overlay_(overlay) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAccessibleName(tr("Frame with codeword groups"));
    connect(overlay_, &GroupOverlay::changed, this, qOverload<>(&QWidget::update));
    connect(overlay_, &GroupOverlay::currentFrameChanged, this, qOverload<>(&QWidget::update));
}

QRectF FrameOverlayView::frameRect() const {
    const QRectF bounds = QRectF(rect()).adjusted(8, 28, -8, -8);
    return fitAspect(bounds, overlay_->aspectRatio());
}

QPoint FrameOverlayView::patchCentre(int patch) const {
    const QRectF r = frameRect();
    const int gw = std::max(1, overlay_->gridW()), gh = std::max(1, overlay_->gridH());
    const double x = r.left() + (patch % gw + 0.5) * r.width() / gw;
    const double y = r.top() + (patch / gw + 0.5) * r.height() / gh;
    return QPointF(x, y).toPoint();
}

void FrameOverlayView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Window).darker(160));
    if (overlay_->frameCount() == 0) {
        painter.setPen(palette().color(QPalette::BrightText));
        painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                         tr("Open a video or load the demo (File ▸ Load Demo) to see how ONCE "
                            "groups its tokens."));
        return;
    }
    const int t = overlay_->currentFrame();
    const QRectF target = frameRect();
    paintFrameOverlay(painter, target, *overlay_, t);

    QString header = tr("Frame %1 of %2 · %3 s")
                         .arg(t + 1)
                         .arg(overlay_->frameCount())
                         .arg(overlay_->frameTime(t), 0, 'f', 1);
    if (!overlay_->hasResult()) {
        header += QStringLiteral(" · ") + (overlay_->emptyText().isEmpty()
                                               ? tr("no codebook: open one to see the groups")
                                               : overlay_->emptyText());
    }
    const int selected = overlay_->selectedGroup();
    if (selected >= 0 && overlay_->codewordOfGroup(selected) >= 0) {
        header += QStringLiteral(" · ") + tr("group #%1 (codeword %2): %3 patches in this frame")
                                              .arg(selected + 1)
                                              .arg(overlay_->codewordOfGroup(selected))
                                              .arg(overlay_->membersInFrame(selected, t));
    } else if (selected >= 0) {
        header += QStringLiteral(" · ") + tr("group #%1: %2 patches in this frame")
                                              .arg(selected + 1)
                                              .arg(overlay_->membersInFrame(selected, t));
    }
    painter.setPen(palette().color(QPalette::BrightText));
    painter.drawText(QRectF(8, 4, width() - 16, 22), Qt::AlignLeft | Qt::AlignVCenter, header);
}

PatchInfo FrameOverlayView::infoAt(const QPointF& pos) const {
    const int patch = patchAt(frameRect(), overlay_->gridH(), overlay_->gridW(), pos);
    if (patch < 0) {
        return {};
    }
    return overlay_->patchInfo(overlay_->currentFrame(), patch);
}

QString FrameOverlayView::describe(const PatchInfo& info) const {
    if (!info.valid) {
        return {};
    }
    QString text = tr("Frame %1, patch (%2, %3)").arg(info.frame + 1).arg(info.row).arg(info.col);
    // Methods without codewords or residuals (the peers) show a dash in their place.
    const QString none = QStringLiteral("—");
    if (info.dropped && info.hasCodeword) {
        text += QLatin1Char('\n') +
                tr("Dropped: its nearest codeword %1 is not selected").arg(info.codeword);
    } else if (info.dropped) {
        text += QLatin1Char('\n') + tr("Dropped: in no output token");
    } else {
        text +=
            QLatin1Char('\n') + tr("Group rank %1 · codeword %2 · %3 tokens")
                                    .arg(info.rank + 1)
                                    .arg(info.hasCodeword ? QString::number(info.codeword) : none)
                                    .arg(info.groupSize);
    }
    text += QLatin1Char('\n') +
            tr("Cosine residual %1")
                .arg(info.hasResidual ? QString::number(info.residual, 'f', 4) : none);
    return text;
}

void FrameOverlayView::mouseMoveEvent(QMouseEvent* event) {
    const PatchInfo info = infoAt(event->position());
    const int patch = info.valid ? info.patch : -1;
    if (patch != hoveredPatch_) {
        hoveredPatch_ = patch;
        emit patchHovered(info);
        if (info.valid) {
            QToolTip::showText(event->globalPosition().toPoint(), describe(info), this);
        } else {
            QToolTip::hideText();
        }
    }
}

void FrameOverlayView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) {
        return;
    }
    const int patch = patchAt(frameRect(), overlay_->gridH(), overlay_->gridW(), event->position());
    if (patch >= 0) {
        overlay_->toggleSelectionAt(overlay_->currentFrame(), patch);
    } else {
        overlay_->setSelectedCodeword(-1);
    }
}

void FrameOverlayView::leaveEvent(QEvent*) {
    hoveredPatch_ = -1;
    emit patchHovered({});
}

void FrameOverlayView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
        case Qt::Key_Left:
            overlay_->setCurrentFrame(overlay_->currentFrame() - 1);
            break;
        case Qt::Key_Right:
            overlay_->setCurrentFrame(overlay_->currentFrame() + 1);
            break;
        case Qt::Key_Home:
            overlay_->setCurrentFrame(0);
            break;
        case Qt::Key_End:
            overlay_->setCurrentFrame(overlay_->frameCount() - 1);
            break;
        case Qt::Key_Escape:
            overlay_->setSelectedCodeword(-1);
            break;
        default:
            QWidget::keyPressEvent(event);
    }
}

}  // namespace once::studio
