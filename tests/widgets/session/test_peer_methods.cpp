// The peer baselines in the studio, exactly like ONCE: the method selector lists ONCE first and
// then the registry's peers (with their summaries as tooltips), each peer is prepared once per
// video and re-compressed from that state as the slider moves, the overlay and counts follow
// (dropped tokens shown as such, "—" instead of a codeword or residual), switching back to a
// method prepares nothing again, a peer works without a codebook, ONCE without one says that it
// needs one, and the budget sweep measures whichever method is selected.
#include <QComboBox>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QtTest>

#include "../budget_fixture.h"
#include "../studio_test_data.h"
#include "budget/budget_panel.h"
#include "budget/log_scale.h"
#include "charts/budget_latency_chart.h"
#include "charts/chart_data.h"
#include "compress/prepared_compressor.h"
#include "compress/token_compressor.h"
#include "overlay/frame_overlay_view.h"
#include "overlay/group_overlay.h"
#include "session/methods.h"
#include "session/session_binder.h"
#include "session/studio_session.h"

using namespace once::studio;

namespace {

struct Fixture : test::BoundBudgetPanel {
    FrameOverlayView view{&overlay};
};
using test::pickMethod;

QStringList peers() {
    QStringList out = methods::all();
    out.removeAll(QStringLiteral("once"));
    return out;
}

}  // namespace

