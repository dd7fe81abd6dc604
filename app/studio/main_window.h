#pragma once
// The ONCE Studio main window. It only wires: the session (document and workers), the central
// frame view and strip, the panels in their docks (MainDocks, main_docks.h), the menu bar
// (MainMenus, main_menus.h), session files with autosave and crash recovery
// (SessionFileController, session_file_controller.h) and the status bar. Behaviour lives in the
// widgets, the session and those classes.
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

#include "main_docks.h"

namespace once::studio {

class FrameOverlayView;
class FrameStrip;
class GroupOverlay;
class OverlayControls;
class RecentFilesMenu;
class SessionFileController;
class StudioSession;
class TaskStatus;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    StudioSession* session() const { return session_; }
    GroupOverlay* overlay() const { return overlay_; }
    FrameOverlayView* frameView() const { return view_; }
    FrameStrip* frameStrip() const { return strip_; }
    BudgetPanel* budgetPanel() const { return docks_.budget; }
    ChartsPanel* chartsPanel() const { return docks_.charts; }
    QuestionPanel* questionPanel() const { return docks_.question; }
    TrainerPanel* trainerPanel() const { return docks_.trainer; }
    CodebookExplorer* codebookExplorer() const { return docks_.explorer; }
    PatchInspector* patchInspector() const { return docks_.inspector; }
    CodebookProjector* codebookProjector() const { return docks_.projector; }
    AbCompareView* abCompareView() const { return docks_.compare; }
    BatchPanel* batchPanel() const { return docks_.batch; }
    VideoPlayerPanel* playerPanel() const { return docks_.player; }
    /// Opens, saves, autosaves and recovers session files (and offers to re-encode).
    SessionFileController* sessionFiles() const { return sessionFiles_; }
    /// The error dialog shown last (null when none is open).
    QMessageBox* errorDialog() const { return errorBox_; }

  public slots:
    void openVideo();
    void openFeatureFile();
    void openCodebook();
    void openModelFolder();
    void loadDemo();
    /// Opens `path` as whatever it is: a session file (.oncesession) or any input of
    /// StudioSession::openPath (recent files, drops, the command line).
    void openAnyPath(const QString& path);
    void showSettings();
    void resetLayout();
    void showAbout();
    void showUserGuide();
    void showShortcuts();
    /// Shows an error in a window-modal box (non-blocking: the window stays usable).
    void showError(const QString& title, const QString& message);

  public:
    /// The About box's text: what ONCE does and the versions of Qt, LibTorch, CUDA, FFmpeg.
    static QString aboutText();
    /// The start-up hint in the status bar (cleared once a video is open).
    static QString readyMessage();
    /// The status-bar message after a cancelled budget sweep.
    static QString sweepCancelledMessage();
    /// Under an error in a non-English interface: why the engine's details are in English.
    static QString engineMessageNote();
    QAction* measureSweepAction() const { return measureAction_; }
    TaskStatus* taskStatus() const { return taskStatus_; }
    QMenu* overlayExportMenu() const { return overlayMenu_; }

  protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void createCentralView();
    void log(const QString& message);
    /// Logs `message` and shows it in the status bar for `timeoutMs`.
    void announce(const QString& message, int timeoutMs);
    void updateTitle();
    /// Keeps status text, actions and the trainer's chart in step with the session (issue 16).
    void wireFeedback();

    StudioSession* session_;
    GroupOverlay* overlay_;
    FrameOverlayView* view_ = nullptr;
    FrameStrip* strip_ = nullptr;
    OverlayControls* overlayControls_ = nullptr;
    MainDocks docks_;
    TaskStatus* taskStatus_ = nullptr;
    SessionFileController* sessionFiles_ = nullptr;
    RecentFilesMenu* recent_ = nullptr;
    QMenu* overlayMenu_ = nullptr;
    QAction* measureAction_ = nullptr;
    QString hoverMessage_;
    QPointer<QMessageBox> errorBox_;
    QByteArray defaultState_;
    bool fittedWithFrame_ = false;
};

}  // namespace once::studio
