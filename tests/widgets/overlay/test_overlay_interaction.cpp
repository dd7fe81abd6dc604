// The frame view beyond hover and click (issue 16): the hover text follows a frame or budget
// change under a still mouse instead of describing the patch of before; the wheel zooms at the
// cursor and a drag pans; the context menu offers selection, zoom and the exports; the exports
// write the frame, a captioned grid of all frames, the strip, and a PNG sequence that refuses to
// overwrite files it did not create.
#include <QAction>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QSignalSpy>
#include <QWheelEvent>
#include <QtTest>

#include "overlay/overlay_export.h"
#include "overlay_fixture.h"
#include "support/test_support.h"

using namespace once::studio;
using Fixture = test::OverlayFixture;

namespace {
QStringList actionTexts(const QMenu* menu) {
    QStringList out;
    for (const QAction* a : menu->actions()) {
        if (!a->isSeparator()) {
            out << a->text();
        }
    }
    return out;
}
QAction* actionNamed(const QMenu* menu, const QString& text) {
    for (QAction* a : menu->actions()) {
        if (a->text() == text) {
            return a;
        }
    }
    return nullptr;
}
}  // namespace

class TestOverlayInteraction : public QObject {
    Q_OBJECT

  private slots:
    void hoverFollowsAFrameChangeUnderAStillMouse() {
        Fixture f(4);
        QVERIFY(f.shown());
        FrameOverlayView& view = f.view;
        QSignalSpy hovered(&view, &FrameOverlayView::patchHovered);
        const int patch = 2;  // the blocks drift one column per frame: the group changes
        QTest::mouseMove(&view, view.patchCentre(patch));
        QTRY_VERIFY(!hovered.isEmpty());
        QVERIFY(view.hoverText().startsWith(QLatin1String("Frame 1,")));
        hovered.clear();

        // Another frame under the same mouse position: a new hover for frame 2, not frame 1's.
        f.overlay.setCurrentFrame(1);
        QCOMPARE(hovered.count(), 1);
        const auto info = hovered.first().first().value<PatchInfo>();
        QVERIFY(info.valid);
        QCOMPARE(info.frame, 1);
        QCOMPARE(info.patch, patch);
        QVERIFY2(view.hoverText().startsWith(QLatin1String("Frame 2,")),
                 qPrintable(view.hoverText()));
        QCOMPARE(view.hoverText(), view.describe(f.overlay.patchInfo(1, patch)));

        // A new result (another budget) under the same mouse: the text is the new group's.
        hovered.clear();
        f.session.setBudget(2);
        QVERIFY(test::waitForResult(f.session, QStringLiteral("once"), 2));
        f.overlay.setResult(f.session.result(), f.session.assignment());
        QCOMPARE(view.hoverText(), view.describe(f.overlay.patchInfo(1, patch)));
    }

    void wheelZoomsAtTheCursorAndDragPans() {
        Fixture f(4);
        QVERIFY(f.shown());
        FrameOverlayView& view = f.view;
        const QRectF fitted = view.frameRect();
        const int patch = 6 * 2 + 1;
        const QPoint anchor = view.patchCentre(patch);
        QWheelEvent wheel(anchor, view.mapToGlobal(anchor), QPoint(), QPoint(0, 240), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        QVERIFY(view.zoom() > 1.4);
        QVERIFY(view.frameRect().width() > fitted.width() * 1.4);
        // The patch under the cursor stays under it.
        QVERIFY((view.patchCentre(patch) - anchor).manhattanLength() <= 2);

        // A drag pans (and does not select); a click still selects.
        const QRectF before = view.frameRect();
        QTest::mousePress(&view, Qt::LeftButton, {}, anchor);
        QTest::mouseMove(&view, anchor + QPoint(-30, 0));
        QTest::mouseMove(&view, anchor + QPoint(-60, 0));
        QTest::mouseRelease(&view, Qt::LeftButton, {}, anchor + QPoint(-60, 0));
        QVERIFY2(
            view.frameRect().left() < before.left() - 20,
            qPrintable(QStringLiteral("%1 → %2").arg(before.left()).arg(view.frameRect().left())));
        QCOMPARE(f.overlay.selectedCodeword(), std::int64_t{-1});
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.patchCentre(patch));
        QVERIFY(f.overlay.selectedCodeword() >= 0);

        // Panning never leaves the frame short of the view; 0 fits it again.
        view.panBy(QPointF(-10000, -10000));
        QVERIFY(view.frameRect().right() >= fitted.right() - 1);
        QVERIFY(view.frameRect().bottom() >= fitted.bottom() - 1);
        view.setFocus();
        QTest::keyClick(&view, Qt::Key_0);
        QCOMPARE(view.zoom(), 1.0);
        QCOMPARE(view.frameRect(), fitted);
    }

