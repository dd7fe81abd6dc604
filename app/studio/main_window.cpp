#include "main_window.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDragEnterEvent>
#include <QFileInfo>
#include <QKeyEvent>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTabBar>
#include <QTime>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "app_settings.h"
#include "budget/budget_panel.h"
#include "codebook/codebook.h"
#include "compare/ab_answers.h"
#include "compare/ab_compare_view.h"
#include "explorer/codebook_explorer.h"
#include "help_dialogs.h"
#include "input_file_dialogs.h"
#include "io/file_kind.h"
#include "main_docks.h"
#include "main_menus.h"
#include "overlay/frame_overlay_view.h"
#include "overlay/frame_strip.h"
#include "overlay/group_overlay.h"
#include "overlay/overlay_controls.h"
#include "player/clip_exporter.h"
#include "player/video_player_panel.h"
#include "question/question_panel.h"
#include "recent_files_menu.h"
#include "session/remote_connection.h"
#include "session/session_autosave.h"
#include "session/session_binder.h"
#include "session/studio_session.h"
#include "session_file_controller.h"
#include "settings_dialog.h"
#include "studio_application.h"
#include "tasks/background_task.h"
#include "tasks/task_status.h"
#include "trainer/trainer_panel.h"
#include "version_info.h"
#include "window_fitting.h"

namespace once::studio {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), session_(new StudioSession(this)), overlay_(new GroupOverlay(this)) {
    setWindowIcon(QIcon(QStringLiteral(":/icons/once-studio.svg")));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    session_->setPipelineSettings(AppSettings().pipeline());

    createCentralView();
    docks_ = MainDocks::build(this, session_, overlay_, view_);
    sessionFiles_ = new SessionFileController(session_, overlay_, docks_.question,
                                              SessionAutosave::defaultFolder(), this);
    const MainMenus menus = MainMenus::build(this, sessionFiles_);
    recent_ = menus.recentFiles;
    overlayMenu_ = menus.overlayExport;
    measureAction_ = menus.measureSweep;
    new SessionBinder(session_, overlay_, docks_.budget, this);

    taskStatus_ = new TaskStatus(this);
    taskStatus_->track(session_->loadTask());
    // A re-compression usually takes milliseconds: shown only when it is slow (VQToken).
    constexpr int kShowCompressionAfterMs = 400;
    taskStatus_->track(session_->compressTask(), kShowCompressionAfterMs);
    taskStatus_->track(session_->sweepTask());
    taskStatus_->track(docks_.trainer->task());
    taskStatus_->track(docks_.question->task());
    taskStatus_->track(docks_.explorer->task(), 400);
    taskStatus_->track(docks_.player->clipExporter()->task());
    taskStatus_->track(docks_.compare->answers()->task());
    statusBar()->addPermanentWidget(taskStatus_);
    statusBar()->showMessage(readyMessage());

