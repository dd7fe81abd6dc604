#include "overlay/frame_overlay_view.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QKeyEvent>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QProgressDialog>
#include <QStandardPaths>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

#include "common/export_folder.h"
#include "overlay/overlay_export.h"
#include "overlay/overlay_painter.h"

namespace once::studio {
namespace {
constexpr double kWheelStep = 1.25;  // zoom factor per wheel notch and per +/−
constexpr int kDragThreshold = 4;    // pixels before a press becomes a pan instead of a click
}  // namespace

FrameOverlayView::FrameOverlayView(GroupOverlay* overlay, QWidget* parent)
    : QWidget(parent), overlay_(overlay) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAccessibleName(tr("Frame with codeword groups"));
    setToolTip(QString());
    // What is under a still mouse changes with the frame, the budget or the method: the hover
    // text follows instead of describing the patch of before (issue 16).
    connect(overlay_, &GroupOverlay::changed, this, [this] {
        refreshHover();
        update();
    });
    connect(overlay_, &GroupOverlay::currentFrameChanged, this, [this] {
        refreshHover();
        update();
    });
}

QRectF FrameOverlayView::fittedRect() const {
    const QRectF bounds = QRectF(rect()).adjusted(8, 28, -8, -8);
    return fitAspect(bounds, overlay_->aspectRatio());
}

QRectF FrameOverlayView::frameRect() const {
    const QRectF fitted = fittedRect();
    if (zoom_ <= 1.0) {
        return fitted;
    }
    const QSizeF size = fitted.size() * zoom_;
    const QPointF centre = fitted.center() + pan_;
    return QRectF(centre.x() - size.width() / 2, centre.y() - size.height() / 2, size.width(),
                  size.height());
}

QPoint FrameOverlayView::patchCentre(int patch) const {
    const QRectF r = frameRect();
    const int gw = std::max(1, overlay_->gridW()), gh = std::max(1, overlay_->gridH());
    const double x = r.left() + (patch % gw + 0.5) * r.width() / gw;
    const double y = r.top() + (patch / gw + 0.5) * r.height() / gh;
    return QPointF(x, y).toPoint();
}

void FrameOverlayView::clampPan() {
    // A zoomed frame always covers its fitted rectangle: no panning into the void.
    const QRectF fitted = fittedRect();
    const double mx = fitted.width() * (zoom_ - 1) / 2, my = fitted.height() * (zoom_ - 1) / 2;
    pan_.setX(std::clamp(pan_.x(), -mx, mx));
    pan_.setY(std::clamp(pan_.y(), -my, my));
}

void FrameOverlayView::zoomBy(double factor, const QPointF& anchor) {
    const double z = std::clamp(zoom_ * factor, 1.0, kMaxZoom);
    if (z == zoom_) {
        return;
    }
    // Keep the frame point under the anchor in place: it sits at a fixed fraction of the frame.
    const QRectF before = frameRect();
    const QPointF fraction((anchor.x() - before.left()) / before.width(),
                           (anchor.y() - before.top()) / before.height());
    zoom_ = z;
    const QRectF fitted = fittedRect();
    const QSizeF size = fitted.size() * zoom_;
    const QPointF topLeft(anchor.x() - fraction.x() * size.width(),
                          anchor.y() - fraction.y() * size.height());
    pan_ = topLeft + QPointF(size.width() / 2, size.height() / 2) - fitted.center();
    clampPan();
    refreshHover();
    update();
}

void FrameOverlayView::resetZoom() {
    zoom_ = 1.0;
    pan_ = {};
    refreshHover();
    update();
}

void FrameOverlayView::panBy(const QPointF& delta) {
    pan_ += delta;
    clampPan();
    refreshHover();
    update();
}

