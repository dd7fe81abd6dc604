#pragma once
// The ONCE Studio main window. It only wires: the session (document and workers), the central
// frame view and strip, the docks (budget, playback, charts, question, trainer, messages), the
// menus and the status bar. Behaviour lives in the widgets and the session.
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
class SessionAutosave;
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
    /// The error dialog shown last (null when none is open).
    QMessageBox* errorDialog() const { return errorBox_; }
    /// The offer to re-encode the video with an opened model folder's encoder (null when none
    /// is open).
    QMessageBox* reencodeOffer() const { return reencodeBox_; }
    /// The offer to restore the session of a run that crashed (null when none is open).
    QMessageBox* recoveryOffer() const { return recoveryBox_; }
    /// Keeps what is open in an autosave file while the window lives (issue 30).
    SessionAutosave* autosave() const { return autosave_; }
    /// The suffix of session files, with its dot.
    static QString sessionSuffix();

  signals:
    /// A session file was restored (its loads ended); `problems` lists what was skipped.
    void sessionRestored(const QStringList& problems);

  public slots:
    void openVideo();
    void openFeatureFile();
    void openCodebook();
    void openModelFolder();
    void loadDemo();
    /// File ▸ Open Session… / Save Session… (session/session_document.h).
    void openSession();
    void saveSession();
    /// Reopens the session in `path`: what cannot be restored is listed in one dialog when
    /// the rest has loaded (sessionRestored tells when).
    void openSessionFile(const QString& path);
    /// Saves the current session to `path`; false (with an error dialog) when it fails.
    bool saveSessionFile(const QString& path);
    /// Offers back the newest autosave in `folder` left by a run that did not close (the
    /// window does this for SessionAutosave::defaultFolder() when it starts).
    void offerRecovery(const QString& folder);
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
    void createMenus();
    /// Shrinks and moves the window into the screen's available area (see the .cpp).
    void fitToScreen();
    QDockWidget* addDock(QWidget* widget, const QString& title, const QString& objectName,
                         Qt::DockWidgetArea area);
    QString askOpenFile(const QString& title, const QString& filter);
    void log(const QString& message);
    void updateTitle();
    /// Keeps status text, actions and the trainer's chart in step with the session (issue 16).
    void wireFeedback();
    /// The re-encode offer after a model folder (issue 16).
    void offerReencode(const QString& featuresBackbone, const QString& modelBackbone);

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
    RecentFilesMenu* recent_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QMenu* overlayMenu_ = nullptr;
    QAction* measureAction_ = nullptr;
    QString hoverMessage_;
    QPointer<QMessageBox> errorBox_;
    QPointer<QMessageBox> reencodeBox_;
    QPointer<QMessageBox> recoveryBox_;
    SessionAutosave* autosave_ = nullptr;
    QByteArray defaultState_;
    bool fittedWithFrame_ = false;
};

}  // namespace once::studio
