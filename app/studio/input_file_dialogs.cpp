#include "input_file_dialogs.h"

#include <QFileDialog>
#include <QFileInfo>

#include "app_settings.h"

namespace once::studio {

QString askOpenFile(QWidget* parent, const QString& title, const QString& filter) {
    AppSettings settings;
    const QString path = QFileDialog::getOpenFileName(parent, title, settings.lastFolder(), filter);
    if (!path.isEmpty()) {
        settings.setLastFolder(QFileInfo(path).absolutePath());
    }
    return path;
}

QString askOpenFolder(QWidget* parent, const QString& title) {
    AppSettings settings;
    const QString path = QFileDialog::getExistingDirectory(parent, title, settings.lastFolder());
    if (!path.isEmpty()) {
        settings.setLastFolder(path);
    }
    return path;
}

QString askSaveFile(QWidget* parent, const QString& title, const QString& filter) {
    AppSettings settings;
    const QString path = QFileDialog::getSaveFileName(parent, title, settings.lastFolder(), filter);
    if (!path.isEmpty()) {
        settings.setLastFolder(QFileInfo(path).absolutePath());
    }
    return path;
}

}  // namespace once::studio
