#include "version_info.h"

#include <torch/version.h>

#include <QApplication>
#include <QSysInfo>
#include <string>

#include "util/device.h"

#ifdef ONCE_HAVE_FFMPEG
extern "C" {
#include <libavutil/avutil.h>
}
#endif

namespace once::studio {

// The translation context of the version rows.
class VersionInfo {
    Q_DECLARE_TR_FUNCTIONS(VersionInfo)
};

QList<QPair<QString, QString>> versionDetails() {
    QList<QPair<QString, QString>> rows;
    rows << qMakePair(QStringLiteral("ONCE Studio"), QApplication::applicationVersion());
    const QString qtRuntime = QString::fromLatin1(qVersion());
    rows << qMakePair(
        QStringLiteral("Qt"),
        qtRuntime == QLatin1String(QT_VERSION_STR)
            ? qtRuntime
            : VersionInfo::tr("%1 (built with %2)").arg(qtRuntime, QLatin1String(QT_VERSION_STR)));
    rows << qMakePair(QStringLiteral("LibTorch"), QStringLiteral(TORCH_VERSION));
    std::string why;
    QString cuda;
    if (!once::loadCudaRuntime(&why)) {
        cuda = VersionInfo::tr("not available: %1").arg(QString::fromStdString(why));
    } else if (!once::cudaDeviceAvailable()) {
        cuda = VersionInfo::tr("runtime loaded, no CUDA device visible");
    } else {
        cuda = VersionInfo::tr("available");
    }
    rows << qMakePair(QStringLiteral("CUDA"), cuda);
#ifdef ONCE_HAVE_FFMPEG
    rows << qMakePair(QStringLiteral("FFmpeg"), QString::fromLatin1(av_version_info()));
#endif
    rows << qMakePair(VersionInfo::tr("System"),
                      QSysInfo::prettyProductName() + QStringLiteral(" (") +
                          QSysInfo::currentCpuArchitecture() + QLatin1Char(')'));
    return rows;
}

QString versionDetailsHtml() {
    QString html = QStringLiteral("<table>");
    for (const auto& [name, value] : versionDetails()) {
        html += QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>")
                    .arg(name.toHtmlEscaped(), value.toHtmlEscaped());
    }
    return html + QStringLiteral("</table>");
}

}  // namespace once::studio
