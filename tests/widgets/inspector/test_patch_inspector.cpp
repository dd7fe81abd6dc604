// The patch inspector and the residual heat-map (issue 30, view 15) driven through the real
// session, frame view and controls: a click inspects the patch, the inspector's numbers are
// core's inspectToken of that token (k̂ = the assignment's), a new budget re-inspects it, a
// double-click on a codeword highlights it, and the heat-map colours each patch by its residual.
#include <ATen/ATen.h>

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QtTest>

#include "../overlay/overlay_fixture.h"
#include "compress/token_inspection.h"
#include "inspector/patch_inspector.h"
#include "overlay/overlay_controls.h"
#include "overlay/overlay_export.h"
#include "tasks/background_task.h"

using namespace once::studio;
using Fixture = test::OverlayFixture;

namespace {

/// Waits until the session has nothing queued and the inspector's worker is idle.
bool settled(Fixture& f, PatchInspector& inspector) {
    return test::waitIdle(f.session) && test::waitTaskIdle(inspector.task(), 60000);
}

}  // namespace

class TestPatchInspector : public QObject {
    Q_OBJECT

  private slots:
    void aClickInspectsThePatchWithCoresNumbers() {
        Fixture f(4);
        PatchInspector inspector(&f.session, &f.overlay);
        QVERIFY(inspector.heading()->text().contains(QLatin1String("Click a patch")));
        QVERIFY(f.shown(QSize(640, 480)));
        f.overlay.setCurrentFrame(2);
        const int patch = 9;
        QTest::mouseClick(&f.view, Qt::LeftButton, {}, f.view.patchCentre(patch));
        const int token = 2 * f.overlay.patchesPerFrame() + patch;
        QCOMPARE(f.overlay.inspectedToken(), token);
        QVERIFY(settled(f, inspector));
        const once::TokenInspection& shown = inspector.inspection();
        QCOMPARE(shown.token, std::int64_t{token});

        const auto result = f.session.result();
        const once::TokenInspection expected =
            once::inspectToken(f.session.video().features, f.session.codebook().get(), *result,
                               token, PatchInspector::kDefaultNearest);
        QCOMPARE(shown.nearest.size(), expected.nearest.size());
        QCOMPARE(inspector.table()->rowCount(), static_cast<int>(expected.nearest.size()));
        for (std::size_t j = 0; j < expected.nearest.size(); ++j) {
            QCOMPARE(shown.nearest[j].id, expected.nearest[j].id);
            QCOMPARE(shown.nearest[j].cosine, expected.nearest[j].cosine);
            QCOMPARE(inspector.table()->item(static_cast<int>(j), 1)->text(),
                     QString::number(expected.nearest[j].id));
        }
        // k̂ of the list is the assignment's, the group the overlay's.
        QCOMPARE(shown.nearest[0].id, f.overlay.nearestCodeword(token));
        const PatchInfo info = f.overlay.patchInfo(2, patch);
        QCOMPARE(shown.outputRow, std::int64_t{info.rank});
        QCOMPARE(shown.groupCodeword, info.codeword);
        QCOMPARE(shown.residual, info.residual);
        QVERIFY(inspector.heading()->text().contains(QString::number(token)));
        QVERIFY2(inspector.detailText().contains(QString::number(info.codeword)),
                 qPrintable(inspector.detailText()));
        // The group's codeword is marked in the list.
        for (int row = 0; row < inspector.table()->rowCount(); ++row) {
            const bool own =
                inspector.table()->item(row, 1)->text() == QString::number(info.codeword);
            QCOMPARE(inspector.table()->item(row, 3)->text().contains(QLatin1String("its group")),
                     own);
        }
    }

