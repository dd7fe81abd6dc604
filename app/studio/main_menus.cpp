#include "main_menus.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <algorithm>
#include <cstdint>

#include "charts/chart_widget.h"
#include "charts/charts_panel.h"
#include "compare/ab_answers.h"
#include "compare/ab_compare_view.h"
#include "main_window.h"
#include "overlay/frame_overlay_view.h"
#include "overlay/group_overlay.h"
#include "player/clip_exporter.h"
#include "player/video_player_panel.h"
#include "question/connect_server_dialog.h"
#include "question/question_panel.h"
#include "recent_files_menu.h"
#include "session/remote_connection.h"
#include "session/studio_session.h"
#include "session_file_controller.h"
#include "tasks/background_task.h"
#include "trainer/trainer_panel.h"

namespace once::studio {

MainMenus MainMenus::build(MainWindow* window, SessionFileController* sessionFiles) {
    MainMenus menus;
    menus.addFileMenu(window, sessionFiles);
    addEditMenu(window);
    addViewMenu(window);
    menus.addCompressionMenu(window);
    addHelpMenu(window);
    return menus;
}

void MainMenus::addFileMenu(MainWindow* window, SessionFileController* sessionFiles) {
    QMenu* file = window->menuBar()->addMenu(tr("&File"));
    QAction* openVideo = file->addAction(tr("&Open Video…"), window, &MainWindow::openVideo);
    openVideo->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &Feature File…"), window, &MainWindow::openFeatureFile);
    QAction* openCodebook =
        file->addAction(tr("Open &Codebook…"), window, &MainWindow::openCodebook);
    openCodebook->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    file->addAction(tr("Open &Model Folder…"), window, &MainWindow::openModelFolder);
    // Questions on a `once serve` (docs/serve.md); the session itself stays here.
    RemoteConnection* remote = window->session()->remote();
    file->addAction(tr("Connect to &Server…"), window, [window, remote] {
        ConnectServerDialog dialog(remote, window);
        dialog.exec();
    });
    QAction* disconnectServer = file->addAction(tr("Disconnect from Se&rver"), remote,
                                                &RemoteConnection::disconnectFromServer);
    disconnectServer->setEnabled(false);
    QObject::connect(
        remote, &RemoteConnection::stateChanged, window,
        [window, remote, disconnectServer](RemoteConnection::State state) {
            disconnectServer->setEnabled(state == RemoteConnection::State::Connected);
            if (state == RemoteConnection::State::Connected) {
                window->statusBar()->showMessage(
                    tr("Connected to %1: questions are answered there.").arg(remote->machine()),
                    10000);
            } else if (state == RemoteConnection::State::Local) {
                window->statusBar()->showMessage(tr("Questions are answered on this machine."),
                                                 10000);
            }
        });
    ChartsPanel* charts = window->chartsPanel();
    file->addAction(tr("Open &Evaluation Results…"), charts, &ChartsPanel::openEvaluationResults);
    file->addAction(tr("Open &Analysis Results…"), charts, &ChartsPanel::openAnalysisResults);
    file->addAction(tr("Open &Session…"), sessionFiles, &SessionFileController::openSession);
    file->addAction(tr("Sa&ve Session…"), sessionFiles, &SessionFileController::saveSession)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    recentFiles = new RecentFilesMenu(window);
    file->addMenu(recentFiles);
    file->addSeparator();
    QAction* demo = file->addAction(tr("Load &Demo"), window, &MainWindow::loadDemo);
    demo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    file->addSeparator();
    QAction* exportImage = file->addAction(tr("Export Chart &Image…"), window, [charts] {
        if (ChartWidget* c = charts->currentChart()) {
            c->exportImageInteractive();
        }
    });
    exportImage->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction* exportData = file->addAction(tr("Export Chart &Data…"), window, [charts] {
        if (ChartWidget* c = charts->currentChart()) {
            c->exportCsvInteractive();
        }
    });
    // Nothing to export from an empty chart (issue 16).
    QObject::connect(file, &QMenu::aboutToShow, window, [charts, exportImage, exportData] {
        const ChartWidget* c = charts->currentChart();
        exportImage->setEnabled(c != nullptr && c->hasData());
        exportData->setEnabled(c != nullptr && c->hasData());
    });
    FrameOverlayView* view = window->frameView();
    overlayExport = file->addMenu(tr("Export &Overlay"));
    overlayExport->addAction(tr("Current &Frame…"), view, &FrameOverlayView::exportCurrentFrame);
    overlayExport->addAction(tr("All Frames as a &Grid…"), view,
                             &FrameOverlayView::exportAllFramesGrid);
    overlayExport->addAction(tr("The &Strip…"), view, &FrameOverlayView::exportStrip);
    overlayExport->addAction(tr("Every Frame as an Image &Sequence (for a video)…"), view,
                             &FrameOverlayView::exportFrameSequence);
    overlayExport->addAction(tr("&Copy Current Frame"), view, &FrameOverlayView::copyCurrentFrame);
    overlayExport->addSeparator();
    // The playing video with the groups on every frame, written on a worker (issue 30, 13).
    overlayExport->addAction(window->playerPanel()->clipExporter()->action());
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), window, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
}