    connect(session_, &StudioSession::errorOccurred, this, &MainWindow::showError);
    connect(session_, &StudioSession::notice, this,
            [this](const QString& message) { announce(message, 10000); });
    connect(session_, &StudioSession::videoChanged, this, [this] {
        const VideoData& v = session_->video();
        if (!v.isEmpty()) {
            recent_->add(v.path);
            log(tr("Opened %1: %2 frames × %3 patches × %4 dims (%5)")
                    .arg(QFileInfo(v.path).fileName())
                    .arg(v.numFrames())
                    .arg(v.patchesPerFrame())
                    .arg(v.dim())
                    .arg(QString::fromStdString(v.backbone)));
        }
        docks_.player->setSource(v.fromFeatureFile ? QString() : v.path);
        updateTitle();
    });
    connect(session_, &StudioSession::codebookChanged, this, [this] {
        if (const auto c = session_->codebook()) {
            recent_->add(QString::fromStdString(c->origin()));
            log(tr("Codebook %1: K = %2, D = %3")
                    .arg(QString::fromStdString(c->origin()))
                    .arg(c->size())
                    .arg(c->dim()));
        }
        updateTitle();
    });
    connect(session_, &StudioSession::modelChanged, this, [this] {
        if (const auto& m = session_->model()) {
            recent_->add(m->path);
            log(tr("Model folder %1 (%2)").arg(m->path, m->modelType));
            docks_.trainer->setPipelineSettings(session_->pipelineSettings(), m->path);
        }
    });
    connect(session_, &StudioSession::assignmentChanged, this, [this] {
        if (const auto a = session_->assignment()) {
            log(tr("Assigned %1 tokens to their nearest codewords in %2 ms (%3)")
                    .arg(a->numTokens)
                    .arg(a->seconds * 1e3, 0, 'f', 1)
                    .arg(QString::fromStdString(a->backend)));
        }
    });
    connect(docks_.trainer->task(), &BackgroundTask::failed, this,
            [this](const QString& message) { showError(tr("Training failed"), message); });
    connect(docks_.player->clipExporter()->task(), &BackgroundTask::failed, this,
            [this](const QString& message) { showError(tr("Export failed"), message); });
    connect(docks_.player->clipExporter(), &ClipExporter::exported, this,
            [this](const QString& message) { announce(message, 15000); });
    connect(docks_.trainer, &TrainerPanel::openCodebookRequested, session_,
            &StudioSession::openCodebook);
    connect(docks_.question, &QuestionPanel::openCodebookRequested, this,
            &MainWindow::openCodebook);
    connect(docks_.question, &QuestionPanel::problemOccurred, this,
            [this](const QString& message) { announce(message, 15000); });
    connect(recent_, &RecentFilesMenu::openRequested, this, &MainWindow::openAnyPath);
    connect(sessionFiles_, &SessionFileController::logged, this, &MainWindow::log);
    connect(sessionFiles_, &SessionFileController::announced, this, &MainWindow::announce);
    connect(sessionFiles_, &SessionFileController::errorOccurred, this, &MainWindow::showError);
    connect(sessionFiles_, &SessionFileController::fileUsed, recent_, &RecentFilesMenu::add);
    docks_.trainer->setPipelineSettings(session_->pipelineSettings(), QString());

    wireFeedback();

    resize(1400, 900);
    defaultState_ = saveState();
    const AppSettings settings;
    restoreGeometry(settings.windowGeometry());
    restoreState(settings.windowState());
    fitWindowIntoScreen(*this);
    updateTitle();
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (!fittedWithFrame_) {
        fittedWithFrame_ = true;
        // Once shown, the window manager frames the window (asynchronously): fit again with
        // the frame it really has.
        QTimer::singleShot(0, this, [this] { fitWindowIntoScreen(*this); });
        QTimer::singleShot(300, this, [this] { fitWindowIntoScreen(*this); });
    }
}

MainWindow::~MainWindow() = default;

void MainWindow::createCentralView() {
    view_ = new FrameOverlayView(overlay_, this);
    strip_ = new FrameStrip(overlay_, this);
    overlayControls_ = new OverlayControls(overlay_, this);
    connect(view_, &FrameOverlayView::patchHovered, this, [this](const PatchInfo& info) {
        // The hover line goes when the mouse leaves the patches, and follows a frame or method
        // change under a still mouse (the view sends the patch again), never stays stale.
        if (info.valid) {
            hoverMessage_ = view_->describe(info).replace(QLatin1Char('\n'), QStringLiteral(" · "));
            statusBar()->showMessage(hoverMessage_);
        } else if (!hoverMessage_.isEmpty() && statusBar()->currentMessage() == hoverMessage_) {
            statusBar()->clearMessage();
            hoverMessage_.clear();
        }
    });
    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(0);
    // The control row is wider than a small screen leaves beside the docks: it scrolls
    // sideways there instead of setting the window's minimum width.
    auto* controlsScroll = new QScrollArea(top);
    controlsScroll->setObjectName(QStringLiteral("overlayControlsScroll"));
    controlsScroll->setWidgetResizable(true);
    controlsScroll->setFrameShape(QFrame::NoFrame);
    controlsScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    controlsScroll->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    controlsScroll->setWidget(overlayControls_);
    controlsScroll->setFixedHeight(overlayControls_->sizeHint().height() +
                                   controlsScroll->horizontalScrollBar()->sizeHint().height());
    topLayout->addWidget(controlsScroll);
    topLayout->addWidget(view_, 1);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(top);
    splitter->addWidget(strip_);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 0);
    splitter->setSizes({700, 140});
    setCentralWidget(splitter);
}

