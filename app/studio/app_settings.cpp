#include "app_settings.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QSettings>

namespace once::studio {

PipelineSettings AppSettings::pipeline() const {
    QSettings s;
    PipelineSettings p;
    s.beginGroup(QStringLiteral("pipeline"));
    p.backbone = s.value(QStringLiteral("backbone"), p.backbone).toString();
    p.device = s.value(QStringLiteral("device"), p.device).toString();
    p.dtype = s.value(QStringLiteral("dtype"), p.dtype).toString();
    p.threads = s.value(QStringLiteral("threads"), p.threads).toInt();
    p.sampling = s.value(QStringLiteral("sampling"), p.sampling).toString();
    p.poolStride = s.value(QStringLiteral("poolStride"), p.poolStride).toInt();
    return p;
}

void AppSettings::setPipeline(const PipelineSettings& p) {
    QSettings s;
    s.beginGroup(QStringLiteral("pipeline"));
    s.setValue(QStringLiteral("backbone"), p.backbone);
    s.setValue(QStringLiteral("device"), p.device);
    s.setValue(QStringLiteral("dtype"), p.dtype);
    s.setValue(QStringLiteral("threads"), p.threads);
    s.setValue(QStringLiteral("sampling"), p.sampling);
    s.setValue(QStringLiteral("poolStride"), p.poolStride);
}

QString AppSettings::language() const {
    return QSettings().value(QStringLiteral("ui/language")).toString();
}

void AppSettings::setLanguage(const QString& language) {
    QSettings().setValue(QStringLiteral("ui/language"), language);
}

QString AppSettings::effectiveLanguage(const QString& setting) {
    if (!setting.isEmpty()) {
        return setting;
    }
    return QLocale::system().name().startsWith(QLatin1String("zh")) ? QStringLiteral("zh_CN")
                                                                    : QStringLiteral("en");
}

QStringList AppSettings::recentFiles() const {
    QStringList files = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    files.removeIf([](const QString& f) { return !QFileInfo::exists(f); });
    return files;
}

void AppSettings::addRecentFile(const QString& path) {
    const QString clean = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    QStringList files = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    files.removeAll(clean);
    files.prepend(clean);
    while (files.size() > kMaxRecentFiles) {
        files.removeLast();
    }
    QSettings().setValue(QStringLiteral("recentFiles"), files);
}

void AppSettings::clearRecentFiles() {
    QSettings().remove(QStringLiteral("recentFiles"));
}

QString AppSettings::lastFolder() const {
    return QSettings().value(QStringLiteral("lastFolder"), QDir::homePath()).toString();
}

void AppSettings::setLastFolder(const QString& folder) {
    QSettings().setValue(QStringLiteral("lastFolder"), folder);
}

QByteArray AppSettings::windowGeometry() const {
    return QSettings().value(QStringLiteral("window/geometry")).toByteArray();
}

QByteArray AppSettings::windowState() const {
    return QSettings().value(QStringLiteral("window/state")).toByteArray();
}

void AppSettings::setWindowLayout(const QByteArray& geometry, const QByteArray& state) {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), geometry);
    s.setValue(QStringLiteral("window/state"), state);
}

}  // namespace once::studio
