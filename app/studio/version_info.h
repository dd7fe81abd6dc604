#pragma once
// What the About box reports about the build and this machine: the studio's version, Qt (run
// time and build), LibTorch, CUDA (usable here or not, and why), and FFmpeg.
#include <QList>
#include <QPair>
#include <QString>

namespace once::studio {

/// (component, version or state) rows, in display order.
QList<QPair<QString, QString>> versionDetails();
/// The same as an HTML table for the About box.
QString versionDetailsHtml();

}  // namespace once::studio
