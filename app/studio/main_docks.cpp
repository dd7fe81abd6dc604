#include "main_docks.h"

#include <QDockWidget>
#include <QLineEdit>
#include <QMainWindow>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <cstdint>

#include "batch/batch_panel.h"
#include "budget/budget_panel.h"
#include "charts/budget_latency_chart.h"
#include "charts/charts_panel.h"
#include "compare/ab_answers.h"
#include "compare/ab_compare_view.h"
#include "explorer/codebook_explorer.h"
#include "inspector/patch_inspector.h"
#include "overlay/frame_overlay_view.h"
#include "player/video_player_panel.h"
#include "projector/codebook_projector.h"
#include "question/question_panel.h"
#include "trainer/trainer_panel.h"

namespace once::studio {
namespace {

QDockWidget* addDock(QMainWindow* window, QWidget* widget, const QString& title,
                     const QString& objectName, Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, window);
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
    window->addDockWidget(area, dock);
    return dock;
}

/// A view that computes only for what is seen (`setActive`): active while its dock is in front.
template <typename View>
void activeWhileVisible(QDockWidget* dock, View* view) {
    view->setActive(false);
    QObject::connect(dock, &QDockWidget::visibilityChanged, view, &View::setActive);
}

}  // namespace

MainDocks MainDocks::build(QMainWindow* window, StudioSession* session, GroupOverlay* overlay,
                           FrameOverlayView* view) {
    MainDocks d;
    d.budget = new BudgetPanel(window);
    d.player = new VideoPlayerPanel(overlay, window);
    d.charts = new ChartsPanel(session, window);
    d.question = new QuestionPanel(session, window);
    d.trainer = new TrainerPanel(window);
    d.messages = new QPlainTextEdit(window);
    d.messages->setReadOnly(true);
    d.messages->setMaximumBlockCount(2000);

    const auto right = Qt::RightDockWidgetArea;
    const auto bottom = Qt::BottomDockWidgetArea;
    QDockWidget* budget =
        addDock(window, d.budget, tr("Budget"), QStringLiteral("budgetDock"), right);
    QDockWidget* player =
        addDock(window, d.player, tr("Playback"), QStringLiteral("playerDock"), right);
    QDockWidget* charts =
        addDock(window, d.charts, tr("Charts"), QStringLiteral("chartsDock"), right);
    QDockWidget* question =
        addDock(window, d.question, tr("Question"), QStringLiteral("questionDock"), bottom);
    QDockWidget* trainer =
        addDock(window, d.trainer, tr("Trainer"), QStringLiteral("trainerDock"), bottom);
    QDockWidget* messages =
        addDock(window, d.messages, tr("Messages"), QStringLiteral("messagesDock"), bottom);
    // The codebook explorer shares the charts' place: a tab beside them (tabified below).
    d.explorer = new CodebookExplorer(session, overlay, window);
    QDockWidget* explorer =
        addDock(window, d.explorer, tr("Codebook"), QStringLiteral("explorerDock"), right);
    // "Show Codeword in the Codebook View" in the frame view's context menu.
    CodebookExplorer* explorerPanel = d.explorer;
    const auto showCodeword = [explorer, explorerPanel](std::int64_t k) {
        explorer->show();
        explorer->raise();
        explorerPanel->showCodeword(k);
    };
    QObject::connect(view, &FrameOverlayView::codewordRequested, window, showCodeword);
    // The clicked patch under the microscope (view 15), a tab beside the codebook.
    d.inspector = new PatchInspector(session, overlay, window);
    QDockWidget* inspector =
        addDock(window, d.inspector, tr("Patch"), QStringLiteral("patchDock"), right);
    QObject::connect(d.inspector, &PatchInspector::codewordRequested, window, showCodeword);
    QObject::connect(view, &FrameOverlayView::inspectRequested, window, [inspector] {
        inspector->show();
        inspector->raise();
    });
    // The codebook and this video's tokens on one map (view 16), a tab beside them too.
    d.projector = new CodebookProjector(session, overlay, window);
    QDockWidget* projector =
        addDock(window, d.projector, tr("Projector"), QStringLiteral("projectorDock"), right);
    // The map is fitted only while its tab is in front (it is a second of CPU for a large
    // codebook, for nobody when the tab is behind another).
    activeWhileVisible(projector, d.projector);
    // Two compressions side by side with their difference (view 14): a tab beside the question.
    d.compare = new AbCompareView(session, overlay, window);
    QDockWidget* compare =
        addDock(window, d.compare, tr("A/B"), QStringLiteral("compareDock"), bottom);
    activeWhileVisible(compare, d.compare);
    // The A/B answers start from the question panel's question (until one is typed there).
    QObject::connect(d.question->questionEdit(), &QLineEdit::textChanged, d.compare->answers(),
                     &AbAnswers::offerQuestion);
    // `once bench` over a folder of videos (view 17); its table goes to Budget vs latency.
    d.batch = new BatchPanel(session, window);
    QDockWidget* batch = addDock(window, d.batch, tr("Batch"), QStringLiteral("batchDock"), bottom);
    ChartsPanel* chartsPanel = d.charts;
    QObject::connect(d.batch, &BatchPanel::benchFinished, window,
                     [chartsPanel](const once::EfficiencyBench& bench) {
                         chartsPanel->latencyChart()->setEfficiencyBench(bench);
                     });
    window->splitDockWidget(budget, charts, Qt::Vertical);
    window->tabifyDockWidget(charts, explorer);
    window->tabifyDockWidget(explorer, inspector);
    window->tabifyDockWidget(inspector, projector);
    charts->raise();
    window->tabifyDockWidget(budget, player);
    budget->raise();
    window->tabifyDockWidget(question, trainer);
    window->tabifyDockWidget(question, messages);
    window->tabifyDockWidget(messages, compare);
    window->tabifyDockWidget(compare, batch);
    question->raise();
    window->resizeDocks({budget, charts}, {260, 420}, Qt::Vertical);
    window->resizeDocks({charts}, {520}, Qt::Horizontal);
    return d;
}

}  // namespace once::studio
