// The patch inspector, the residual heat-map, the codebook projector and the A/B view (issue 30,
// views 14–16) in the real main window on the demo at 1366 × 768, driven as a person would: a click
// on a patch inspects it, the frame's context menu brings the Patch tab forward, the heat-map mode
// colours the frame, the Projector tab maps the codebook and a click on the map highlights a
// codeword in the frames. Saves the screenshots of docs/gui.md (build/…/screenshots, or
// ONCE_SCREENSHOT_DIR).
#include <qcustomplot.h>

#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QTableWidget>
#include <QtTest>

#include "compare/ab_answers.h"
#include "compare/ab_compare_view.h"
#include "inspector/patch_inspector.h"
#include "main_window.h"
#include "overlay/frame_overlay_view.h"
#include "overlay/group_overlay.h"
#include "overlay/overlay_controls.h"
#include "projector/codebook_projector.h"
#include "projector/projection_chart.h"
#include "question/question_panel.h"
#include "session/studio_session.h"
#include "studio_fixture.h"
#include "tasks/background_task.h"

using namespace once::studio;

namespace {
constexpr QSize kLaptop{1366, 768 - 40};  // the screen less a title bar

bool idle(BackgroundTask* task) {
    return test::waitTaskIdle(task);
}

QDockWidget* dock(MainWindow& window, const char* name) {
    return window.findChild<QDockWidget*>(QString::fromLatin1(name));
}

bool showsOnScreen(QDockWidget* d) {
    return d->isVisible() && !d->visibleRegion().isEmpty();
}
}  // namespace