void MainMenus::addEditMenu(MainWindow* window) {
    QMenu* edit = window->menuBar()->addMenu(tr("&Edit"));
    QAction* prefs = edit->addAction(tr("&Preferences…"), window, &MainWindow::showSettings);
    // The platform's key where it defines one (KDE, macOS); Ctrl+, elsewhere.
    prefs->setShortcuts(QKeySequence::keyBindings(QKeySequence::Preferences).isEmpty()
                            ? QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::Key_Comma)}
                            : QKeySequence::keyBindings(QKeySequence::Preferences));
    prefs->setMenuRole(QAction::PreferencesRole);
}

void MainMenus::addViewMenu(MainWindow* window) {
    QMenu* view = window->menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : window->findChildren<QDockWidget*>()) {
        view->addAction(dock->toggleViewAction());
    }
    view->addSeparator();
    GroupOverlay* overlay = window->overlay();
    QAction* next = view->addAction(tr("&Next Frame"), window, [overlay] {
        overlay->setCurrentFrame(overlay->currentFrame() + 1);
    });
    next->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Right));
    // Anywhere, as the docs say: also in floating docks (application context) and over spin
    // boxes and tab bars (MainWindow::eventFilter() keeps them from claiming the keys).
    next->setShortcutContext(Qt::ApplicationShortcut);
    QAction* previous = view->addAction(tr("&Previous Frame"), window, [overlay] {
        overlay->setCurrentFrame(overlay->currentFrame() - 1);
    });
    previous->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Left));
    previous->setShortcutContext(Qt::ApplicationShortcut);
    QAction* clear = view->addAction(tr("C&lear Group Selection"), window,
                                     [overlay] { overlay->setSelectedCodeword(-1); });
    clear->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    view->addSeparator();
    view->addAction(tr("&Reset Layout"), window, &MainWindow::resetLayout);
    QAction* full = view->addAction(tr("&Full Screen"), window, [window](bool on) {
        on ? window->showFullScreen() : window->showNormal();
    });
    full->setCheckable(true);
    full->setShortcut(QKeySequence::FullScreen);
}

void MainMenus::addCompressionMenu(MainWindow* window) {
    StudioSession* session = window->session();
    QMenu* compress = window->menuBar()->addMenu(tr("&Compression"));
    QAction* more = compress->addAction(tr("&Double Budget"), window,
                                        [session] { session->setBudget(session->budget() * 2); });
    more->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_BracketRight));
    QAction* less = compress->addAction(tr("&Halve Budget"), window, [session] {
        session->setBudget(std::max<std::int64_t>(1, session->budget() / 2));
    });
    less->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_BracketLeft));
    measureSweep =
        compress->addAction(tr("&Measure Budget Sweep"), session, &StudioSession::runBudgetSweep);
    compress->addSeparator();
    // Every running work, training and the question too (issue 30: Ctrl+. left training on).
    QAction* cancel = compress->addAction(tr("&Cancel Running Work"), window, [window, session] {
        session->cancel();
        if (window->trainerPanel()->task()->isRunning()) {
            window->trainerPanel()->cancel();
        }
        window->questionPanel()->task()->cancel();
        window->abCompareView()->answers()->task()->cancel();
    });
    cancel->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
}

void MainMenus::addHelpMenu(MainWindow* window) {
    QMenu* help = window->menuBar()->addMenu(tr("&Help"));
    QAction* guide = help->addAction(tr("&User Guide"), window, &MainWindow::showUserGuide);
    guide->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&Keyboard Shortcuts"), window, &MainWindow::showShortcuts);
    help->addSeparator();
    QAction* about = help->addAction(tr("&About ONCE Studio"), window, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    QAction* aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

}  // namespace once::studio