class TestPeerMethods : public QObject {
    Q_OBJECT
  private slots:
    void selectorListsOnceFirstThenThePeers() {
        BudgetPanel panel;
        QComboBox* box = panel.methodBox();
        const QStringList methods = methods::all();
        QCOMPARE(box->count(), static_cast<int>(methods.size()));
        QCOMPARE(box->itemData(0).toString(), QStringLiteral("once"));
        QCOMPARE(box->itemText(0), QStringLiteral("ONCE"));
        // Every registered peer is offered, with the registry's summary as its tooltip.
        const auto infos = once::compressorInfos();
        QVERIFY(infos.size() >= 9);
        for (const auto& info : infos) {
            const int i = box->findData(QString::fromStdString(info.method));
            QVERIFY2(i >= 0, info.method.c_str());
            const QString tip = box->itemData(i, Qt::ToolTipRole).toString();
            QVERIFY2(tip.contains(QString::fromStdString(info.summary)), qPrintable(tip));
        }
        for (const char* peer : {"fastvid", "visionzip", "dycoke", "tome", "vqtoken",
                                 "spatial-pool", "frame-drop", "forestprune"}) {
            QVERIFY2(box->findData(QString::fromLatin1(peer)) > 0, peer);
        }
        // The variant selector is ONCE's: disabled for a peer.
        panel.setMaximumBudget(100);
        QVERIFY(panel.variantBox()->isEnabled());
        QSignalSpy changed(&panel, &BudgetPanel::methodChanged);
        pickMethod(panel, QStringLiteral("fastvid"));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.last().first().toString(), QStringLiteral("fastvid"));
        QVERIFY(!panel.variantBox()->isEnabled());
        QVERIFY(panel.slider()->isEnabled());
        // Programmatic changes do not echo back.
        panel.setMethod(QStringLiteral("once"));
        QCOMPARE(changed.count(), 1);
        QVERIFY(panel.variantBox()->isEnabled());
    }

    void eachPeerFollowsTheSliderAndSwitchingBackReusesThePreparation() {
        Fixture f;
        const VideoData video = test::syntheticVideo(4, 6, 6, 16);
        const std::int64_t n = video.numTokens();  // 144
        f.session.setVideo(video);
        f.session.setCodebook(test::codebookFrom(video, 32));
        QVERIFY(test::waitIdle(f.session));
        QCOMPARE(f.session.preparationCount(), 1);  // ONCE's assignment
        const auto assignment = f.session.assignment();

        int prepared = 1;
        for (const QString& peer : peers()) {
            pickMethod(f.panel, peer);
            QCOMPARE(f.session.method(), peer);
            // A peer's budget reaches N, not K.
            QCOMPARE(f.panel.codebookSize(), n);
            QVERIFY(test::waitForResult(f.session, peer, f.session.budget()));
            QCOMPARE(f.session.preparationCount(), ++prepared);
            QVERIFY(f.session.isPrepared(peer));
            for (std::int64_t b : {std::int64_t{8}, std::int64_t{36}, n}) {
                f.panel.slider()->setValue(LogScale{n}.positionOf(b));
                // Below the method's smallest useful budget the slider stops there (frame drop
                // and DyCoke keep whole frames: P = 36), never at a budget giving no token.
                b = std::max(b, f.panel.minimumBudget());
                QCOMPARE(f.panel.budget(), b);
                QVERIFY2(test::waitForResult(f.session, peer, b), qPrintable(peer));
                const auto r = f.session.result();
                QVERIFY2(r->numOutputs <= b, qPrintable(peer));
                QVERIFY2(r->numOutputs > 0, qPrintable(peer));  // issue 16: never 0 tokens
                QCOMPARE(r->numTokens, n);
                // Overlay and counts follow.
                QCOMPARE(f.overlay.groupCount(), static_cast<int>(r->numOutputs));
                QVERIFY(f.panel.readout(QStringLiteral("M"))
                            .startsWith(QString::number(r->numOutputs)));
                QVERIFY(f.panel.readout(QStringLiteral("coverage")).contains(QLatin1Char('%')));
                QCOMPARE(f.panel.readout(QStringLiteral("llm")), QString::number(r->numOutputs));
                QVERIFY(!f.overlay.hasCodewords());
                const at::Tensor g = r->groupOfToken;
                const int dropped = static_cast<int>(g.lt(0).sum().item<std::int64_t>());
                QCOMPARE(f.overlay.droppedCount(), dropped);
                QCOMPARE(r->coverage<1.0, dropped> 0);
                // Hover: a dash where ONCE shows a codeword id and a residual.
                for (int token = 0; token < n; ++token) {
                    const int t = token / 36, p = token % 36;
                    const PatchInfo info = f.overlay.patchInfo(t, p);
                    QVERIFY(info.valid && !info.hasCodeword && !info.hasResidual);
                    QCOMPARE(info.dropped, g[token].item<std::int64_t>() < 0);
                    const QString text = f.view.describe(info);
                    QVERIFY2(text.contains(QStringLiteral("—")), qPrintable(text));
                    if (info.dropped) {
                        QVERIFY2(text.contains(QLatin1String("Dropped")), qPrintable(text));
                        QVERIFY(f.overlay.isDropped(token));
                    } else {
                        QCOMPARE(info.groupSize, r->groupSizes[info.rank].item<std::int64_t>());
                    }
                }
            }
            QCOMPARE(f.session.preparationCount(), prepared);  // the slider prepares nothing
        }

        // Back to ONCE: the cached assignment, no new preparation, codewords again.
        pickMethod(f.panel, QStringLiteral("once"));
        QCOMPARE(f.panel.codebookSize(), std::int64_t{32});
        QVERIFY(f.session.budget() <= 32);
        QVERIFY(test::waitForResult(f.session, QStringLiteral("once"), f.session.budget()));
        QCOMPARE(f.session.assignment(), assignment);
        QCOMPARE(f.session.preparationCount(), prepared);
        QVERIFY(f.overlay.hasCodewords());
        QVERIFY(f.panel.readout(QStringLiteral("M")).contains(QLatin1String("codewords")));
        // And to a peer again: its prepared state is reused.
        pickMethod(f.panel, QStringLiteral("fastvid"));
        QVERIFY(test::waitForResult(f.session, QStringLiteral("fastvid"), f.session.budget()));
        QCOMPARE(f.session.preparationCount(), prepared);

        // A new video forgets the peers: the selected one is prepared again for it.
        f.session.setVideo(test::syntheticVideo(4, 6, 6, 16, 11));
        QVERIFY(test::waitForResult(f.session, QStringLiteral("fastvid"), f.session.budget()));
        QVERIFY(!f.session.isPrepared(QStringLiteral("tome")));
        QVERIFY(f.session.isPrepared(QStringLiteral("fastvid")));
    }

    void peerGroupsAreSelectableAndDroppedTokensDistinct() {
        Fixture f;
        f.session.setVideo(test::syntheticVideo(4, 6, 6, 16));
        pickMethod(f.panel, QStringLiteral("frame-drop"));
        // Frame drop at B = 72 keeps floor(72 / 36) = 2 whole frames and drops the others.
        f.panel.spinBox()->setValue(72);
        QVERIFY(test::waitForResult(f.session, QStringLiteral("frame-drop"), 72));
        const auto r = f.session.result();
        QCOMPARE(r->numOutputs, std::int64_t{72});
        QCOMPARE(f.overlay.droppedCount(), 72);
        QVERIFY(f.panel.readout(QStringLiteral("coverage")).startsWith(QLatin1String("50")));
        int keptFrame = -1, droppedFrame = -1;
        for (int t = 0; t < 4; ++t) {
            (f.overlay.isDropped(t * 36) ? droppedFrame : keptFrame) = t;
        }
        QVERIFY(keptFrame >= 0 && droppedFrame >= 0);
        // Groups differ in colour although no codeword tells them apart.
        QVERIFY(f.overlay.fillColour(keptFrame * 36) != f.overlay.fillColour(keptFrame * 36 + 1));
        QCOMPARE(f.overlay.fillColour(droppedFrame * 36), QColor(60, 60, 60));
        // Clicking a kept patch selects its group; a dropped one clears the selection.
        f.overlay.toggleSelectionAt(keptFrame, 7);
        QCOMPARE(f.overlay.selectedGroup(), f.overlay.groupOfToken(keptFrame * 36 + 7));
        QCOMPARE(f.overlay.membersInFrame(f.overlay.selectedGroup(), keptFrame), 1);
        f.overlay.toggleSelectionAt(droppedFrame, 7);
        QCOMPARE(f.overlay.selectedGroup(), -1);
    }

    void forestPruneRunsLikeEveryPeer() {
        // Registered in its own file only: the menu, the slider's range and the overlay follow.
        Fixture f;
        f.session.setVideo(test::syntheticVideo(4, 6, 6, 16));
        pickMethod(f.panel, QStringLiteral("forestprune"));
        QVERIFY(f.panel.notice().isEmpty());
        // The graph pruner keeps 18 of each frame's 36 tokens: the registry's range says budgets
        // up to 4 · 18 change the output (the slider still spans N, as for every peer).
        QCOMPARE(f.panel.codebookSize(), std::int64_t{4 * 36});
        QCOMPARE(methods::budgetRange(QStringLiteral("forestprune"),
                                      methods::budgetShape(f.session.video(), 0))
                     .max,
                 std::int64_t{4 * 18});
        f.panel.spinBox()->setValue(20);
        QVERIFY(test::waitForResult(f.session, QStringLiteral("forestprune"), 20));
        const auto r = f.session.result();
        QVERIFY(r->numOutputs >= 1 && r->numOutputs <= 20);
        QCOMPARE(f.overlay.groupCount(), static_cast<int>(r->numOutputs));
        QCOMPARE(f.overlay.droppedCount(), static_cast<int>(4 * 36 - r->numOutputs));
    }

    // Issue 30, defect 7: ONCE at 64 → frame drop (raised to its smallest budget, a frame) →
    // ONCE again came back at 256, not 64: methods compared "at the same budget" were not.
    void switchingMethodsKeepsTheBudgetAskedFor() {
        Fixture f;
        const VideoData video = test::syntheticVideo(4, 6, 6, 16);
        QVERIFY(test::openWithCodebook(f.session, video, 48));
        pickMethod(f.panel, QStringLiteral("once"));
        f.panel.spinBox()->setValue(8);
        QVERIFY(test::waitForResult(f.session, QStringLiteral("once"), 8));
        pickMethod(f.panel, QStringLiteral("frame-drop"));
        // Frame drop keeps whole frames: at least one frame of 36 patches.
        QVERIFY(test::waitForResult(f.session, QStringLiteral("frame-drop"), 36));
        QCOMPARE(f.panel.spinBox()->value(), 36);
        pickMethod(f.panel, QStringLiteral("once"));
        QVERIFY(test::waitForResult(f.session, QStringLiteral("once"), 8));
        QCOMPARE(f.panel.spinBox()->value(), 8);
        // A peer whose range holds the budget gets exactly it.
        pickMethod(f.panel, QStringLiteral("tome"));
        QVERIFY(test::waitForResult(f.session, QStringLiteral("tome"), 8));
        // A budget the user moves to while a peer is chosen is the one carried back.
        f.panel.spinBox()->setValue(20);
        QVERIFY(test::waitForResult(f.session, QStringLiteral("tome"), 20));
        pickMethod(f.panel, QStringLiteral("once"));
        QVERIFY(test::waitForResult(f.session, QStringLiteral("once"), 20));
    }

    void aPeerNeedsNoCodebookButOnceSaysItNeedsOne() {
        Fixture f;
        f.session.setVideo(test::syntheticVideo(4, 6, 6, 16));
        QVERIFY(test::waitIdle(f.session, 30000, false));
        // ONCE without a codebook: no result, and the panel says why, plainly.
        QVERIFY(!f.session.result());
        QVERIFY(!f.overlay.hasResult());
        QVERIFY2(f.panel.notice().contains(QLatin1String("needs a codebook")),
                 qPrintable(f.panel.notice()));
        QVERIFY(f.panel.methodBox()->isEnabled());
        QVERIFY(!f.panel.slider()->isEnabled());
        // A peer works on the video alone.
        pickMethod(f.panel, QStringLiteral("visionzip"));
        QVERIFY(f.panel.notice().isEmpty());
        QVERIFY(f.panel.slider()->isEnabled());
        QCOMPARE(f.panel.codebookSize(), std::int64_t{144});
        f.panel.spinBox()->setValue(40);
        QVERIFY(test::waitForResult(f.session, QStringLiteral("visionzip"), 40));
        QVERIFY(f.overlay.hasResult());
        QVERIFY(f.session.result()->numOutputs <= 40);
        QCOMPARE(f.overlay.groupCount(), static_cast<int>(f.session.result()->numOutputs));
        // Back to ONCE: the message again, nothing drawn.
        pickMethod(f.panel, QStringLiteral("once"));
        QVERIFY(test::waitIdle(f.session, 30000, false));
        QVERIFY(!f.session.result());
        QVERIFY(!f.overlay.hasResult());
        QVERIFY(f.panel.notice().contains(QLatin1String("needs a codebook")));
        // An unknown method is an error that changes nothing.
        QSignalSpy errors(&f.session, &StudioSession::errorOccurred);
        f.session.setMethod(QStringLiteral("no-such-method"));
        QCOMPARE(errors.count(), 1);
        QCOMPARE(f.session.method(), QStringLiteral("once"));
    }

    // VQToken clustered the whole video again for every budget, although every budget above its
    // k_max gives the same clusters (minutes per slider step on a long video; the demo window
    // test ran past QTest's five-minute limit). Above the range's maximum the one compression at
    // the maximum serves; the sweep still times fresh compressions.
    void budgetsAboveTheRangeReuseTheCompressionAtItsMaximum() {
        const VideoData video = test::syntheticVideo(4, 6, 6, 16);
        const once::BudgetRange range =
            once::budgetRange("vqtoken", methods::budgetShape(video, 0));
        QVERIFY(range.max < video.numTokens());  // k_max 32 < N 144
        once::CompressorSpec spec;
        spec.method = "vqtoken";
        auto peer = once::PreparedCompressor::prepare(spec, nullptr, video);
        QCOMPARE(peer->compressions(), 0);
        const auto high = peer->compress(100);
        QCOMPARE(peer->compressions(), 1);
        const auto higher = peer->compress(140);
        QCOMPARE(peer->compressions(), 1);
        QCOMPARE(high->budget, std::int64_t{100});
        QCOMPARE(higher->budget, std::int64_t{140});
        QCOMPARE(higher->method, std::string("vqtoken"));
        QVERIFY(at::equal(high->tokens, higher->tokens));
        // The same tokens as a fresh compression at that budget (the range's promise).
        const once::CompressionResult fresh = peer->measure(140);
        QCOMPARE(peer->compressions(), 2);
        QVERIFY(at::equal(fresh.tokens, higher->tokens));
        QVERIFY(at::equal(fresh.groupOfToken, higher->groupOfToken));
        // Inside the range every budget is computed.
        const auto low = peer->compress(range.max - 10);
        QCOMPARE(peer->compressions(), 3);
        QVERIFY(low->numOutputs <= range.max - 10);
    }

    void theBudgetSweepMeasuresTheSelectedPeer() {
        Fixture f;
        f.session.setVideo(test::syntheticVideo(4, 6, 6, 16));
        pickMethod(f.panel, QStringLiteral("spatial-pool"));
        QVERIFY(test::waitForResult(f.session, QStringLiteral("spatial-pool"), f.session.budget()));
        f.session.runBudgetSweep();
        QTRY_VERIFY_WITH_TIMEOUT(f.session.sweep().has_value(), 60000);
        const once::BudgetSweep sweep = *f.session.sweep();
        QCOMPARE(sweep.method, std::string("spatial-pool"));
        QCOMPARE(sweep.denseTokens, std::int64_t{144});
        QCOMPARE(sweep.points.back().budget, std::int64_t{144});
        for (const once::SweepPoint& p : sweep.points) {
            QVERIFY(p.outputs <= p.budget);
            QVERIFY(p.compressMs() >= 0);
        }
        BudgetLatencyChart chart;
        chart.setSweep(sweep, 0);
        const CsvTable table = chart.table();
        QCOMPARE(table.rows.size(), static_cast<qsizetype>(sweep.points.size()) + 1);
        QCOMPARE(table.rows.last().first(), QStringLiteral("spatial-pool"));
        // Another method: the sweep was for the previous one and is cleared.
        pickMethod(f.panel, QStringLiteral("frame-drop"));
        QVERIFY(!f.session.sweep().has_value());
    }
};

QTEST_MAIN(TestPeerMethods)
#include "test_peer_methods.moc"