void MainWindow::openVideo() {
    const QString path = askOpenFile(
        this, tr("Open Video"),
        tr("Videos (%1);;All files (*)").arg(QString::fromStdString(once::videoGlobPatterns())));
    if (!path.isEmpty()) {
        session_->openVideo(path);
    }
}

void MainWindow::openFeatureFile() {
    const QString path = askOpenFile(this, tr("Open Feature File"),
                                     tr("Feature files (*.safetensors);;All files (*)"));
    if (!path.isEmpty()) {
        session_->openFeatureFile(path);
    }
}

void MainWindow::openCodebook() {
    const QString path =
        askOpenFile(this, tr("Open Codebook"),
                    tr("Codebooks (*.safetensors *.npy *.pt *.pth *.bin);;All files (*)"));
    if (!path.isEmpty()) {
        session_->openCodebook(path);
    }
}

void MainWindow::openModelFolder() {
    const QString path = askOpenFolder(this, tr("Open Model Folder"));
    if (!path.isEmpty()) {
        session_->openModelFolder(path);
    }
}

void MainWindow::loadDemo() {
    session_->loadDemo();
}

void MainWindow::openAnyPath(const QString& path) {
    if (SessionFileController::isSessionFile(path)) {
        sessionFiles_->openSessionFile(path);
    } else {
        session_->openPath(path);
    }
}

void MainWindow::showSettings() {
    AppSettings settings;
    SettingsDialog dialog(session_->pipelineSettings(), settings.language(), this);
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    const QString oldLanguage = settings.language();
    settings.setPipeline(dialog.pipeline());
    settings.setLanguage(dialog.language());
    session_->setPipelineSettings(dialog.pipeline());
    docks_.trainer->setPipelineSettings(dialog.pipeline(),
                                        session_->model() ? session_->model()->path : QString());
    if (dialog.language() != oldLanguage) {
        statusBar()->showMessage(tr("The new language applies when ONCE Studio restarts."), 10000);
    }
}

void MainWindow::resetLayout() {
    restoreState(defaultState_);
}

QString MainWindow::aboutText() {
    return tr("<h3>ONCE Studio %1</h3><p>Video-token compression with a global codebook: every "
              "visual token is assigned to its nearest codeword, the B most used codewords are "
              "kept, tokens are reassigned among them and each group is mean-pooled.</p><p>See "
              "what compression does to a video, ask questions at a chosen budget, and train "
              "codebooks for your own backbone.</p>")
               .arg(QApplication::applicationVersion()) +
           versionDetailsHtml();
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About ONCE Studio"), aboutText());
}

void MainWindow::showUserGuide() {
    QDialog* d = createUserGuideDialog(this);
    d->show();
}

void MainWindow::showShortcuts() {
    QDialog* d = createShortcutsDialog(this, menuBar());
    d->show();
}

QString MainWindow::engineMessageNote() {
    return tr(
        "Messages from the ONCE engine are in English, exactly as the command line prints "
        "them: they name the file, the field, what was expected and what was found.");
}

QString MainWindow::sweepCancelledMessage() {
    return tr(
        "Budget sweep cancelled: the chart keeps the budgets measured before the cancel, "
        "or what it showed before when none was.");
}

QString MainWindow::readyMessage() {
    return tr("Ready. File ▸ Load Demo shows everything at once.");
}

