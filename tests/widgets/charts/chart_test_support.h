#pragma once
// Shared by the chart tests: files in a per-program temporary folder, and the check that a
// chart exports real PNG, SVG and PDF files and its data as CSV.
#include <QFile>
#include <QImage>
#include <QSet>
#include <QSvgRenderer>
#include <QtTest>

#include "charts/chart_widget.h"
#include "support/test_support.h"

namespace once::studio::test {

inline QString temp(const QString& name) {
    static const QString dir = QString::fromStdString(once::test::tempDir());
    return dir + QLatin1Char('/') + name;
}
inline QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
inline void writeText(const QString& path, const QByteArray& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}
// Checks the three image files and the CSV a chart exports.
inline void checkExports(ChartWidget& chart, const QString& stem, int expectedRows) {
    chart.resize(800, 500);
    for (const QString& ext :
         {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")}) {
        const QString path = temp(stem + QLatin1Char('.') + ext);
        QString error;
        QVERIFY2(chart.exportImage(path, &error), qPrintable(error));
        const QByteArray bytes = readAll(path);
        QVERIFY2(bytes.size() > 500, qPrintable(path));
        if (ext == QLatin1String("png")) {
            const QImage image(path);
            QVERIFY(!image.isNull());
            QVERIFY(image.width() >= 640 && image.height() >= 400);
            // Not a blank image: several distinct colours.
            QSet<QRgb> colours;
            for (int y = 0; y < image.height(); y += 7) {
                for (int x = 0; x < image.width(); x += 7) {
                    colours.insert(image.pixel(x, y));
                }
            }
            QVERIFY(colours.size() > 5);
        } else if (ext == QLatin1String("svg")) {
            QVERIFY(bytes.contains("<svg"));
            QSvgRenderer renderer(path);
            QVERIFY(renderer.isValid());
        } else {
            QVERIFY(bytes.startsWith("%PDF-"));
        }
    }
    const QString csv = temp(stem + QStringLiteral(".csv"));
    QString error;
    QVERIFY2(chart.exportCsv(csv, &error), qPrintable(error));
    const QList<QByteArray> lines = readAll(csv).trimmed().split('\n');
    QCOMPARE(lines.size(), expectedRows + 1);
    QCOMPARE(lines.front().trimmed(), chart.table().header.join(QLatin1Char(',')).toUtf8());
}

}  // namespace once::studio::test
