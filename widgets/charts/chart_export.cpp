#include "charts/chart_export.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>
#include <QScopeGuard>
#include <QSvgGenerator>
#include <QWidget>

#include "session/atomic_save.h"

namespace once::studio {
namespace {
bool setError(QString* error, const QString& text) {
    if (error) {
        *error = text;
    }
    return false;
}
}  // namespace

QString imageFormatOf(const QString& path) {
    const QString s = QFileInfo(path).suffix().toLower();
    return s == QLatin1String("png") || s == QLatin1String("svg") || s == QLatin1String("pdf")
               ? s
               : QString();
}

namespace {

// Makes the image of `path`'s format in memory — PNG by `png` into a buffer, SVG and PDF (one
// page of `size` points) by `draw` on the device (`draw(device, isPdf)` begins its own painter)
// — and writes it through AtomicFile (session/atomic_save.h).
template <class Png, class Draw>
bool exportImage(const QString& path, QSize size, const QString& title, Png png, Draw draw,
                 QString* error) {
    const QString format = imageFormatOf(path);
    QBuffer bytes;
    bytes.open(QIODevice::WriteOnly);
    bool ok = false;
    if (format == QLatin1String("png")) {
        ok = png(bytes);
    } else if (format == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&bytes);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(title);
        svg.setDescription(QStringLiteral("ONCE Studio chart"));
        ok = draw(svg, false);
    } else if (format == QLatin1String("pdf")) {
        QPdfWriter pdf(&bytes);
        pdf.setCreator(QStringLiteral("ONCE Studio"));
        pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(72);
        ok = draw(pdf, true);
    } else {
        return setError(
            error, QObject::tr("%1: unsupported image format (use .png, .svg or .pdf)").arg(path));
    }
    if (!ok) {
        return setError(error, QObject::tr("%1: the image could not be written").arg(path));
    }
    return saveFileAtomically(path, bytes.data(), error);
}

}  // namespace

bool exportCustomPlot(QCustomPlot* plot, const QString& path, QString* error,
                      const QString& title) {
    if (imageFormatOf(path).isEmpty()) {
        return setError(
            error, QObject::tr("%1: unsupported image format (use .png, .svg or .pdf)").arg(path));
    }
    // The heading goes into the plot's layout for the export only: on screen the chart's title
    // is its tab, in a file it must be in the picture.
    QCPTextElement* heading = nullptr;
    if (!title.isEmpty()) {
        plot->plotLayout()->insertRow(0);
        QFont font = plot->font();
        font.setBold(true);
        font.setPointSizeF(font.pointSizeF() * 1.2);
        heading = new QCPTextElement(plot, title, font);
        plot->plotLayout()->addElement(0, 0, heading);
        plot->plotLayout()->setRowStretchFactor(0, 0.001);  // as high as the text, no more
    }
    const auto removeHeading = qScopeGuard([plot, heading] {
        if (heading != nullptr) {
            plot->plotLayout()->remove(heading);
            plot->plotLayout()->simplify();
            plot->replot(QCustomPlot::rpQueuedReplot);
        }
    });
    const int w = std::max(plot->width(), 640), h = std::max(plot->height(), 400);
    return exportImage(
        path, QSize(w, h), plot->windowTitle(),
        [&](QBuffer& out) { return plot->toPixmap(w, h, 2.0).save(&out, "PNG"); },
        [&](QPaintDevice& device, bool pdf) {
            QCPPainter painter;
            if (!painter.begin(&device)) {
                return false;
            }
            if (pdf) {  // as QCustomPlot::savePdf draws: vectorised, uncached, no cosmetic pens
                painter.setMode(QCPPainter::pmVectorized);
                painter.setMode(QCPPainter::pmNoCaching);
                painter.setMode(QCPPainter::pmNonCosmetic);
            }
            plot->toPainter(&painter, w, h);
            return painter.end();
        },
        error);
}

bool exportWidget(QWidget* widget, const QString& path, QString* error) {
    const QSize size = widget->size().expandedTo(QSize(640, 400));
    if (widget->size() != size) {
        widget->resize(size);  // hidden tabs may never have been laid out
    }
    return exportImage(
        path, size, widget->windowTitle(),
        [&](QBuffer& out) {
            const qreal scale = 2.0;
            QImage image(size * scale, QImage::Format_ARGB32);
            image.setDevicePixelRatio(scale);
            image.fill(Qt::white);
            QPainter painter(&image);
            widget->render(&painter);
            painter.end();
            return image.save(&out, "PNG");
        },
        [&](QPaintDevice& device, bool) {
            QPainter painter;
            if (!painter.begin(&device)) {
                return false;
            }
            widget->render(&painter);
            return painter.end();
        },
        error);
}

bool writeTextFile(const QString& path, const QString& text, QString* error) {
    return saveFileAtomically(path, text.toUtf8(), error);
}

}  // namespace once::studio