void FrameOverlayView::resizeEvent(QResizeEvent* event) {
    clampPan();
    QWidget::resizeEvent(event);
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
    painter.save();
    painter.setClipRect(QRect(0, 28, width(), height() - 28));  // a zoomed frame: not the header
    paintFrameOverlay(painter, frameRect(), *overlay_, t);
    painter.restore();

    QString header = tr("Frame %1 of %2 · %3 s")
                         .arg(t + 1)
                         .arg(overlay_->frameCount())
                         .arg(overlay_->frameTime(t), 0, 'f', 1);
    if (zoom_ > 1.0) {
        header += QStringLiteral(" · ") + tr("zoom %1×").arg(zoom_, 0, 'f', 1);
    }
    if (!overlay_->hasResult()) {
        header += QStringLiteral(" · ") + (overlay_->emptyText().isEmpty()
                                               ? tr("no codebook: open one to see the groups")
                                               : overlay_->emptyText());
    }
    const int selected = overlay_->selectedGroup();
    const int members = overlay_->selectedMembersInFrame(t);
    if (overlay_->highlightsCodeword()) {
        header += QStringLiteral(" · ") +
                  (overlay_->hasAssignment()
                       ? tr("codeword %1: %n assigned patch(es) in this frame", "", members)
                             .arg(overlay_->selectedCodeword())
                       : tr("codeword %1: its patches show with the ONCE method")
                             .arg(overlay_->selectedCodeword()));
    } else if (selected >= 0 && overlay_->codewordOfGroup(selected) >= 0) {
        header += QStringLiteral(" · ") +
                  tr("group #%1 (codeword %2): %n patch(es) in this frame", "", members)
                      .arg(selected + 1)
                      .arg(overlay_->codewordOfGroup(selected));
    } else if (selected >= 0) {
        header += QStringLiteral(" · ") +
                  tr("group #%1: %n patch(es) in this frame", "", members).arg(selected + 1);
    }
    painter.setPen(palette().color(QPalette::BrightText));
    const QRectF headerBox(8, 4, width() - 16, 22);
    painter.drawText(headerBox, Qt::AlignLeft | Qt::AlignVCenter,
                     painter.fontMetrics().elidedText(header, Qt::ElideRight,
                                                      static_cast<int>(headerBox.width())));
}

PatchInfo FrameOverlayView::infoAt(const QPointF& pos) const {
    if (pos.y() < 28) {
        return {};  // the header line covers a zoomed frame
    }
    const int patch = patchAt(frameRect(), overlay_->gridH(), overlay_->gridW(), pos);
    if (patch < 0 || overlay_->frameCount() == 0) {
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
            QLatin1Char('\n') +
            tr("Group rank %1 · codeword %2 · %n token(s)", "", static_cast<int>(info.groupSize))
                .arg(info.rank + 1)
                .arg(info.hasCodeword ? QString::number(info.codeword) : none);
    }
    text += QLatin1Char('\n') +
            tr("Cosine residual %1")
                .arg(info.hasResidual ? QString::number(info.residual, 'f', 4) : none);
    return text;
}

void FrameOverlayView::setHover(const PatchInfo& info, const QPoint& globalPos, bool showTip) {
    hoveredPatch_ = info.valid ? info.patch : -1;
    hoverText_ = describe(info);
    emit patchHovered(info);
    if (!info.valid) {
        QToolTip::hideText();
    } else if (showTip) {
        QToolTip::showText(globalPos, hoverText_, this);
    }
}

void FrameOverlayView::refreshHover() {
    if (!mouseInside_) {
        return;
    }
    const PatchInfo info = infoAt(mousePos_);
    const QString text = describe(info);
    if (text == hoverText_ && (info.valid ? info.patch : -1) == hoveredPatch_) {
        return;
    }
    // A tooltip on screen is replaced; none is opened without a mouse move.
    setHover(info, mapToGlobal(mousePos_.toPoint()), QToolTip::isVisible());
}

void FrameOverlayView::mouseMoveEvent(QMouseEvent* event) {
    mouseInside_ = true;
    const QPointF pos = event->position();
    if (pressed_ && (event->buttons() & (Qt::LeftButton | Qt::MiddleButton))) {
        if (!dragged_ && (pos - pressPos_).manhattanLength() >= kDragThreshold && zoom_ > 1.0) {
            dragged_ = true;
            setCursor(Qt::ClosedHandCursor);
        }
        if (dragged_) {
            panBy(pos - mousePos_);
        }
    }
    mousePos_ = pos;
    const PatchInfo info = infoAt(pos);
    const int patch = info.valid ? info.patch : -1;
    if (patch != hoveredPatch_ || describe(info) != hoverText_) {
        setHover(info, event->globalPosition().toPoint(), true);
    }
}