class TestInspectionViews : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() { test::initDemoSuite(); }

    void aPatchIsInspectedAndTheHeatMapDrawn() {
        const auto shown = test::shownWindow(kLaptop);
        QVERIFY(shown);
        MainWindow& window = *shown;
        QVERIFY(test::loadDemo(window));
        PatchInspector* inspector = window.patchInspector();
        QDockWidget* patchDock = dock(window, "patchDock");
        QVERIFY(patchDock);
        QVERIFY(window.tabifiedDockWidgets(patchDock).contains(dock(window, "explorerDock")));

        FrameOverlayView* view = window.frameView();
        const int patch = 200;
        QTest::mouseClick(view, Qt::LeftButton, {}, view->patchCentre(patch));
        const int token =
            window.overlay()->currentFrame() * window.overlay()->patchesPerFrame() + patch;
        QCOMPARE(window.overlay()->inspectedToken(), token);
        // The context menu's Inspect This Patch brings the tab forward.
        QMenu* menu = view->createContextMenu(view->patchCentre(patch));
        QAction* inspect = nullptr;
        for (QAction* a : menu->actions()) {
            inspect = a->text().remove(QLatin1Char('&')) == QStringLiteral("Inspect This Patch")
                          ? a
                          : inspect;
        }
        QVERIFY(inspect && inspect->isEnabled());
        inspect->trigger();
        delete menu;
        QTRY_VERIFY(showsOnScreen(patchDock));
        QVERIFY(idle(inspector->task()));
        QCOMPARE(inspector->inspection().token, std::int64_t{token});
        const PatchInfo info = window.overlay()->patchInfo(window.overlay()->currentFrame(), patch);
        QCOMPARE(inspector->inspection().outputRow, std::int64_t{info.rank});
        QCOMPARE(inspector->inspection().nearest.front().id,
                 window.overlay()->nearestCodeword(token));
        QCOMPARE(inspector->table()->rowCount(), PatchInspector::kDefaultNearest);

        // The heat-map, chosen in the bar above the frame as a user would.
        auto* controls = window.findChild<OverlayControls*>();
        QVERIFY(controls);
        QComboBox* mode = controls->modeBox();
        mode->setCurrentIndex(mode->findData(static_cast<int>(GroupOverlay::ColourMode::Residual)));
        QCOMPARE(window.overlay()->colourMode(), GroupOverlay::ColourMode::Residual);
        QVERIFY(window.overlay()->residualScaleMax() > 0);
        // Without the group's highlight (which dims the rest) the whole heat-map shows; the
        // inspected patch keeps its ring.
        QTest::keyClick(view, Qt::Key_Escape);
        QCOMPARE(window.overlay()->selectedCodeword(), std::int64_t{-1});
        QCOMPARE(window.overlay()->inspectedToken(), token);
        const QImage shot =
            test::saveScreenshot(window, QStringLiteral("studio_patch_inspector_1366x768.png"));
        QCOMPARE(shot.size() / shot.devicePixelRatio(), kLaptop);
    }

    void theProjectorMapsTheCodebookAndPicksACodeword() {
        const auto shown = test::shownWindow(kLaptop);
        QVERIFY(shown);
        MainWindow& window = *shown;
        QVERIFY(test::loadDemo(window));
        CodebookProjector* projector = window.codebookProjector();
        QDockWidget* projectorDock = dock(window, "projectorDock");
        QVERIFY(projectorDock);
        // A tab behind another fits nothing.
        QVERIFY(!projector->isActive());
        QVERIFY(projector->chart()->map().codewords.empty());
        projectorDock->show();
        projectorDock->raise();
        QTRY_VERIFY(showsOnScreen(projectorDock));
        QVERIFY(idle(projector->mapTask()));
        ProjectionChart* chart = projector->chart();
        QCOMPARE(static_cast<std::int64_t>(chart->map().codewords.size()),
                 window.session()->codebook()->size());
        QCOMPARE(static_cast<std::int64_t>(chart->map().tokens.size()),
                 window.session()->video().features.numel() /
                     window.session()->video().features.size(-1));
        // The most used codeword of the video, clicked on the map.
        const at::Tensor counts = window.session()->assignment()->counts;
        const auto top = counts.argmax().item<std::int64_t>();
        const QPoint at = chart->codewordPosition(top);
        const std::int64_t picked = chart->codewordAt(at);
        QVERIFY(picked >= 0);
        QTest::mouseClick(chart->plot(), Qt::LeftButton, {}, at);
        QCOMPARE(window.overlay()->selectedCodeword(), picked);
        QVERIFY(window.overlay()->highlightsCodeword());
        QVERIFY(idle(projector->similarTask()));
        QCOMPARE(chart->chosen(), picked);
        // Given the height of the right column, as one drags the splitter to read a map.
        window.resizeDocks({projectorDock}, {560}, Qt::Vertical);
        QTest::qWait(100);
        const QImage shot =
            test::saveScreenshot(window, QStringLiteral("studio_projector_1366x768.png"));
        QCOMPARE(shot.size() / shot.devicePixelRatio(), kLaptop);
    }

    void theAbViewComparesTwoBudgetsInItsTab() {
        const auto shown = test::shownWindow(kLaptop);
        QVERIFY(shown);
        MainWindow& window = *shown;
        QVERIFY(test::loadDemo(window));
        AbCompareView* compare = window.abCompareView();
        QDockWidget* compareDock = dock(window, "compareDock");
        QVERIFY(compareDock);
        QVERIFY(compare->result(AbCompareView::A) == nullptr);  // a tab behind: nothing compared
        compareDock->show();
        compareDock->raise();
        QTRY_VERIFY(showsOnScreen(compareDock));
        QVERIFY(idle(compare->task()));
        const auto a = compare->result(AbCompareView::A);
        const auto b = compare->result(AbCompareView::B);
        QVERIFY(a && b);
        QCOMPARE(a->budget, window.session()->budget());
        QCOMPARE(b->budget, window.session()->budget() / 2);
        QVERIFY(compare->difference().moved > 0);
        // The demo encoder has no language model: Ask Both is off and says what to load.
        QVERIFY(!compare->answers()->askButton()->isEnabled());
        QVERIFY2(compare->answers()->askButton()->toolTip().contains(QStringLiteral("model")),
                 qPrintable(compare->answers()->askButton()->toolTip()));
        // Its question follows the Question panel's until one is typed here.
        QLineEdit* own = compare->answers()->questionEdit();
        window.questionPanel()->questionEdit()->setText(QStringLiteral("Who is speaking?"));
        QCOMPARE(own->text(), QStringLiteral("Who is speaking?"));
        own->setFocus();
        QTest::keyClicks(own, QStringLiteral(" Why?"));
        window.questionPanel()->questionEdit()->setText(QStringLiteral("Where are they?"));
        QCOMPARE(own->text(), QStringLiteral("Who is speaking? Why?"));
        own->clear();
        window.resizeDocks({compareDock}, {330}, Qt::Vertical);
        // The picture shows the answers row too: the dock's scroll area brought down to it.
        for (QWidget* w = compare->parentWidget(); w; w = w->parentWidget()) {
            if (auto* area = qobject_cast<QScrollArea*>(w)) {
                area->ensureWidgetVisible(compare->answers());
                break;
            }
        }
        QTest::qWait(100);
        const QImage shot =
            test::saveScreenshot(window, QStringLiteral("studio_ab_compare_1366x768.png"));
        QCOMPARE(shot.size() / shot.devicePixelRatio(), kLaptop);
    }
};

QTEST_MAIN(TestInspectionViews)
#include "test_inspection_views.moc"
