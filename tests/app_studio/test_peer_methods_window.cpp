// The peer baselines in the real main window with the demo: each peer is picked in the budget
// panel, the slider moves, and the overlay and counts follow; switching back to ONCE reuses the
// cached assignment (no new preparation); the question panel names the selected method.
#include <QComboBox>
#include <QLabel>
#include <QSettings>
#include <QSlider>
#include <QStandardPaths>
#include <QtTest>

#include "../widgets/studio_test_data.h"
#include "budget/budget_panel.h"
#include "budget/log_scale.h"
#include "codebook/codebook.h"
#include "main_window.h"
#include "overlay/frame_overlay_view.h"
#include "overlay/group_overlay.h"
#include "session/demo_assets.h"
#include "session/studio_session.h"
#include "studio_app_test.h"
#include "studio_application.h"
#include "studio_fixture.h"

using namespace once::studio;

class TestPeerMethodsWindow : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { test::initDemoSuite(); }

    void everyPeerRunsOnTheDemoLikeOnce() {
        const auto shown = test::shownWindow();
        QVERIFY(shown);
        MainWindow& window = *shown;
        QVERIFY(test::loadDemo(window));
        StudioSession* session = window.session();
        QVERIFY(session->codebook());
        const auto assignment = session->assignment();
        const int prepared = session->preparationCount();
        const std::int64_t n = session->video().numTokens();
        const std::int64_t k = session->codebook()->size();
        BudgetPanel* budget = window.budgetPanel();
        GroupOverlay* overlay = window.overlay();
        QComboBox* methods = budget->methodBox();
        QCOMPARE(methods->itemData(0).toString(), QStringLiteral("once"));
        QVERIFY(methods->count() >= 8);

        int peers = 0;
        for (int i = 1; i < methods->count(); ++i) {
            const QString method = methods->itemData(i).toString();
            methods->setCurrentIndex(i);
            QCOMPARE(session->method(), method);
            QCOMPARE(budget->codebookSize(), n);  // a peer's budget reaches N
            QVERIFY(!budget->variantBox()->isEnabled());
            for (std::int64_t b : {std::int64_t{729}, std::int64_t{3000}}) {
                budget->slider()->setValue(LogScale{n}.positionOf(b));
                const std::int64_t want = budget->budget();  // the slider's step nearest to b
                QVERIFY2(test::waitForResult(*session, method, want), qPrintable(method));
                const auto r = session->result();
                QVERIFY2(r->numOutputs <= want, qPrintable(method));
                QCOMPARE(overlay->groupCount(), static_cast<int>(r->numOutputs));
                QCOMPARE(budget->readout(QStringLiteral("llm")),
                         QString::number(r->numOutputs + session->video().layoutTokenCount()));
                QVERIFY(budget->readout(QStringLiteral("coverage")).contains(QLatin1Char('%')));
                QVERIFY(budget->readout(QStringLiteral("M"))
                            .startsWith(QString::number(r->numOutputs)));
            }
            // Hover over the frame's centre: no codeword, no residual.
            const PatchInfo info = overlay->patchInfo(0, 27 * 13 + 13);
            QVERIFY(info.valid && !info.hasCodeword && !info.hasResidual);
            QVERIFY(window.frameView()->describe(info).contains(QStringLiteral("—")));
            ++peers;
        }
        QCOMPARE(session->preparationCount(), prepared + peers);

        // Back to ONCE: the cached assignment at a budget within K, nothing prepared again.
        methods->setCurrentIndex(0);
        QVERIFY(budget->variantBox()->isEnabled());
        QCOMPARE(budget->codebookSize(), k);
        QVERIFY(
            test::waitForResult(*session, QStringLiteral("once"), std::min(k, session->budget())));
        QCOMPARE(session->assignment(), assignment);
        QCOMPARE(session->preparationCount(), prepared + peers);
        QVERIFY(overlay->hasCodewords());
        // A peer again: its prepared state is still there.
        methods->setCurrentIndex(methods->findData(QStringLiteral("fastvid")));
        QVERIFY(test::waitForResult(*session, QStringLiteral("fastvid"), session->budget()));
        QCOMPARE(session->preparationCount(), prepared + peers);
        QVERIFY(window.close());
    }
};

QTEST_MAIN(TestPeerMethodsWindow)
#include "test_peer_methods_window.moc"