    void aNewBudgetReinspectsAndSaysWhenTheTokenWasReassigned() {
        Fixture f(8);
        PatchInspector inspector(&f.session, &f.overlay);
        QVERIFY(f.ready());
        f.session.setBudget(2);  // 2 of 12 codewords: most tokens lose their k̂
        QVERIFY(settled(f, inspector));
        f.overlay.setResult(f.session.result(), f.session.assignment());
        const auto result = f.session.result();
        QCOMPARE(result->budget, std::int64_t{2});
        int reassigned = -1;
        for (int t = 0; t < static_cast<int>(result->numTokens) && reassigned < 0; ++t) {
            const bool kept =
                (result->codewordIds == f.overlay.nearestCodeword(t)).any().item<bool>();
            reassigned = kept ? -1 : t;
        }
        QVERIFY(reassigned >= 0);
        f.overlay.setInspectedToken(reassigned);
        QVERIFY(settled(f, inspector));
        QCOMPARE(inspector.inspection().token, std::int64_t{reassigned});
        QVERIFY(inspector.inspection().groupCodewordRank > 0);
        QCOMPARE(inspector.inspection().outputRow,
                 result->groupOfToken[reassigned].item<std::int64_t>());
        QVERIFY2(inspector.detailText().contains(QLatin1String("reassigned")),
                 qPrintable(inspector.detailText()));

        // The budget moves back: the same patch, inspected again under the new result.
        f.session.setBudget(8);
        QVERIFY(settled(f, inspector));
        QCOMPARE(inspector.inspection().token, std::int64_t{reassigned});
        QCOMPARE(inspector.inspection().outputRow,
                 f.session.result()->groupOfToken[reassigned].item<std::int64_t>());
    }

    void doubleClickingACodewordHighlightsIt() {
        Fixture f(4);
        PatchInspector inspector(&f.session, &f.overlay);
        QVERIFY(f.ready());
        f.overlay.setInspectedToken(5);
        QVERIFY(settled(f, inspector));
        inspector.nearestCountBox()->setValue(3);
        QVERIFY(settled(f, inspector));
        QCOMPARE(inspector.table()->rowCount(), 3);
        QSignalSpy requested(&inspector, &PatchInspector::codewordRequested);
        const std::int64_t second = inspector.inspection().nearest[1].id;
        emit inspector.table()->cellDoubleClicked(1, 1);
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.first().first().value<std::int64_t>(), second);
        QVERIFY(f.overlay.highlightsCodeword());
        QCOMPARE(f.overlay.selectedCodeword(), second);
    }

    void theInspectedPatchIsRingedAndForgottenWithTheVideo() {
        Fixture f(4);
        QVERIFY(f.ready());
        const QImage before = renderOverlayFrame(f.overlay, 0);
        f.overlay.setInspectedToken(7);
        const QImage after = renderOverlayFrame(f.overlay, 0);
        QVERIFY(before != after);
        QCOMPARE(renderOverlayFrame(f.overlay, 1), renderOverlayFrame(f.overlay, 1));
        VideoData other = test::syntheticVideo(3);
        other.path = QStringLiteral("another.mp4");
        f.overlay.setVideo(other);
        QCOMPARE(f.overlay.inspectedToken(), -1);
    }

    void theResidualHeatMapColoursByResidual() {
        Fixture f(4);
        QVERIFY(f.ready());
        OverlayControls controls(&f.overlay);
        QComboBox* mode = controls.modeBox();
        const int heat = mode->findData(static_cast<int>(GroupOverlay::ColourMode::Residual));
        QVERIFY(heat >= 0);
        mode->setCurrentIndex(heat);
        QCOMPARE(f.overlay.colourMode(), GroupOverlay::ColourMode::Residual);
        QVERIFY(!controls.residualScale()->isHidden());
        const at::Tensor r = f.session.result()->residual;
        const float top = r.max().item<float>();
        QCOMPARE(f.overlay.residualScaleMax(), top);
        const auto high = r.argmax().item<std::int64_t>();
        const auto low = r.argmin().item<std::int64_t>();
        QCOMPARE(f.overlay.fillColour(static_cast<int>(high)), GroupOverlay::residualColour(1.0));
        QCOMPARE(f.overlay.fillColour(static_cast<int>(low)),
                 GroupOverlay::residualColour(r[low].item<float>() / top));
        QVERIFY(GroupOverlay::residualColour(0.0) != GroupOverlay::residualColour(1.0));

        // A result without residuals (a peer): the heat-map is unavailable, group colours drawn.
        auto peer = std::make_shared<once::CompressionResult>(*f.session.result());
        peer->residual = at::Tensor();
        f.overlay.setResult(peer);
        QVERIFY(!f.overlay.hasResiduals());
        auto* model = qobject_cast<QStandardItemModel*>(mode->model());
        QVERIFY(model && !model->item(heat)->isEnabled());
        QVERIFY(controls.residualScale()->isHidden());
        const int g = f.overlay.groupOfToken(0);
        QCOMPARE(f.overlay.fillColour(0), GroupOverlay::codewordColour(f.overlay.groupKey(g)));
    }
};

QTEST_MAIN(TestPatchInspector)
#include "test_patch_inspector.moc"
