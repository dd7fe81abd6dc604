#pragma once
// The ONCE Studio main window. It only wires: the session (document and workers), the central
// frame view and strip, the docks (budget, playback, charts, question, trainer, messages) and the
// status bar. Behaviour lives in the widgets and the session; the menus are built by MainMenus
// (main_menus.h) and session files are handled by SessionFileController
// (session_file_controller.h).
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

class QDockWidget;
class QPlainTextEdit;

namespace once::studio {

class BudgetPanel;
class ChartsPanel;
class CodebookExplorer;
class PatchInspector;
class BatchPanel;
class AbCompareView;
class CodebookProjector;
class FrameOverlayView;
class FrameStrip;
class GroupOverlay;
class OverlayControls;
class QuestionPanel;
class RecentFilesMenu;
class SessionFileController;
class StudioSession;
class TaskStatus;
class TrainerPanel;
class VideoPlayerPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    StudioSession* session() const { return session_; }
    GroupOverlay* overlay() const { return overlay_; }
    FrameOverlayView* frameView() const { return view_; }
    FrameStrip* frameStrip() const { return strip_; }
    BudgetPanel* budgetPanel() const { return budget_; }
    ChartsPanel* chartsPanel() const { return charts_; }
    QuestionPanel* questionPanel() const { return question_; }
    TrainerPanel* trainerPanel() const { return trainer_; }
    CodebookExplorer* codebookExplorer() const { return explorer_; }
    PatchInspector* patchInspector() const { return inspector_; }
    CodebookProjector* codebookProjector() const { return projector_; }
    AbCompareView* abCompareView() const { return compare_; }
    BatchPanel* batchPanel() const { return batch_; }
    VideoPlayerPanel* playerPanel() const { return player_; }
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
    void createDocks();
    /// Shrinks and moves the window into the screen's available area (see the .cpp).
    void fitToScreen();
    QDockWidget* addDock(QWidget* widget, const QString& title, const QString& objectName,
                         Qt::DockWidgetArea area);
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
    BudgetPanel* budget_ = nullptr;
    ChartsPanel* charts_ = nullptr;
    VideoPlayerPanel* player_ = nullptr;
    QuestionPanel* question_ = nullptr;
    TrainerPanel* trainer_ = nullptr;
    CodebookExplorer* explorer_ = nullptr;
    PatchInspector* inspector_ = nullptr;
    CodebookProjector* projector_ = nullptr;
    AbCompareView* compare_ = nullptr;
    BatchPanel* batch_ = nullptr;
    QPlainTextEdit* messages_ = nullptr;
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
