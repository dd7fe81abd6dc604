#include "recent_files_menu.h"

#include <QFileInfo>

#include "app_settings.h"

namespace once::studio {

RecentFilesMenu::RecentFilesMenu(QWidget* parent) : QMenu(tr("Open &Recent"), parent) {
    rebuild();
}

void RecentFilesMenu::add(const QString& path) {
    if (path.isEmpty() || !QFileInfo::exists(path)) {
        return;  // in-memory inputs (a sampled stand-in codebook) are not files
    }
    AppSettings().addRecentFile(path);
    rebuild();
}

void RecentFilesMenu::rebuild() {
    clear();
    const QStringList files = AppSettings().recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        // "&1 name" gives keyboard access to the first nine entries.
        const QString label =
            i < 9 ? QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(files[i]).fileName())
                  : QFileInfo(files[i]).fileName();
        QAction* a = addAction(label);
        a->setToolTip(files[i]);
        a->setStatusTip(files[i]);
        const QString path = files[i];
        connect(a, &QAction::triggered, this, [this, path] { emit openRequested(path); });
    }
    if (!files.isEmpty()) {
        addSeparator();
    }
    QAction* clearAction = addAction(tr("&Clear List"));
    clearAction->setEnabled(!files.isEmpty());
    connect(clearAction, &QAction::triggered, this, [this] {
        AppSettings().clearRecentFiles();
        rebuild();
    });
}

}  // namespace once::studio
