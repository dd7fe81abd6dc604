#pragma once
// File ▸ Open Recent: the last files that loaded successfully, newest first, with Ctrl+1…9 style
// numbering and a Clear action.
#include <QMenu>

namespace once::studio {

class AppSettings;

class RecentFilesMenu : public QMenu {
    Q_OBJECT
  public:
    explicit RecentFilesMenu(QWidget* parent = nullptr);

    /// Records a path that loaded successfully and rebuilds the menu.
    void add(const QString& path);
    void rebuild();

  signals:
    void openRequested(const QString& path);
};

}  // namespace once::studio
