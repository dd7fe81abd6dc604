#include "input_file_dialogs.h"

#include <QFileDialog>
#include <QFileInfo>

#include "app_settings.h"

namespace once::studio {
namespace {

/// `path` as chosen; when one was, `folder` is where the next dialog starts.
QString remembered(const QString& path, const QString& folder) {
    if (!path.isEmpty()) {
        AppSettings().setLastFolder(folder);
    }
    return path;
}

}  // namespace

QString askOpenFile(QWidget* parent, const QString& title, const QString& filter) {
    const QString path =
        QFileDialog::getOpenFileName(parent, title, AppSettings().lastFolder(), filter);
    return remembered(path, QFileInfo(path).absolutePath());
}

QString askOpenFolder(QWidget* parent, const QString& title) {
    const QString path =
        QFileDialog::getExistingDirectory(parent, title, AppSettings().lastFolder());
    return remembered(path, path);
}

QString askSaveFile(QWidget* parent, const QString& title, const QString& filter) {
    const QString path =
        QFileDialog::getSaveFileName(parent, title, AppSettings().lastFolder(), filter);
    return remembered(path, QFileInfo(path).absolutePath());
}

}  // namespace once::studio
