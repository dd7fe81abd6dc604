#include "common/export_folder.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace once::studio {
namespace {
const QString kKey = QStringLiteral("folders/export");
}  // namespace

QString exportFolder(QStandardPaths::StandardLocation fallback) {
    const QString last = QSettings().value(kKey).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir()) {
        return last;
    }
    return QStandardPaths::writableLocation(fallback);
}

QString exportPath(const QString& name, QStandardPaths::StandardLocation fallback) {
    return QDir(exportFolder(fallback)).filePath(name);
}

void rememberExportFile(const QString& path) {
    if (!path.isEmpty()) {
        rememberExportFolder(QFileInfo(path).absolutePath());
    }
}

void rememberExportFolder(const QString& folder) {
    if (!folder.isEmpty()) {
        QSettings().setValue(kKey, QFileInfo(folder).absoluteFilePath());
    }
}

}  // namespace once::studio
