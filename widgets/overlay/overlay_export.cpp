#include "overlay/overlay_export.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QImageWriter>
#include <QPainter>
#include <cmath>

#include "overlay/group_overlay.h"
#include "overlay/overlay_painter.h"
#include "session/atomic_save.h"

namespace once::studio {
// The translation context of the export messages.
class OverlayExport {
    Q_DECLARE_TR_FUNCTIONS(OverlayExport)
};

namespace {

QString caption(const GroupOverlay& overlay, int t) {
    return OverlayExport::tr("Frame %1 · %2 s").arg(t + 1).arg(overlay.frameTime(t), 0, 'f', 1);
}

int captionHeight(int frameWidth) {
    return std::clamp(frameWidth / 12, 16, 40);
}

void drawCaption(QPainter& p, const QRect& box, const QString& text) {
    QFont f = p.font();
    f.setPixelSize(std::max(10, box.height() * 2 / 3));
    p.setFont(f);
    p.setPen(Qt::black);
    p.drawText(box, Qt::AlignCenter, text);
}

QString sequenceName(const QString& prefix, int t) {
    return QStringLiteral("%1_%2.png").arg(prefix).arg(t + 1, 4, 10, QLatin1Char('0'));
}
}  // namespace

QSize overlayFrameSize(const GroupOverlay& overlay) {
    const QImage first = overlay.frameImage(0);
    QSize s = first.isNull()
                  ? QSize(std::max(1, overlay.gridW()) * OverlayExportLimits::kPixelsPerPatch,
                          std::max(1, overlay.gridH()) * OverlayExportLimits::kPixelsPerPatch)
                  : first.size();
    if (s.width() > OverlayExportLimits::kMaxFrameWidth) {
        s = s.scaled(OverlayExportLimits::kMaxFrameWidth, s.height(), Qt::KeepAspectRatio);
    }
    return s.expandedTo(QSize(1, 1));
}

QImage renderOverlayFrame(const GroupOverlay& overlay, int t) {
    QImage image(overlayFrameSize(overlay), QImage::Format_RGB32);
    image.fill(Qt::black);
    if (t < 0 || t >= overlay.frameCount()) {
        return image;
    }
    QPainter p(&image);
    paintFrameOverlay(p, QRectF(image.rect()), overlay, t);
    return image;
}

QImage renderOverlayGrid(const GroupOverlay& overlay, int columns) {
    const int n = overlay.frameCount();
    if (n <= 0) {
        return {};
    }
    if (columns <= 0) {
        columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
    }
    columns = std::clamp(columns, 1, n);
    const int rows = (n + columns - 1) / columns;
    // Cells no wider than the grid allows for kMaxFrameWidth per row in total × 2.
    QSize cell = overlayFrameSize(overlay);
    const int maxCell = std::max(64, 2 * OverlayExportLimits::kMaxFrameWidth / columns);
    if (cell.width() > maxCell) {
        cell = cell.scaled(maxCell, cell.height(), Qt::KeepAspectRatio);
    }
    const int gap = 6;
    const int cap = captionHeight(cell.width());
    QImage image((cell.width() + gap) * columns + gap, (cell.height() + cap + gap) * rows + gap,
                 QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    for (int t = 0; t < n; ++t) {
        const int x = gap + (t % columns) * (cell.width() + gap);
        const int y = gap + (t / columns) * (cell.height() + cap + gap);
        paintFrameOverlay(p, QRectF(x, y, cell.width(), cell.height()), overlay, t);
        drawCaption(p, QRect(x, y + cell.height(), cell.width(), cap), caption(overlay, t));
    }
    return image;
}

QImage renderOverlayStrip(const GroupOverlay& overlay, int thumbHeight) {
    const int n = overlay.frameCount();
    if (n <= 0) {
        return {};
    }
    thumbHeight = std::clamp(thumbHeight, 16, 1080);
    const int w = std::max(16, static_cast<int>(std::lround(thumbHeight * overlay.aspectRatio())));
    const int gap = 4;
    const int cap = captionHeight(w);
    QImage image((w + gap) * n + gap, thumbHeight + cap + 2 * gap, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    OverlayPaintOptions options;
    options.outlines = false;  // as the strip: borders are noise at this size
    for (int t = 0; t < n; ++t) {
        const int x = gap + t * (w + gap);
        paintFrameOverlay(p, QRectF(x, gap, w, thumbHeight), overlay, t, options);
        drawCaption(p, QRect(x, gap + thumbHeight, w, cap), QString::number(t + 1));
    }
    return image;
}

bool saveOverlayImage(const QImage& image, const QString& path, QString* error) {
    auto failed = [&](const QString& why) {
        if (error) {
            *error =
                OverlayExport::tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), why);
        }
        return false;
    };
    if (image.isNull()) {
        return failed(OverlayExport::tr("there is nothing to export (open a video first)"));
    }
    const QByteArray format = QFileInfo(path).suffix().toLower().toLatin1();
    if (format.isEmpty() || !QImageWriter::supportedImageFormats().contains(format)) {
        return failed(OverlayExport::tr("unknown image format “%1” (use .png, .jpg or .bmp)")
                          .arg(QString::fromLatin1(format)));
    }
    QBuffer bytes;  // made in memory, then written through AtomicFile (session/atomic_save.h)
    bytes.open(QIODevice::WriteOnly);
    QImageWriter writer(&bytes, format);
    if (!writer.write(image)) {
        return failed(writer.errorString());
    }
    QString why;
    return saveFileAtomically(path, bytes.data(), &why) || failed(why);
}

int exportOverlaySequence(const GroupOverlay& overlay, const QString& folder, const QString& prefix,
                          QString* error, const std::function<bool(int, int)>& progress) {
    const int n = overlay.frameCount();
    auto failed = [&](const QString& why) {
        if (error) {
            *error = why;
        }
        return 0;
    };
    if (n <= 0) {
        return failed(OverlayExport::tr("There is nothing to export: open a video first."));
    }
    if (n > OverlayExportLimits::kMaxSequenceFrames) {
        return failed(
            OverlayExport::tr("%1 frames are more than an image sequence takes (at most %2).")
                .arg(n)
                .arg(OverlayExportLimits::kMaxSequenceFrames));
    }
    const QDir dir(folder);
    if (!dir.exists() && !QDir().mkpath(folder)) {
        return failed(OverlayExport::tr("Cannot create the folder %1.")
                          .arg(QDir::toNativeSeparators(folder)));
    }
    for (int t = 0; t < n; ++t) {
        const QString f = dir.filePath(sequenceName(prefix, t));
        if (QFileInfo::exists(f)) {
            return failed(OverlayExport::tr(
                              "%1 already exists: choose an empty folder or another name, nothing "
                              "was written.")
                              .arg(QDir::toNativeSeparators(f)));
        }
    }
    for (int t = 0; t < n; ++t) {
        if (progress && !progress(t, n)) {
            return t;
        }
        QString why;
        if (!saveOverlayImage(renderOverlayFrame(overlay, t), dir.filePath(sequenceName(prefix, t)),
                              &why)) {
            failed(why);
            return t;
        }
    }
    if (progress) {
        progress(n, n);
    }
    return n;
}

}  // namespace once::studio