    void contextMenuSelectsZoomsAndExports() {
        Fixture f(4);
        QVERIFY(f.shown());
        FrameOverlayView& view = f.view;
        const QPoint at = view.patchCentre(7);
        std::unique_ptr<QMenu> menu(view.createContextMenu(at));
        const QStringList texts = actionTexts(menu.get());
        for (const QString& expected :
             {QStringLiteral("&Select This Group"), QStringLiteral("Zoom &In"),
              QStringLiteral("Export &Frame Image…"),
              QStringLiteral("Export &All Frames as a Grid…"), QStringLiteral("Export the S&trip…"),
              QStringLiteral("Export Frames as an Image &Sequence…"),
              QStringLiteral("&Copy Frame Image")}) {
            QVERIFY2(texts.contains(expected), qPrintable(texts.join(QLatin1String(" | "))));
            QVERIFY(actionNamed(menu.get(), expected)->isEnabled());
        }
        QVERIFY(!actionNamed(menu.get(), QStringLiteral("Zoom &Out"))->isEnabled());
        actionNamed(menu.get(), QStringLiteral("&Select This Group"))->trigger();
        QCOMPARE(f.overlay.selectedCodeword(), f.overlay.patchInfo(0, 7).codeword);
        actionNamed(menu.get(), QStringLiteral("Zoom &In"))->trigger();
        QVERIFY(view.zoom() > 1.0);

        // Without a video nothing can be exported or selected.
        GroupOverlay empty;
        FrameOverlayView blank(&empty);
        std::unique_ptr<QMenu> none(blank.createContextMenu(QPoint(10, 40)));
        QVERIFY(!actionNamed(none.get(), QStringLiteral("Export &Frame Image…"))->isEnabled());
        QVERIFY(!actionNamed(none.get(), QStringLiteral("&Select This Group"))->isEnabled());
    }

    void exportsFrameGridStripAndSequence() {
        Fixture f(4);
        QVERIFY(f.ready());
        f.overlay.setOpacity(1.0);
        const QString dir = QString::fromStdString(once::test::tempDir());

        // One frame at the frame's own size, with the group colours painted over it.
        const QImage frame = renderOverlayFrame(f.overlay, 0);
        QCOMPARE(frame.size(), f.overlay.frameImage(0).size());
        const QPoint centre(4, 4);  // patch (0, 0), 8 px per patch
        QCOMPARE(frame.pixelColor(centre).rgb(), f.overlay.fillColour(0).rgb());
        QString error;
        QVERIFY2(saveOverlayImage(frame, dir + QStringLiteral("/frame.png"), &error),
                 qPrintable(error));
        QCOMPARE(QImage(dir + QStringLiteral("/frame.png")).size(), frame.size());
        QVERIFY(!saveOverlayImage(frame, dir + QStringLiteral("/frame.xyz"), &error));
        QVERIFY(error.contains(QLatin1String("frame.xyz")));

        // The grid: 4 frames in 2 × 2 cells, each frame painted as on screen.
        const QImage grid = renderOverlayGrid(f.overlay);
        QVERIFY(grid.width() >= 2 * frame.width() && grid.width() < 3 * frame.width());
        QVERIFY(grid.height() >= 2 * frame.height());
        QCOMPARE(grid.pixelColor(6 + 4, 6 + 4).rgb(), f.overlay.fillColour(0).rgb());

        // The strip: one row of all frames.
        const QImage strip = renderOverlayStrip(f.overlay, 48);
        QVERIFY(strip.width() >= 4 * 48 && strip.height() < 2 * 48 + 60);

        // The sequence: one PNG per frame; a second run into the same folder refuses before
        // writing anything.
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/seq")));
        QCOMPARE(exportOverlaySequence(f.overlay, dir + QStringLiteral("/seq"),
                                       QStringLiteral("overlay"), &error),
                 4);
        for (int t = 1; t <= 4; ++t) {
            const QString png =
                dir + QStringLiteral("/seq/overlay_%1.png").arg(t, 4, 10, QLatin1Char('0'));
            QVERIFY2(QFile::exists(png), qPrintable(png));
        }
        const QImage second(dir + QStringLiteral("/seq/overlay_0002.png"));
        QCOMPARE(second, renderOverlayFrame(f.overlay, 1).convertToFormat(second.format()));
        error.clear();
        QCOMPARE(exportOverlaySequence(f.overlay, dir + QStringLiteral("/seq"),
                                       QStringLiteral("overlay"), &error),
                 0);
        QVERIFY2(error.contains(QLatin1String("overlay_0001.png")) &&
                     error.contains(QLatin1String("already exists")),
                 qPrintable(error));
        // Stopping early writes only what was done.
        QCOMPARE(exportOverlaySequence(f.overlay, dir + QStringLiteral("/part"),
                                       QStringLiteral("overlay"), &error,
                                       [](int done, int) { return done < 2; }),
                 2);
        QVERIFY(!QFile::exists(dir + QStringLiteral("/part/overlay_0003.png")));
    }
};

QTEST_MAIN(TestOverlayInteraction)
#include "test_overlay_interaction.moc"
