// The codeword-group overlay driven through the real session and widgets: every patch gets its
// group, hover describes rank/codeword/size/residual, a click highlights the group in all frames,
// no-reassign drops tokens visibly, and features without frames draw on a neutral background.
#include <ATen/ATen.h>

#include <QSignalSpy>
#include <QtTest>

#include "overlay/frame_strip.h"
#include "overlay_fixture.h"

using namespace once::studio;
using Fixture = test::OverlayFixture;

class TestOverlay : public QObject {
    Q_OBJECT

  private slots:
    void everyPatchHasItsGroup() {
        Fixture f(4);
        QVERIFY(f.ready());
        const auto r = f.session.result();
        QCOMPARE(r->budget, std::int64_t{4});
        QVERIFY(r->numOutputs <= 4);
        QVERIFY(f.overlay.hasResult());
        QCOMPARE(f.overlay.groupCount(), static_cast<int>(r->numOutputs));
        QCOMPARE(f.overlay.frameCount(), 4);
        const at::Tensor groups = r->groupOfToken.to(at::kLong);
        const at::Tensor sizes = r->groupSizes.to(at::kLong);
        const int p = f.overlay.patchesPerFrame();
        for (int t = 0; t < f.overlay.frameCount(); ++t) {
            for (int i = 0; i < p; ++i) {
                const PatchInfo info = f.overlay.patchInfo(t, i);
                QVERIFY(info.valid);
                const auto g = groups[t * p + i].item<std::int64_t>();
                QCOMPARE(info.rank, static_cast<int>(g));
                QCOMPARE(info.codeword, r->codewordIds[g].item<std::int64_t>());
                QCOMPARE(info.groupSize, sizes[g].item<std::int64_t>());
                QCOMPARE(info.residual, r->residual[t * p + i].item<float>());
                QVERIFY(!info.dropped);
            }
        }
    }

    void hoverDescribesThePatchAndClickSelectsItsGroup() {
        Fixture f(4);
        QVERIFY(f.shown(QSize(640, 480)));
        FrameOverlayView& view = f.view;
        QSignalSpy hovered(&view, &FrameOverlayView::patchHovered);
        const int patch = 7;
        QTest::mouseMove(&view, view.patchCentre(patch));
        QTRY_VERIFY(!hovered.isEmpty());
        const auto info = hovered.last().first().value<PatchInfo>();
        QVERIFY(info.valid);
        QCOMPARE(info.patch, patch);
        const QString text = view.describe(info);
        QVERIFY2(text.contains(QString::number(info.codeword)), qPrintable(text));
        QVERIFY2(text.contains(QString::number(info.groupSize)), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("residual")), qPrintable(text));

        QSignalSpy selected(&f.overlay, &GroupOverlay::selectionChanged);
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.patchCentre(patch));
        QCOMPARE(selected.count(), 1);
        QCOMPARE(f.overlay.selectedCodeword(), info.codeword);
        QCOMPARE(f.overlay.selectedGroup(), info.rank);
        // Members across all frames add up to the group size.
        int members = 0;
        for (int t = 0; t < f.overlay.frameCount(); ++t) {
            members += f.overlay.membersInFrame(info.rank, t);
        }
        QCOMPARE(static_cast<std::int64_t>(members), info.groupSize);

        // The strip shows the same highlight; a click there changes the frame.
        FrameStrip strip(&f.overlay);
        strip.resize(600, 120);
        strip.show();
        QVERIFY(QTest::qWaitForWindowExposed(&strip));
        QTest::mouseClick(strip.viewport(), Qt::LeftButton, {}, strip.thumbnailRect(2).center());
        QCOMPARE(f.overlay.currentFrame(), 2);

        // Clicking the same group again clears the selection.
        f.overlay.setCurrentFrame(0);
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.patchCentre(patch));
        QCOMPARE(f.overlay.selectedCodeword(), std::int64_t{-1});
    }

    void selectionFollowsTheCodewordAcrossBudgets() {
        Fixture f(6);
        QVERIFY(f.ready());
        const std::int64_t top = f.session.result()->codewordIds[0].item<std::int64_t>();
        f.overlay.setSelectedCodeword(top);
        f.session.setBudget(2);
        QVERIFY(test::waitIdle(f.session));
        QTRY_COMPARE(f.session.result()->budget, std::int64_t{2});
        f.overlay.setResult(f.session.result(), f.session.assignment());
        // The most used codeword stays selected at every budget, so the selection survives.
        QCOMPARE(f.overlay.selectedGroup(), 0);
    }

    void noReassignDropsTokensVisibly() {
        Fixture f(1, once::Variant::NoReassign);
        QVERIFY(f.ready());
        const auto r = f.session.result();
        QVERIFY(r->coverage < 1.0);
        QVERIFY(f.overlay.droppedCount() > 0);
        int dropped = -1;
        for (int i = 0; i < f.overlay.frameCount() * f.overlay.patchesPerFrame(); ++i) {
            if (f.overlay.isDropped(i)) {
                dropped = i;
                break;
            }
        }
        QVERIFY(dropped >= 0);
        const int p = f.overlay.patchesPerFrame();
        const PatchInfo info = f.overlay.patchInfo(dropped / p, dropped % p);
        QVERIFY(info.dropped);
        QCOMPARE(info.rank, -1);
        // The nearest codeword of a dropped token comes from the assignment.
        QCOMPARE(info.codeword,
                 static_cast<std::int64_t>(f.session.assignment()->topIds[dropped][0].item<int>()));
        QVERIFY(f.view.describe(info).contains(QLatin1String("Dropped")));
        // Dropped tokens are painted differently from any group colour.
        QCOMPARE(f.overlay.fillColour(dropped), QColor(60, 60, 60));
    }

    void meanColourModeUsesTheFramePixels() {
        Fixture f(3);
        QVERIFY(f.ready());
        f.overlay.setColourMode(GroupOverlay::ColourMode::GroupMean);
        // Group 0's mean colour is the mean of its patches' colours.
        double sum[3] = {0, 0, 0};
        int n = 0;
        for (int i = 0; i < static_cast<int>(f.video.patchColours.size()); ++i) {
            if (f.overlay.groupOfToken(i) == 0) {
                const QRgb c = f.video.patchColours[i];
                sum[0] += qRed(c);
                sum[1] += qGreen(c);
                sum[2] += qBlue(c);
                ++n;
            }
        }
        QVERIFY(n > 0);
        int token = 0;
        while (f.overlay.groupOfToken(token) != 0) {
            ++token;
        }
        const QColor mean = f.overlay.fillColour(token);
        QVERIFY(std::abs(mean.red() - sum[0] / n) <= 1);
        QVERIFY(std::abs(mean.green() - sum[1] / n) <= 1);
        QVERIFY(std::abs(mean.blue() - sum[2] / n) <= 1);
    }

    void featuresAloneDrawOnANeutralBackground() {
        VideoData video = test::syntheticVideo();
        video.frames.clear();
        video.patchColours.clear();
        GroupOverlay overlay;
        overlay.setVideo(video);
        overlay.setOpacity(0.0);  // only the background shows
        FrameOverlayView view(&overlay);
        view.resize(400, 400);
        const QImage image = view.grab().toImage();
        const QPointF centre = view.frameRect().center();
        QCOMPARE(QColor(image.pixel(centre.toPoint())), QColor(128, 128, 128));
    }
};

QTEST_MAIN(TestOverlay)
#include "test_overlay.moc"