void MainWindow::wireFeedback() {
    // Issue 16, stale state: the start-up hint goes once something is open.
    connect(session_, &StudioSession::videoChanged, this, [this] {
        if (!session_->video().isEmpty() && statusBar()->currentMessage() == readyMessage()) {
            statusBar()->clearMessage();
        }
    });
    // Measure Sweep only where the selected method is ready for this video (as the chart's
    // button), not with nothing loaded.
    auto measurable = [this] {
        measureAction_->setEnabled(!session_->video().isEmpty() && !session_->isSweeping() &&
                                   session_->canMeasureSweep());
    };
    for (auto signal : {&StudioSession::videoChanged, &StudioSession::methodChanged,
                        &StudioSession::assignmentChanged, &StudioSession::resultChanged}) {
        connect(session_, signal, this, measurable);
    }
    connect(session_, &StudioSession::busyChanged, this, measurable);
    connect(session_, &StudioSession::sweepingChanged, this, measurable);
    connect(session_->remote(), &RemoteConnection::stateChanged, this, measurable);
    measurable();
    // A cancelled sweep says so; the chart keeps the previous one (issue 16).
    connect(session_, &StudioSession::sweepCancelled, this,
            [this] { announce(sweepCancelledMessage(), 15000); });
    // The overlay exports need frames.
    auto exportable = [this] { overlayMenu_->setEnabled(overlay_->frameCount() > 0); };
    connect(overlay_, &GroupOverlay::changed, this, exportable);
    connect(session_, &StudioSession::videoChanged, this, exportable);
    exportable();
    // A codebook trained elsewhere shows its recorded Stage-B history in the trainer's chart.
    connect(session_, &StudioSession::codebookChanged, this, [this] {
        if (const auto c = session_->codebook()) {
            docks_.trainer->showCodebookHistory(
                c->metadata(), QFileInfo(QString::fromStdString(c->origin())).fileName());
        }
    });
    qApp->installEventFilter(this);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    // Ctrl+Left/Right step frames anywhere (docs/gui.md). A spin box would take them for word
    // moves in its number and a tab bar ignores them but still keeps them from the window;
    // text fields keep their word moves.
    if (event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const bool frameKey = (key->key() == Qt::Key_Left || key->key() == Qt::Key_Right) &&
                              key->modifiers() == Qt::ControlModifier;
        auto* w = qobject_cast<QWidget*>(watched);
        const bool claimant =
            w != nullptr && (qobject_cast<QAbstractSpinBox*>(w) != nullptr ||
                             qobject_cast<QAbstractSpinBox*>(w->parent()) != nullptr ||
                             qobject_cast<QTabBar*>(w) != nullptr);
        if (frameKey && claimant && isAncestorOf(w)) {  // floating docks are children too
            event->ignore();
            return true;  // not overridden: the window's shortcut fires
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::showError(const QString& title, const QString& message) {
    log(title + QStringLiteral(": ") + message);
    if (errorBox_) {
        errorBox_->close();
    }
    // Window-modal and non-blocking (open(), not exec()): work continues, the window stays
    // usable after the box is closed, and nothing waits inside a nested event loop.
    errorBox_ = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, this);
    errorBox_->setAttribute(Qt::WA_DeleteOnClose);
    errorBox_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (installedLanguage() != QLatin1String("en")) {
        // The engine's messages are shared with the command line and stay in English; say so
        // in the interface's language (issue 16, zh_CN).
        errorBox_->setInformativeText(engineMessageNote());
    }
    errorBox_->open();
}

void MainWindow::log(const QString& message) {
    docks_.messages->appendPlainText(QTime::currentTime().toString(QStringLiteral("HH:mm:ss ")) +
                                     message);
}

void MainWindow::announce(const QString& message, int timeoutMs) {
    log(message);
    statusBar()->showMessage(message, timeoutMs);
}

void MainWindow::updateTitle() {
    QString title = QStringLiteral("ONCE Studio");
    if (!session_->video().isEmpty()) {
        title = QFileInfo(session_->video().path).fileName() + QStringLiteral(" — ") + title;
    }
    setWindowTitle(title);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    // Cancel and join every worker before the widgets they report to go away.
    session_->shutdown();
    docks_.question->shutdown();
    docks_.compare->answers()->task()->cancelAndWait();
    docks_.trainer->shutdown();
    AppSettings().setWindowLayout(saveGeometry(), saveState());
    sessionFiles_->endAutosave();  // a clean end: nothing to offer back at the next start
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) {
        for (const QUrl& url : event->mimeData()->urls()) {
            if (url.isLocalFile()) {
                event->acceptProposedAction();
                return;
            }
        }
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    // Codebooks and models first, so a video dropped with its codebook is assigned once.
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile()) {
            paths << url.toLocalFile();
        }
    }
    std::stable_sort(paths.begin(), paths.end(), [](const QString& a, const QString& b) {
        auto rank = [](const QString& p) {
            const auto kind = StudioSession::classify(p);
            return kind == StudioSession::FileKind::Codebook ||
                           kind == StudioSession::FileKind::ModelFolder
                       ? 0
                       : 1;
        };
        return rank(a) < rank(b);
    });
    for (const QString& p : paths) {
        openAnyPath(p);
    }
    event->acceptProposedAction();
}

}  // namespace once::studio
