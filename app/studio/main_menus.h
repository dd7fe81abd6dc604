#pragma once
// The main window's menu bar — File, Edit, View, Compression, Help — with every action, its
// shortcut and what it is connected to: the window's slots, the session file controller, and the
// panels the window exposes. Built once, after the docks (View lists them); the window keeps
// only the parts it changes later (MainMenus' members).
#include <QCoreApplication>

class QAction;
class QMenu;

namespace once::studio {

class MainWindow;
class RecentFilesMenu;
class SessionFileController;

class MainMenus {
    // The menus' own translation context (no meta-object: a plain class, as HelpDialogs).
    Q_DECLARE_TR_FUNCTIONS(MainMenus)
  public:
    /// Fills `window`'s menu bar; session files are opened and saved by `sessionFiles`.
    static MainMenus build(MainWindow* window, SessionFileController* sessionFiles);

    /// File ▸ Open Recent (the window adds what it opens).
    RecentFilesMenu* recentFiles = nullptr;
    /// File ▸ Export Overlay (enabled while there are frames).
    QMenu* overlayExport = nullptr;
    /// Compression ▸ Measure Budget Sweep (enabled where the method can measure one).
    QAction* measureSweep = nullptr;

  private:
    void addFileMenu(MainWindow* window, SessionFileController* sessionFiles);
    static void addEditMenu(MainWindow* window);
    static void addViewMenu(MainWindow* window);
    void addCompressionMenu(MainWindow* window);
    static void addHelpMenu(MainWindow* window);
};

}  // namespace once::studio
