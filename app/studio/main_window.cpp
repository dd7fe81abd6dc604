#include "main_window.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTabBar>
#include <QTime>
#include <QTimer>
#include <QVBoxLayout>
#include <QWindow>
#include <algorithm>

#include "app_settings.h"
#include "batch/batch_panel.h"
#include "budget/budget_panel.h"
#include "charts/budget_latency_chart.h"
#include "charts/chart_widget.h"
#include "charts/charts_panel.h"
#include "codebook/codebook.h"
#include "compare/ab_answers.h"
#include "compare/ab_compare_view.h"
#include "explorer/codebook_explorer.h"
#include "help_dialogs.h"
#include "inspector/patch_inspector.h"
#include "io/file_kind.h"
#include "overlay/frame_overlay_view.h"
#include "overlay/frame_strip.h"
#include "overlay/group_overlay.h"
#include "overlay/overlay_controls.h"
#include "player/clip_exporter.h"
#include "player/video_player_panel.h"
#include "projector/codebook_projector.h"
#include "question/connect_server_dialog.h"
#include "question/question_panel.h"
#include "recent_files_menu.h"
#include "session/remote_connection.h"
#include "session/session_autosave.h"
#include "session/session_binder.h"
#include "session/session_document.h"
#include "session/studio_session.h"
#include "settings_dialog.h"
#include "studio_application.h"
#include "tasks/background_task.h"
#include "tasks/task_status.h"
#include "trainer/trainer_panel.h"
#include "util/error.h"
#include "version_info.h"

namespace once::studio {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), session_(new StudioSession(this)), overlay_(new GroupOverlay(this)) {
    setWindowIcon(QIcon(QStringLiteral(":/icons/once-studio.svg")));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    session_->setPipelineSettings(AppSettings().pipeline());

    createCentralView();
    createDocks();
    createMenus();
    new SessionBinder(session_, overlay_, budget_, this);

    taskStatus_ = new TaskStatus(this);
    taskStatus_->track(session_->loadTask());
    // A re-compression usually takes milliseconds: shown only when it is slow (VQToken).
    constexpr int kShowCompressionAfterMs = 400;
    taskStatus_->track(session_->compressTask(), kShowCompressionAfterMs);
    taskStatus_->track(session_->sweepTask());
    taskStatus_->track(trainer_->task());
    taskStatus_->track(question_->task());
    taskStatus_->track(explorer_->task(), 400);
    taskStatus_->track(player_->clipExporter()->task());
    taskStatus_->track(compare_->answers()->task());
    statusBar()->addPermanentWidget(taskStatus_);
    statusBar()->showMessage(readyMessage());

    connect(session_, &StudioSession::errorOccurred, this, &MainWindow::showError);
    connect(session_, &StudioSession::notice, this, [this](const QString& message) {
        log(message);
        statusBar()->showMessage(message, 10000);
    });
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
        player_->setSource(v.fromFeatureFile ? QString() : v.path);
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
            trainer_->setPipelineSettings(session_->pipelineSettings(), m->path);
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
    connect(trainer_->task(), &BackgroundTask::failed, this,
            [this](const QString& message) { showError(tr("Training failed"), message); });
    connect(player_->clipExporter()->task(), &BackgroundTask::failed, this,
            [this](const QString& message) { showError(tr("Export failed"), message); });
    connect(player_->clipExporter(), &ClipExporter::exported, this, [this](const QString& message) {
        log(message);
        statusBar()->showMessage(message, 15000);
    });
    connect(trainer_, &TrainerPanel::openCodebookRequested, session_, &StudioSession::openCodebook);
    connect(question_, &QuestionPanel::openCodebookRequested, this, &MainWindow::openCodebook);
    connect(question_, &QuestionPanel::problemOccurred, this, [this](const QString& message) {
        log(message);
        statusBar()->showMessage(message, 15000);
    });
    connect(recent_, &RecentFilesMenu::openRequested, this, &MainWindow::openAnyPath);
    connect(session_, &StudioSession::reencodeOffered, this, &MainWindow::offerReencode);
    trainer_->setPipelineSettings(session_->pipelineSettings(), QString());

    wireFeedback();

