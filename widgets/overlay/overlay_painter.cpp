#include "overlay/overlay_painter.h"

#include <QPainter>
#include <QVector>

#include "overlay/group_overlay.h"

namespace once::studio {

QRectF fitAspect(const QRectF& bounds, double aspect) {
    if (bounds.isEmpty() || aspect <= 0) {
        return bounds;
    }
    double w = bounds.width();
    double h = w / aspect;
    if (h > bounds.height()) {
        h = bounds.height();
        w = h * aspect;
    }
    return QRectF(bounds.center().x() - w / 2, bounds.center().y() - h / 2, w, h);
}

int patchAt(const QRectF& target, int gridH, int gridW, const QPointF& point) {
    if (!target.contains(point) || gridH <= 0 || gridW <= 0) {
        return -1;
    }
    const int col =
        std::min(gridW - 1, static_cast<int>((point.x() - target.left()) / target.width() * gridW));
    const int row =
        std::min(gridH - 1, static_cast<int>((point.y() - target.top()) / target.height() * gridH));
    return row * gridW + col;
}

void paintFrameOverlay(QPainter& painter, const QRectF& target, const GroupOverlay& overlay,
                       int frame, const OverlayPaintOptions& options) {
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, true);
    const QImage image = options.picture.isNull() ? overlay.frameImage(frame) : options.picture;
    if (image.isNull()) {
        painter.fillRect(target, QColor(128, 128, 128));  // features alone: neutral background
    } else {
        painter.drawImage(target, image);
    }
    const int gh = overlay.gridH(), gw = overlay.gridW();
    if (!overlay.hasResult() || gh <= 0 || gw <= 0) {
        painter.restore();
        return;
    }
    const int p = gh * gw;
    const double cw = target.width() / gw, ch = target.height() / gh;
    auto cell = [&](int r, int c) {
        // Integer-aligned edges so neighbouring patches leave no hairline gaps.
        const double x0 = std::floor(target.left() + c * cw),
                     x1 = std::floor(target.left() + (c + 1) * cw);
        const double y0 = std::floor(target.top() + r * ch),
                     y1 = std::floor(target.top() + (r + 1) * ch);
        return QRectF(x0, y0, x1 - x0, y1 - y0);
    };
    const int base = frame * p;
    // The selection: an output group, or the codebook explorer's codeword (its assigned patches).
    const bool selection = overlay.hasSelection();
    const bool dim = options.dimUnselected && selection;
    const double alpha = overlay.opacity();

    painter.setPen(Qt::NoPen);
    for (int r = 0; r < gh; ++r) {
        for (int c = 0; c < gw; ++c) {
            const int token = base + r * gw + c;
            const QRectF rect = cell(r, c);
            QColor fill = overlay.fillColour(token);
            fill.setAlphaF(static_cast<float>(alpha));
            painter.fillRect(rect, fill);
            if (overlay.isDropped(token)) {
                // Dropped tokens (no-reassign) are hatched so they never read as a group.
                painter.fillRect(rect, QBrush(QColor(235, 235, 235, 200), Qt::DiagCrossPattern));
            }
            if (dim && !overlay.isSelectedToken(token)) {
                painter.fillRect(rect, QColor(0, 0, 0, 110));
            }
        }
    }

    const bool bigEnough = cw >= 4 && ch >= 4;
    QVector<QLineF> borders, selectedBorders;
    for (int r = 0; r < gh; ++r) {
        for (int c = 0; c < gw; ++c) {
            const int token = base + r * gw + c;
            const int g = overlay.groupOfToken(token);
            const QRectF rect = cell(r, c);
            // Right and bottom edges where the group changes; frame edges for the selection.
            const int right = c + 1 < gw ? overlay.groupOfToken(token + 1) : -2;
            const int below = r + 1 < gh ? overlay.groupOfToken(token + gw) : -2;
            if (options.outlines && overlay.showOutlines() && bigEnough) {
                if (right != -2 && right != g) {
                    borders << QLineF(rect.topRight(), rect.bottomRight());
                }
                if (below != -2 && below != g) {
                    borders << QLineF(rect.bottomLeft(), rect.bottomRight());
                }
            }
            if (selection) {
                // Edges between a selected and an unselected patch, and the frame's edges of a
                // selected one.
                const bool in = overlay.isSelectedToken(token);
                if (right == -2 ? in : in != overlay.isSelectedToken(token + 1)) {
                    selectedBorders << QLineF(rect.topRight(), rect.bottomRight());
                }
                if (below == -2 ? in : in != overlay.isSelectedToken(token + gw)) {
                    selectedBorders << QLineF(rect.bottomLeft(), rect.bottomRight());
                }
                if (in && c == 0) {
                    selectedBorders << QLineF(rect.topLeft(), rect.bottomLeft());
                }
                if (in && r == 0) {
                    selectedBorders << QLineF(rect.topLeft(), rect.topRight());
                }
            }
        }
    }
    if (!borders.isEmpty()) {
        painter.setPen(QPen(QColor(255, 255, 255, 150), 1.0));
        painter.drawLines(borders);
    }
    if (!selectedBorders.isEmpty()) {
        painter.setPen(QPen(QColor(255, 230, 0), bigEnough ? 2.0 : 1.0));
        painter.drawLines(selectedBorders);
    }
    // The inspected patch (view 15): a ring, dark then light, visible on any colour.
    const int inspected = overlay.inspectedToken() - base;
    if (inspected >= 0 && inspected < p) {
        const QRectF rect = cell(inspected / gw, inspected % gw);
        const double inset = -std::max(2.0, std::min(rect.width(), rect.height()) * 0.15);
        const QRectF ring = rect.adjusted(inset, inset, -inset, -inset);
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(QColor(0, 0, 0, 200), 3.0));
        painter.drawEllipse(ring);
        painter.setPen(QPen(QColor(255, 255, 255), 1.5));
        painter.drawEllipse(ring);
    }
    painter.restore();
}

}  // namespace once::studio
