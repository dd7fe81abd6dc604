#include "charts/chart_export.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QScopeGuard>
#include <QSvgGenerator>
#include <QWidget>

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

bool exportCustomPlot(QCustomPlot* plot, const QString& path, QString* error,
                      const QString& title) {
    const QString format = imageFormatOf(path);
    if (format.isEmpty()) {
        return setError(
            error, QObject::tr("%1: unsupported image format (use .png, .svg or .pdf)").arg(path));
    }
    // The heading goes into the plot's layout for the export only.
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
    bool ok = false;
    if (format == QLatin1String("png")) {
        ok = plot->savePng(path, w, h, 2.0);
    } else if (format == QLatin1String("pdf")) {
        ok = plot->savePdf(path, w, h, QCP::epNoCosmetic, QStringLiteral("ONCE Studio"));
    } else if (format == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(QSize(w, h));
        svg.setViewBox(QRect(0, 0, w, h));
        svg.setTitle(plot->windowTitle());
        svg.setDescription(QStringLiteral("ONCE Studio chart"));
        QCPPainter painter;
        if (painter.begin(&svg)) {
            plot->toPainter(&painter, w, h);
            ok = painter.end();
        }
    } else {
        return setError(
            error, QObject::tr("%1: unsupported image format (use .png, .svg or .pdf)").arg(path));
    }
    return ok || setError(error, QObject::tr("%1: the image could not be written").arg(path));
}

bool exportWidget(QWidget* widget, const QString& path, QString* error) {
    const QString format = imageFormatOf(path);
    const QSize size = widget->size().expandedTo(QSize(640, 400));
    if (widget->size() != size) {
        widget->resize(size);  // hidden tabs may never have been laid out
    }
    bool ok = false;
    if (format == QLatin1String("png")) {
        const qreal scale = 2.0;
        QImage image(size * scale, QImage::Format_ARGB32);
        image.setDevicePixelRatio(scale);
        image.fill(Qt::white);
        QPainter painter(&image);
        widget->render(&painter);
        painter.end();
        ok = image.save(path, "PNG");
    } else if (format == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(widget->windowTitle());
        QPainter painter;
        if (painter.begin(&svg)) {
            widget->render(&painter);
            ok = painter.end();
        }
    } else if (format == QLatin1String("pdf")) {
        QPdfWriter pdf(path);
        pdf.setCreator(QStringLiteral("ONCE Studio"));
        pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(72);
        QPainter painter;
        if (painter.begin(&pdf)) {
            widget->render(&painter);
            ok = painter.end();
        }
    } else {
        return setError(
            error, QObject::tr("%1: unsupported image format (use .png, .svg or .pdf)").arg(path));
    }
    return ok || setError(error, QObject::tr("%1: the image could not be written").arg(path));
}

bool writeTextFile(const QString& path, const QString& text, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return setError(error, QObject::tr("%1: %2").arg(path, file.errorString()));
    }
    file.write(text.toUtf8());
    if (!file.commit()) {
        return setError(error, QObject::tr("%1: %2").arg(path, file.errorString()));
    }
    return true;
}

}  // namespace once::studio
