// The A/B view (issue 30, view 14) driven through the real session and widgets: by default ONCE
// at the session's budget against half of it, each side's groups are the session's prepared
// compressor's at that budget, the difference is core's compareGroupings of the two, a peer
// method on one side is prepared once and handed to the session, the frame follows the main
// view, and a method that needs a codebook says so without one.
#include <ATen/ATen.h>

#include <QComboBox>
#include <QSpinBox>
#include <QtTest>

#include "../overlay/overlay_fixture.h"
#include "analysis/group_difference.h"
#include "compare/ab_compare_view.h"
#include "compare/difference_view.h"
#include "compress/prepared_compressor.h"
#include "session/methods.h"
#include "tasks/background_task.h"

using namespace once::studio;
using Fixture = test::OverlayFixture;

namespace {

bool settled(Fixture& f, AbCompareView& view) {
    return test::waitIdle(f.session) && test::waitTaskIdle(view.task(), 60000);
}

QString methodWithoutCodebook() {
    for (const QString& m : methods::all()) {
        if (!methods::needsCodebook(m)) {
            return m;
        }
    }
    return {};
}

}  // namespace

class TestAbCompareView : public QObject {
    Q_OBJECT

  private slots:
    void onceAtTwoBudgetsAndTheirDifference() {
        Fixture f(8);
        QVERIFY(f.ready());
        AbCompareView view(&f.session, &f.overlay);
        view.resize(1200, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(settled(f, view));
        QCOMPARE(view.methodBox(AbCompareView::A)->currentData().toString(), f.session.method());
        QCOMPARE(view.budgetBox(AbCompareView::A)->value(), 8);
        QCOMPARE(view.budgetBox(AbCompareView::B)->value(), 4);
        const auto a = view.result(AbCompareView::A);
        const auto b = view.result(AbCompareView::B);
        QVERIFY(a && b);
        QCOMPARE(a->budget, std::int64_t{8});
        QCOMPARE(b->budget, std::int64_t{4});
        auto prepared = f.session.preparedCompressor(f.session.method());
        QVERIFY(at::equal(a->groupOfToken, prepared->compress(8)->groupOfToken));
        QVERIFY(at::equal(b->groupOfToken, prepared->compress(4)->groupOfToken));
        const once::GroupDifference expected =
            once::compareGroupings(a->groupOfToken, b->groupOfToken);
        QCOMPARE(view.difference().state, expected.state);
        QCOMPARE(view.differenceView()->states(), expected.state);
        QVERIFY(expected.moved > 0);  // halving the budget merges groups
        QVERIFY2(view.differenceText().contains(QString::number(expected.moved)),
                 qPrintable(view.differenceText()));
        QCOMPARE(view.overlay(AbCompareView::A)->groupCount(), static_cast<int>(a->numOutputs));
        QVERIFY2(view.statsText(AbCompareView::B).contains(QString::number(b->numOutputs)),
                 qPrintable(view.statsText(AbCompareView::B)));

        // The same budget on both sides: nothing differs.
        view.budgetBox(AbCompareView::B)->setValue(8);
        QVERIFY(settled(f, view));
        QCOMPARE(view.difference().moved, std::int64_t{0});
        QCOMPARE(view.difference().keptShare(), 1.0);

        // The frame follows the main view.
        f.overlay.setCurrentFrame(2);
        QCOMPARE(view.overlay(AbCompareView::A)->currentFrame(), 2);
        QCOMPARE(view.overlay(AbCompareView::B)->currentFrame(), 2);
    }

    void aPeerIsPreparedOnceAndHandedToTheSession() {
        const QString peer = methodWithoutCodebook();
        QVERIFY(!peer.isEmpty());
        Fixture f(4);
        QVERIFY(f.ready());
        QVERIFY(!f.session.isPrepared(peer));
        AbCompareView view(&f.session, &f.overlay);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(settled(f, view));
        view.setSide(AbCompareView::B, peer, 6);
        QVERIFY(settled(f, view));
        QVERIFY(f.session.isPrepared(peer));
        QVERIFY2(view.statsText(AbCompareView::B).contains(QLatin1String("prepared now")),
                 qPrintable(view.statsText(AbCompareView::B)));
        const auto b = view.result(AbCompareView::B);
        QVERIFY(b);
        QCOMPARE(QString::fromStdString(b->method), peer);
        QCOMPARE(view.difference().state.size(), static_cast<std::size_t>(b->numTokens));
        // Again: prepared already, nothing prepared now.
        view.setSide(AbCompareView::B, peer, 5);
        QVERIFY(settled(f, view));
        QVERIFY(!view.statsText(AbCompareView::B).contains(QLatin1String("prepared now")));
    }

    void aCodebookMethodWithoutCodebookSaysSo() {
        StudioSession session;
        GroupOverlay overlay;
        const VideoData video = test::syntheticVideo();
        session.setBudget(4);
        overlay.setVideo(video);
        session.setVideo(video);
        AbCompareView view(&session, &overlay);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSide(AbCompareView::A, methods::preferred(), 4);
        QTest::qWait(50);
        QVERIFY(!view.task()->isRunning());
        QVERIFY2(view.statsText(AbCompareView::A).contains(QLatin1String("codebook")),
                 qPrintable(view.statsText(AbCompareView::A)));
        QVERIFY(!view.result(AbCompareView::A));
    }
};

QTEST_MAIN(TestAbCompareView)
#include "test_ab_compare_view.moc"