void FrameOverlayView::mousePressEvent(QMouseEvent* event) {
    mouseInside_ = true;
    mousePos_ = event->position();
    if (event->button() == Qt::LeftButton || event->button() == Qt::MiddleButton) {
        pressed_ = true;
        dragged_ = false;
        pressPos_ = event->position();
    }
}

void FrameOverlayView::mouseReleaseEvent(QMouseEvent* event) {
    const bool click = pressed_ && !dragged_ && event->button() == Qt::LeftButton;
    pressed_ = false;
    if (dragged_) {
        dragged_ = false;
        unsetCursor();
        return;
    }
    if (!click) {
        return;
    }
    // Selection on release, so that a press which turns into a drag pans instead.
    const PatchInfo info = infoAt(event->position());
    if (info.valid) {
        overlay_->toggleSelectionAt(overlay_->currentFrame(), info.patch);
        overlay_->setInspectedToken(info.frame * overlay_->patchesPerFrame() + info.patch);
    } else {
        overlay_->setSelectedCodeword(-1);
    }
}

void FrameOverlayView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && zoom_ > 1.0) {
        resetZoom();
        pressed_ = false;  // the release that follows is not a click
        return;
    }
    mousePressEvent(event);
}

void FrameOverlayView::wheelEvent(QWheelEvent* event) {
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0 || overlay_->frameCount() == 0) {
        event->ignore();
        return;
    }
    zoomBy(std::pow(kWheelStep, notches), event->position());
    event->accept();
}

void FrameOverlayView::leaveEvent(QEvent*) {
    mouseInside_ = false;
    hoveredPatch_ = -1;
    hoverText_.clear();
    emit patchHovered({});
}

void FrameOverlayView::keyPressEvent(QKeyEvent* event) {
    const QPointF centre = QRectF(rect()).center();
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
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            zoomBy(kWheelStep, centre);
            break;
        case Qt::Key_Minus:
            zoomBy(1.0 / kWheelStep, centre);
            break;
        case Qt::Key_0:
            resetZoom();
            break;
        default:
            QWidget::keyPressEvent(event);
    }
}

QMenu* FrameOverlayView::createContextMenu(const QPoint& pos) {
    auto* menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("frameViewContextMenu"));
    const bool haveFrames = overlay_->frameCount() > 0;
    const PatchInfo info = infoAt(pos);
    QAction* select = menu->addAction(tr("&Select This Group"), this, [this, info] {
        if (info.valid &&
            overlay_->groupOfToken(info.frame * overlay_->patchesPerFrame() + info.patch) >= 0) {
            overlay_->setSelectedCodeword(-1);
            overlay_->toggleSelectionAt(info.frame, info.patch);
        }
    });
    select->setEnabled(info.valid && !info.dropped);
    QAction* inspect = menu->addAction(tr("&Inspect This Patch"), this, [this, info] {
        if (info.valid) {
            const int token = info.frame * overlay_->patchesPerFrame() + info.patch;
            overlay_->setInspectedToken(token);
            emit inspectRequested(token);
        }
    });
    inspect->setEnabled(info.valid);
    QAction* clear = menu->addAction(tr("C&lear Selection"), this,
                                     [this] { overlay_->setSelectedCodeword(-1); });
    clear->setEnabled(overlay_->selectedCodeword() >= 0);
    // The group's codeword in the codebook explorer (ONCE only: peers have no codewords).
    const std::int64_t codeword = info.valid && info.hasCodeword ? info.codeword : -1;
    QAction* show =
        menu->addAction(codeword >= 0 ? tr("Show Codeword %1 in the &Codebook View").arg(codeword)
                                      : tr("Show Codeword in the &Codebook View"),
                        this, [this, codeword] { emit codewordRequested(codeword); });
    show->setEnabled(codeword >= 0);
    menu->addSeparator();
    const QPointF anchor = pos;
    menu->addAction(tr("Zoom &In"), this, [this, anchor] { zoomBy(kWheelStep, anchor); })
        ->setEnabled(haveFrames && zoom_ < kMaxZoom);
    menu->addAction(tr("Zoom &Out"), this, [this, anchor] { zoomBy(1.0 / kWheelStep, anchor); })
        ->setEnabled(zoom_ > 1.0);
    menu->addAction(tr("&Fit Frame"), this, &FrameOverlayView::resetZoom)->setEnabled(zoom_ > 1.0);
    menu->addSeparator();
    // The exports open dialogs with event loops of their own: they run once the menu has
    // closed and returned from its mouse release (issue 30: run from inside it, the menu was
    // deleted on close under its own mouse event and the studio crashed).
    auto afterMenu = [this, menu](const QString& text, void (FrameOverlayView::*slot)()) {
        QAction* a = menu->addAction(text);
        connect(a, &QAction::triggered, this, slot, Qt::QueuedConnection);
        return a;
    };
    const QList<QAction*> exports = {
        menu->addAction(tr("&Copy Frame Image"), this, &FrameOverlayView::copyCurrentFrame),
        afterMenu(tr("Export &Frame Image…"), &FrameOverlayView::exportCurrentFrame),
        afterMenu(tr("Export &All Frames as a Grid…"), &FrameOverlayView::exportAllFramesGrid),
        afterMenu(tr("Export the S&trip…"), &FrameOverlayView::exportStrip),
        afterMenu(tr("Export Frames as an Image &Sequence…"),
                  &FrameOverlayView::exportFrameSequence)};
    for (QAction* a : exports) {
        a->setEnabled(haveFrames);
    }
    return menu;
}