    // Work survives a crash: what is open is autosaved, and a crashed run's is offered back.
    autosave_ = new SessionAutosave(
        session_,
        [this] {
            SessionAutosave::Extras e;
            e.frame = session_->video().isEmpty() ? -1 : overlay_->currentFrame();
            e.question = question_->askedQuestion();
            e.denseAnswer = question_->denseAnswer();
            e.compressedAnswer = question_->onceAnswer();
            return e;
        },
        SessionAutosave::defaultFolder(), this);
    connect(question_->task(), &BackgroundTask::finished, autosave_,
            &SessionAutosave::scheduleSave);
    connect(overlay_, &GroupOverlay::currentFrameChanged, autosave_,
            &SessionAutosave::scheduleSave);
    QTimer::singleShot(0, this, [this] { offerRecovery(SessionAutosave::defaultFolder()); });

    resize(1400, 900);
    defaultState_ = saveState();
    const AppSettings settings;
    restoreGeometry(settings.windowGeometry());
    restoreState(settings.windowState());
    fitToScreen();
    updateTitle();
}

void MainWindow::fitToScreen() {
    // The default size and a geometry saved on a larger monitor may both exceed this screen
    // (issue 16: a 1366 × 768 laptop); shrink and move the window inside the available area,
    // frame included. Before the window manager has framed the window its margins are unknown:
    // a title bar is allowed for, and showEvent() fits again with the real frame (issue 30:
    // from the second start on, the status bar lay 20 px below the screen).
    const QScreen* s = screen() != nullptr ? screen() : QGuiApplication::primaryScreen();
    if (s == nullptr) {
        return;
    }
    const QRect available = s->availableGeometry();
    constexpr int kTitleBarAllowance = 32;
    QMargins frame = windowHandle() != nullptr ? windowHandle()->frameMargins() : QMargins();
    if (frame.isNull()) {
        frame = QMargins(0, kTitleBarAllowance, 0, 0);
    }
    const QSize room(std::max(available.width() - frame.left() - frame.right(), 1),
                     std::max(available.height() - frame.top() - frame.bottom(), 1));
    const QSize fitted = size().boundedTo(room);
    if (fitted != size()) {
        // A restored maximised state would ignore the resize.
        setWindowState(windowState() & ~(Qt::WindowMaximized | Qt::WindowFullScreen));
        resize(fitted);
    }
    // The frame's outer rectangle must lie inside the available area; move() places the
    // client area, so the frame's top-left is the client's minus the margins.
    const QRect outer(geometry().topLeft() - QPoint(frame.left(), frame.top()),
                      fitted.grownBy(frame));
    if (!available.contains(outer)) {
        const int x = std::clamp(outer.left(), available.left(),
                                 std::max(available.left(), available.right() - outer.width() + 1));
        const int y =
            std::clamp(outer.top(), available.top(),
                       std::max(available.top(), available.bottom() - outer.height() + 1));
        setGeometry(QRect(QPoint(x + frame.left(), y + frame.top()), fitted));
    }
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (!fittedWithFrame_) {
        fittedWithFrame_ = true;
        // Once shown, the window manager frames the window (asynchronously): fit again with
        // the frame it really has.
        QTimer::singleShot(0, this, &MainWindow::fitToScreen);
        QTimer::singleShot(300, this, &MainWindow::fitToScreen);
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

QDockWidget* MainWindow::addDock(QWidget* widget, const QString& title, const QString& objectName,
                                 Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);  // saveState() identifies docks by name
    if (qobject_cast<QAbstractScrollArea*>(widget) != nullptr) {
        dock->setWidget(widget);  // scrolls by itself
    } else {
        // The panels' natural minimums add up to more than a 1366 × 768 screen (issue 16); in a
        // scroll area a dock can be made small and its panel scrolls instead of pushing the
        // window past the screen.
        // QScrollArea gives a panel with word-wrapped notes the height they need at the dock's
        // width (height-for-width), so a wrapped note never lies over the widgets below it
        // (app_studio_test_studio_feedback).
        auto* scroll = new QScrollArea(dock);
        scroll->setObjectName(objectName + QStringLiteral("Scroll"));
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(widget);
        dock->setWidget(scroll);
    }
    // A scroll area's own minimum (about 70 px: room for both scroll bars' arrows) in every
    // stack of docks made the window 400 px tall at least: more than QT_SCALE_FACTOR=2 leaves
    // on a 1366 x 768 screen (384; issue 30, item 10). Its panel scrolls in less.
    constexpr int kDockContentMinHeight = 48;
    dock->widget()->setMinimumHeight(kDockContentMinHeight);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::createDocks() {
    budget_ = new BudgetPanel(this);
    player_ = new VideoPlayerPanel(overlay_, this);
    charts_ = new ChartsPanel(session_, this);
    question_ = new QuestionPanel(session_, this);
    trainer_ = new TrainerPanel(this);
    messages_ = new QPlainTextEdit(this);
    messages_->setReadOnly(true);
    messages_->setMaximumBlockCount(2000);

    QDockWidget* budget =
        addDock(budget_, tr("Budget"), QStringLiteral("budgetDock"), Qt::RightDockWidgetArea);
    QDockWidget* player =
        addDock(player_, tr("Playback"), QStringLiteral("playerDock"), Qt::RightDockWidgetArea);
    QDockWidget* charts =
        addDock(charts_, tr("Charts"), QStringLiteral("chartsDock"), Qt::RightDockWidgetArea);
    QDockWidget* question = addDock(question_, tr("Question"), QStringLiteral("questionDock"),
                                    Qt::BottomDockWidgetArea);
    QDockWidget* trainer =
        addDock(trainer_, tr("Trainer"), QStringLiteral("trainerDock"), Qt::BottomDockWidgetArea);
    QDockWidget* messages = addDock(messages_, tr("Messages"), QStringLiteral("messagesDock"),
                                    Qt::BottomDockWidgetArea);
    // The codebook explorer shares the charts' place: a tab beside them (tabified below).
    explorer_ = new CodebookExplorer(session_, overlay_, this);
    QDockWidget* explorer =
        addDock(explorer_, tr("Codebook"), QStringLiteral("explorerDock"), Qt::RightDockWidgetArea);
    // "Show Codeword in the Codebook View" in the frame view's context menu.
    const auto showCodeword = [this, explorer](std::int64_t k) {
        explorer->show();
        explorer->raise();
        explorer_->showCodeword(k);
    };
    connect(view_, &FrameOverlayView::codewordRequested, this, showCodeword);
    // The clicked patch under the microscope (view 15), a tab beside the codebook.
    inspector_ = new PatchInspector(session_, overlay_, this);
    QDockWidget* inspector =
        addDock(inspector_, tr("Patch"), QStringLiteral("patchDock"), Qt::RightDockWidgetArea);
    connect(inspector_, &PatchInspector::codewordRequested, this, showCodeword);
    connect(view_, &FrameOverlayView::inspectRequested, this, [inspector] {
        inspector->show();
        inspector->raise();
    });
    // The codebook and this video's tokens on one map (view 16), a tab beside them too.
    projector_ = new CodebookProjector(session_, overlay_, this);
    QDockWidget* projector = addDock(projector_, tr("Projector"), QStringLiteral("projectorDock"),
                                     Qt::RightDockWidgetArea);
    // The map is fitted only while its tab is in front (it is a second of CPU for a large
    // codebook, for nobody when the tab is behind another).
    projector_->setActive(false);
    connect(projector, &QDockWidget::visibilityChanged, projector_, &CodebookProjector::setActive);
    // Two compressions side by side with their difference (view 14): a tab beside the question.
    compare_ = new AbCompareView(session_, overlay_, this);
    QDockWidget* compare =
        addDock(compare_, tr("A/B"), QStringLiteral("compareDock"), Qt::BottomDockWidgetArea);
    compare_->setActive(false);
    connect(compare, &QDockWidget::visibilityChanged, compare_, &AbCompareView::setActive);
    // The A/B answers start from the question panel's question (until one is typed there).
    connect(question_->questionEdit(), &QLineEdit::textChanged, compare_->answers(),
            &AbAnswers::offerQuestion);
    // `once bench` over a folder of videos (view 17); its table goes to Budget vs latency.
    batch_ = new BatchPanel(session_, this);
    QDockWidget* batch =
        addDock(batch_, tr("Batch"), QStringLiteral("batchDock"), Qt::BottomDockWidgetArea);
    connect(batch_, &BatchPanel::benchFinished, this, [this](const once::EfficiencyBench& bench) {
        charts_->latencyChart()->setEfficiencyBench(bench);
    });
    splitDockWidget(budget, charts, Qt::Vertical);
    tabifyDockWidget(charts, explorer);
    tabifyDockWidget(explorer, inspector);
    tabifyDockWidget(inspector, projector);
    charts->raise();
    tabifyDockWidget(budget, player);
    budget->raise();
    tabifyDockWidget(question, trainer);
    tabifyDockWidget(question, messages);
    tabifyDockWidget(messages, compare);
    tabifyDockWidget(compare, batch);
    question->raise();
    resizeDocks({budget, charts}, {260, 420}, Qt::Vertical);
    resizeDocks({charts}, {520}, Qt::Horizontal);
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openVideo = file->addAction(tr("&Open Video…"), this, &MainWindow::openVideo);
    openVideo->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &Feature File…"), this, &MainWindow::openFeatureFile);
    QAction* openCodebook = file->addAction(tr("Open &Codebook…"), this, &MainWindow::openCodebook);
    openCodebook->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    file->addAction(tr("Open &Model Folder…"), this, &MainWindow::openModelFolder);
    // Questions on a `once serve` (docs/serve.md); the session itself stays here.
    RemoteConnection* remote = session_->remote();
    file->addAction(tr("Connect to &Server…"), this, [this, remote] {
        ConnectServerDialog dialog(remote, this);
        dialog.exec();
    });
    QAction* disconnectServer = file->addAction(tr("Disconnect from Se&rver"), remote,
                                                &RemoteConnection::disconnectFromServer);
    disconnectServer->setEnabled(false);
    connect(remote, &RemoteConnection::stateChanged, this,
            [this, remote, disconnectServer](RemoteConnection::State state) {
                disconnectServer->setEnabled(state == RemoteConnection::State::Connected);
                if (state == RemoteConnection::State::Connected) {
                    statusBar()->showMessage(
                        tr("Connected to %1: questions are answered there.").arg(remote->machine()),
                        10000);
                } else if (state == RemoteConnection::State::Local) {
                    statusBar()->showMessage(tr("Questions are answered on this machine."), 10000);
                }
            });
    file->addAction(tr("Open &Evaluation Results…"), charts_, &ChartsPanel::openEvaluationResults);
    file->addAction(tr("Open &Analysis Results…"), charts_, &ChartsPanel::openAnalysisResults);
    file->addAction(tr("Open &Session…"), this, &MainWindow::openSession);
    file->addAction(tr("Sa&ve Session…"), this, &MainWindow::saveSession)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    recent_ = new RecentFilesMenu(this);
    file->addMenu(recent_);
    file->addSeparator();
    QAction* demo = file->addAction(tr("Load &Demo"), this, &MainWindow::loadDemo);
    demo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    file->addSeparator();
    QAction* exportImage = file->addAction(tr("Export Chart &Image…"), this, [this] {
        if (ChartWidget* c = charts_->currentChart()) {
            c->exportImageInteractive();
        }
    });
    exportImage->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction* exportData = file->addAction(tr("Export Chart &Data…"), this, [this] {
        if (ChartWidget* c = charts_->currentChart()) {
            c->exportCsvInteractive();
        }
    });
    // Nothing to export from an empty chart (issue 16).
    connect(file, &QMenu::aboutToShow, this, [this, exportImage, exportData] {
        const ChartWidget* c = charts_->currentChart();
        exportImage->setEnabled(c != nullptr && c->hasData());
        exportData->setEnabled(c != nullptr && c->hasData());
    });
    overlayMenu_ = file->addMenu(tr("Export &Overlay"));
    overlayMenu_->addAction(tr("Current &Frame…"), view_, &FrameOverlayView::exportCurrentFrame);
    overlayMenu_->addAction(tr("All Frames as a &Grid…"), view_,
                            &FrameOverlayView::exportAllFramesGrid);
    overlayMenu_->addAction(tr("The &Strip…"), view_, &FrameOverlayView::exportStrip);
    overlayMenu_->addAction(tr("Every Frame as an Image &Sequence (for a video)…"), view_,
                            &FrameOverlayView::exportFrameSequence);
    overlayMenu_->addAction(tr("&Copy Current Frame"), view_, &FrameOverlayView::copyCurrentFrame);
    overlayMenu_->addSeparator();
    // The playing video with the groups on every frame, written on a worker (issue 30, 13).
    overlayMenu_->addAction(player_->clipExporter()->action());
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* prefs = edit->addAction(tr("&Preferences…"), this, &MainWindow::showSettings);
    // The platform's key where it defines one (KDE, macOS); Ctrl+, elsewhere.
    prefs->setShortcuts(QKeySequence::keyBindings(QKeySequence::Preferences).isEmpty()
                            ? QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::Key_Comma)}
                            : QKeySequence::keyBindings(QKeySequence::Preferences));
    prefs->setMenuRole(QAction::PreferencesRole);

    viewMenu_ = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        viewMenu_->addAction(dock->toggleViewAction());
    }
    viewMenu_->addSeparator();
    QAction* next = viewMenu_->addAction(tr("&Next Frame"), this, [this] {
        overlay_->setCurrentFrame(overlay_->currentFrame() + 1);
    });
    next->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Right));
    // Anywhere, as the docs say: also in floating docks (application context) and over spin
    // boxes and tab bars (eventFilter() keeps them from claiming the keys).
    next->setShortcutContext(Qt::ApplicationShortcut);
    QAction* previous = viewMenu_->addAction(tr("&Previous Frame"), this, [this] {
        overlay_->setCurrentFrame(overlay_->currentFrame() - 1);
    });
    previous->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Left));
    previous->setShortcutContext(Qt::ApplicationShortcut);
    QAction* clear = viewMenu_->addAction(tr("C&lear Group Selection"), this,
                                          [this] { overlay_->setSelectedCodeword(-1); });
    clear->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    viewMenu_->addSeparator();
    viewMenu_->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
    QAction* full = viewMenu_->addAction(tr("&Full Screen"), this,
                                         [this](bool on) { on ? showFullScreen() : showNormal(); });
    full->setCheckable(true);
    full->setShortcut(QKeySequence::FullScreen);

    QMenu* compress = menuBar()->addMenu(tr("&Compression"));
    QAction* more = compress->addAction(tr("&Double Budget"), this,
                                        [this] { session_->setBudget(session_->budget() * 2); });
    more->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_BracketRight));
    QAction* less = compress->addAction(tr("&Halve Budget"), this, [this] {
        session_->setBudget(std::max<std::int64_t>(1, session_->budget() / 2));
    });
    less->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_BracketLeft));
    measureAction_ =
        compress->addAction(tr("&Measure Budget Sweep"), session_, &StudioSession::runBudgetSweep);
    compress->addSeparator();
    // Every running work, training and the question too (issue 30: Ctrl+. left training on).
    QAction* cancel = compress->addAction(tr("&Cancel Running Work"), this, [this] {
        session_->cancel();
        if (trainer_->task()->isRunning()) {
            trainer_->cancel();
        }
        question_->task()->cancel();
        compare_->answers()->task()->cancel();
    });
    cancel->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* guide = help->addAction(tr("&User Guide"), this, &MainWindow::showUserGuide);
    guide->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    help->addSeparator();
    QAction* about = help->addAction(tr("&About ONCE Studio"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    QAction* aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

QString MainWindow::askOpenFile(const QString& title, const QString& filter) {
    AppSettings settings;
    const QString path = QFileDialog::getOpenFileName(this, title, settings.lastFolder(), filter);
    if (!path.isEmpty()) {
        settings.setLastFolder(QFileInfo(path).absolutePath());
    }
    return path;
}

void MainWindow::openVideo() {
    const QString path = askOpenFile(
        tr("Open Video"),
        tr("Videos (%1);;All files (*)").arg(QString::fromStdString(once::videoGlobPatterns())));
    if (!path.isEmpty()) {
        session_->openVideo(path);
    }
}

void MainWindow::openFeatureFile() {
    const QString path =
        askOpenFile(tr("Open Feature File"), tr("Feature files (*.safetensors);;All files (*)"));
    if (!path.isEmpty()) {
        session_->openFeatureFile(path);
    }
}

void MainWindow::openCodebook() {
    const QString path = askOpenFile(
        tr("Open Codebook"), tr("Codebooks (*.safetensors *.npy *.pt *.pth *.bin);;All files (*)"));
    if (!path.isEmpty()) {
        session_->openCodebook(path);
    }
}

void MainWindow::openModelFolder() {
    AppSettings settings;
    const QString path =
        QFileDialog::getExistingDirectory(this, tr("Open Model Folder"), settings.lastFolder());
    if (!path.isEmpty()) {
        settings.setLastFolder(path);
        session_->openModelFolder(path);
    }
}

void MainWindow::loadDemo() {
    session_->loadDemo();
}

QString MainWindow::sessionSuffix() {
    return QString::fromLatin1(once::kSessionFileExtension.data(),
                               qsizetype(once::kSessionFileExtension.size()));
}

void MainWindow::openAnyPath(const QString& path) {
    if (path.endsWith(sessionSuffix(), Qt::CaseInsensitive)) {
        openSessionFile(path);
    } else {
        session_->openPath(path);
    }
}

void MainWindow::openSession() {
    const QString path = askOpenFile(tr("Open Session"),
                                     tr("ONCE sessions (*%1);;All files (*)").arg(sessionSuffix()));
    if (!path.isEmpty()) {
        openSessionFile(path);
    }
}

void MainWindow::saveSession() {
    AppSettings settings;
    QString path =
        QFileDialog::getSaveFileName(this, tr("Save Session"), settings.lastFolder(),
                                     tr("ONCE sessions (*%1);;All files (*)").arg(sessionSuffix()));
    if (path.isEmpty()) {
        return;
    }
    if (!path.endsWith(sessionSuffix(), Qt::CaseInsensitive) &&
        QFileInfo(path).suffix().isEmpty()) {
        path += sessionSuffix();
    }
    settings.setLastFolder(QFileInfo(path).absolutePath());
    saveSessionFile(path);
}

bool MainWindow::saveSessionFile(const QString& path) {
    try {
        once::SessionFile file =
            captureSession(*session_, session_->video().isEmpty() ? -1 : overlay_->currentFrame());
        if (!question_->askedQuestion().isEmpty()) {
            file.question = question_->askedQuestion().toStdString();
            file.denseAnswer = question_->denseAnswer().toStdString();
            file.compressedAnswer = question_->onceAnswer().toStdString();
        }
        writeSessionFile(path, file);
    } catch (const once::OnceError& e) {
        showError(tr("Cannot save the session"), QString::fromUtf8(e.what()));
        return false;
    }
    recent_->add(QFileInfo(path).absoluteFilePath());
    log(tr("Session saved to %1").arg(path));
    statusBar()->showMessage(tr("Session saved to %1").arg(path), 10000);
    return true;
}

void MainWindow::openSessionFile(const QString& path) {
    once::ParsedSession parsed;
    try {
        parsed = readSessionFile(path);
    } catch (const once::OnceError& e) {
        showError(tr("Cannot open the session"), QString::fromUtf8(e.what()));
        return;
    }
    QStringList problems;
    for (const auto& p : parsed.problems) {
        problems << QString::fromStdString(p.message());
    }
    log(tr("Opening session %1").arg(path));
    const auto frame = parsed.session.frame;
    const auto text = [](const std::optional<std::string>& s) {
        return s ? QString::fromStdString(*s) : QString();
    };
    const QStringList answers = {text(parsed.session.question), text(parsed.session.denseAnswer),
                                 text(parsed.session.compressedAnswer)};
    restoreSession(*session_, parsed.session, path, problems,
                   [this, path, frame, answers](QStringList problems) {
                       if (!answers[0].isEmpty()) {
                           question_->restoreAnswers(answers[0], answers[1], answers[2]);
                       }
                       if (autosave_ != nullptr) {
                           autosave_->scheduleSave();  // the answers are part of what is kept
                       }
                       if (frame) {
                           if (*frame < overlay_->frameCount()) {
                               overlay_->setCurrentFrame(int(*frame));
                           } else {
                               problems << QString::fromStdString(once::SessionProblem{
                                   QFile::encodeName(path).toStdString(), "frame",
                                   "a frame index below " + std::to_string(overlay_->frameCount()),
                                   std::to_string(*frame)}
                                                                      .message());
                           }
                       }
                       recent_->add(QFileInfo(path).absoluteFilePath());
                       if (!problems.isEmpty()) {
                           showError(tr("The session was opened without some of its parts"),
                                     tr("%1 could not restore everything; the rest is open.\n\n%2")
                                         .arg(QFileInfo(path).fileName(),
                                              problems.join(QStringLiteral("\n\n"))));
                       }
                       emit sessionRestored(problems);
                   });
}

void MainWindow::offerRecovery(const QString& folder) {
    const QStringList found = SessionAutosave::orphans(folder);
    if (found.isEmpty() || recoveryBox_) {
        return;
    }
    const QString file = found.first();
    QString what;
    try {
        const once::ParsedSession parsed = readSessionFile(file);
        QStringList parts;
        for (const std::string& p :
             {parsed.session.video, parsed.session.codebook, parsed.session.modelFolder}) {
            if (!p.empty()) {
                parts << QFileInfo(QString::fromStdString(p)).fileName();
            }
        }
        what = parts.join(QStringLiteral(", "));
    } catch (const once::OnceError& e) {
        log(tr("The autosave %1 cannot be read: %2").arg(file, QString::fromUtf8(e.what())));
        SessionAutosave::discard(file);
        return;
    }
    recoveryBox_ = new QMessageBox(
        QMessageBox::Question, tr("Restore the Last Session?"),
        tr("ONCE Studio did not close normally last time. Restore what was open then (%1), with "
           "its method, budget and last question?")
            .arg(what),
        QMessageBox::NoButton, this);
    recoveryBox_->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* restore = recoveryBox_->addButton(tr("&Restore"), QMessageBox::AcceptRole);
    recoveryBox_->addButton(tr("&Discard"), QMessageBox::DestructiveRole);
    recoveryBox_->setDefaultButton(restore);
    connect(recoveryBox_, &QMessageBox::buttonClicked, this,
            [this, restore, file](QAbstractButton* button) {
                if (button == restore) {
                    log(tr("Restoring the session of the last run from %1").arg(file));
                    openSessionFile(file);
                }
                // Read by now (openSessionFile parses it at once); this run autosaves anew.
                SessionAutosave::discard(file);
            });
    recoveryBox_->open();
}

void MainWindow::offerReencode(const QString& featuresBackbone, const QString& modelBackbone) {
    const auto title = &SessionBinder::encoderTitle;
    if (reencodeBox_) {
        reencodeBox_->close();
    }
    // Non-blocking like the error box: loading and the window go on while it is open.
    reencodeBox_ = new QMessageBox(
        QMessageBox::Question, tr("Re-encode the Video?"),
        tr("The video's features come from the %1 encoder; the model folder's encoder is %2. "
           "Re-encode the video with it, so the model, its codebooks and the charts see the same "
           "features?")
            .arg(title(featuresBackbone), title(modelBackbone)),
        QMessageBox::NoButton, this);
    reencodeBox_->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* reencode = reencodeBox_->addButton(tr("&Re-encode"), QMessageBox::AcceptRole);
    reencodeBox_->addButton(tr("&Not Now"), QMessageBox::RejectRole);
    reencodeBox_->setDefaultButton(reencode);
    connect(reencodeBox_, &QMessageBox::buttonClicked, this,
            [this, reencode, featuresBackbone, title](QAbstractButton* button) {
                if (button == reencode) {
                    session_->reencodeVideo();
                } else {
                    log(tr("The video keeps the features of the %1 encoder.")
                            .arg(title(featuresBackbone)));
                }
            });
    reencodeBox_->open();
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
    trainer_->setPipelineSettings(dialog.pipeline(),
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
    connect(session_, &StudioSession::sweepCancelled, this, [this] {
        const QString message = sweepCancelledMessage();
        log(message);
        statusBar()->showMessage(message, 15000);
    });
    // The overlay exports need frames.
    auto exportable = [this] { overlayMenu_->setEnabled(overlay_->frameCount() > 0); };
    connect(overlay_, &GroupOverlay::changed, this, exportable);
    connect(session_, &StudioSession::videoChanged, this, exportable);
    exportable();
    // A codebook trained elsewhere shows its recorded Stage-B history in the trainer's chart.
    connect(session_, &StudioSession::codebookChanged, this, [this] {
        if (const auto c = session_->codebook()) {
            trainer_->showCodebookHistory(
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
    messages_->appendPlainText(QTime::currentTime().toString(QStringLiteral("HH:mm:ss ")) +
                               message);
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
    question_->shutdown();
    compare_->answers()->task()->cancelAndWait();
    trainer_->shutdown();
    AppSettings().setWindowLayout(saveGeometry(), saveState());
    delete autosave_;  // a clean end: nothing to offer back at the next start
    autosave_ = nullptr;
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
