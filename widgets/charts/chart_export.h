#pragma once
// Writing charts to files. A plot (QCustomPlot) or a Qt Charts view paints itself into a PNG
// image, a QSvgGenerator or a QPdfWriter in memory; the bytes are then written through the
// engine's AtomicFile (session/atomic_save.h: a temporary file renamed into place, a symlink at
// the path refused). All return false and set `error` instead of throwing.
#include <QString>

class QCustomPlot;
class QWidget;

namespace once::studio {

struct CsvTable;

/// The image formats by suffix: "png", "svg", "pdf" (lower case), or empty when unsupported.
QString imageFormatOf(const QString& path);

/// Writes `plot` as PNG, SVG or PDF by the suffix of `path`, with `title` (when given) as a
/// heading above the axes: on screen the chart's title is its tab, in a file it must be in the
/// picture (issue 30: exported images had none).
bool exportCustomPlot(QCustomPlot* plot, const QString& path, QString* error,
                      const QString& title = QString());
/// Any widget that paints itself (a QChartView): PNG via grab(), SVG and PDF via render().
bool exportWidget(QWidget* widget, const QString& path, QString* error);
/// UTF-8 text, written to a temporary file and renamed (never a half-written file).
bool writeTextFile(const QString& path, const QString& text, QString* error);

}  // namespace once::studio