void FrameOverlayView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu* menu = createContextMenu(event->pos());
    // Deleted once hidden and back in the event loop, never inside its own event handler.
    connect(menu, &QMenu::aboutToHide, menu, &QObject::deleteLater);
    menu->popup(event->globalPos());
}

QString FrameOverlayView::askSavePath(const QString& title, const QString& name) {
    const QString path =
        QFileDialog::getSaveFileName(this, title, exportPath(name, QStandardPaths::PicturesLocation),
                                     tr("PNG image (*.png);;JPEG image (*.jpg)"));
    rememberExportFile(path);
    return path;
}

void FrameOverlayView::copyCurrentFrame() {
    if (overlay_->frameCount() > 0) {
        QApplication::clipboard()->setImage(
            renderOverlayFrame(*overlay_, overlay_->currentFrame()));
    }
}

void FrameOverlayView::exportCurrentFrame() {
    const int t = overlay_->currentFrame();
    const QString path =
        askSavePath(tr("Export Frame Image"), QStringLiteral("overlay_frame_%1.png").arg(t + 1));
    QString error;
    if (!path.isEmpty() && !saveOverlayImage(renderOverlayFrame(*overlay_, t), path, &error)) {
        QMessageBox::warning(this, tr("Export failed"), error);
    }
}

void FrameOverlayView::exportAllFramesGrid() {
    const QString path = askSavePath(tr("Export All Frames"), QStringLiteral("overlay_grid.png"));
    QString error;
    if (!path.isEmpty() && !saveOverlayImage(renderOverlayGrid(*overlay_), path, &error)) {
        QMessageBox::warning(this, tr("Export failed"), error);
    }
}

void FrameOverlayView::exportStrip() {
    const QString path = askSavePath(tr("Export Strip"), QStringLiteral("overlay_strip.png"));
    QString error;
    if (!path.isEmpty() && !saveOverlayImage(renderOverlayStrip(*overlay_), path, &error)) {
        QMessageBox::warning(this, tr("Export failed"), error);
    }
}

void FrameOverlayView::exportFrameSequence() {
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Export Frames as an Image Sequence (choose an empty folder)"),
        exportFolder(QStandardPaths::PicturesLocation));
    if (dir.isEmpty()) {
        return;
    }
    rememberExportFolder(dir);
    QProgressDialog progress(tr("Writing overlay frames…"), tr("Cancel"), 0, overlay_->frameCount(),
                             this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(500);
    QString error;
    const int written = exportOverlaySequence(*overlay_, dir, QStringLiteral("overlay"), &error,
                                              [&progress](int done, int) {
                                                  progress.setValue(done);
                                                  return !progress.wasCanceled();
                                              });
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Export failed"), error);
    } else if (written == overlay_->frameCount()) {
        QMessageBox::information(
            this, tr("Frames exported"),
            tr("%n frame(s) written to %1 as overlay_0001.png, …. To make a video of them:\n%2", "",
               written)
                .arg(QDir::toNativeSeparators(dir),
                     QStringLiteral("ffmpeg -framerate 2 -i overlay_%04d.png -pix_fmt yuv420p "
                                    "overlay.mp4")));
    }
}

}  // namespace once::studio
