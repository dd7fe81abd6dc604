// The codebook explorer in the real main window (issue 16), on a codebook trained from the demo
// clip with provenance and thumbnails (Stage A → Stage B → file, in this test): the explorer is a
// tab beside the charts, a tile per codeword with its exemplar thumbnails, choosing a tile
// highlights its patches in the frame view and the strip, the frame view's context menu brings
// the explorer forward on a group's codeword, and the window still fits 1366 × 768. Saves the
// screenshots of docs/gui.md (explorer alone and the studio with it) into build/…/screenshots
// or ONCE_SCREENSHOT_DIR.
#include <QDir>
#include <QDockWidget>
#include <QImage>
#include <QListView>
#include <QMenu>
#include <QtTest>

#include "../widgets/studio_test_data.h"
#include "codebook/codebook.h"
#include "codebook/codebook_writer.h"
#include "encode/decode_encode.h"
#include "explorer/codebook_explorer.h"
#include "main_window.h"
#include "models/visual_encoder.h"
#include "overlay/frame_overlay_view.h"
#include "overlay/frame_strip.h"
#include "overlay/group_overlay.h"
#include "session/demo_assets.h"
#include "session/studio_session.h"
#include "studio_app_test.h"
#include "studio_fixture.h"
#include "support/test_support.h"
#include "train/exemplar_pixels.h"
#include "train/exemplar_selection.h"
#include "train/sketch_cache.h"
#include "train/stage_b.h"
#include "util/atomic_file.h"

using namespace once::studio;

namespace {
constexpr int kScreenWidth = 1366;
constexpr int kScreenHeight = 768;
constexpr int kTitleBarAllowance = 40;
constexpr std::int64_t kCodewords = 48;

QString screenshotDir() {
    const QString dir = qEnvironmentVariableIsSet("ONCE_SCREENSHOT_DIR")
                            ? qEnvironmentVariable("ONCE_SCREENSHOT_DIR")
                            : QStringLiteral(ONCE_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    return dir;
}

// A codebook of the demo clip as `once train sketch` + `once train fit --exemplar-thumbnails`
// would write it (in process: the same core calls).
QString trainDemoCodebook(const QString& clip) {
    const std::string dir = once::test::tempDir();
    once::writeFileAtomically(dir + "/corpus.jsonl",
                              "{\"video\": \"" + clip.toStdString() + "\"}\n");
    once::SketchCacheOptions o;
    o.sketch.tokensPerRep = 32;
    o.sketch.mMax = 512;
    once::DecodeEncodeOptions de;
    de.sampling = once::SamplingRule::parse("uniform:32");
    once::buildSketchCache(once::readCorpusManifest(dir + "/corpus.jsonl"), dir + "/cache", o,
                           once::lazyDecodeEncode("demo", {}, de));
    const once::SketchCache cache = once::SketchCache::load(dir + "/cache");
    once::FitConfig fit;
    fit.codewords = kCodewords;
    fit.candidates = 400;
    fit.batch = 256;
    fit.epochs = 2;
    const once::FitResult r = once::fitCodebook(cache, fit);
    once::ExemplarOptions eo;
    eo.thumbnailSide = once::kDefaultExemplarThumbnailSide;
    const once::CodebookExemplarTables t = once::selectCodebookExemplars(cache, r.codebook, eo);
    auto meta = r.metadata;
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    t.addTo(meta, tensors);
    const std::string path = dir + "/demo_explorer_codebook.safetensors";
    once::saveCodebookFile(
        once::Codebook::fromTensor(r.codebook, cache.backbone, cache.featureSource), path, "F32",
        meta, tensors);
    return QString::fromStdString(path);
}

bool waitExplorer(MainWindow& w, int timeoutMs = 120000) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (!w.codebookExplorer()->isLoading() && w.session()->result() && !w.session()->isBusy() &&
            w.codebookExplorer()->model().codewords() == kCodewords) {
            return true;
        }
        QTest::qWait(10);
    }
    return false;
}
}  // namespace

class TestExplorerWindow : public QObject {
    Q_OBJECT
    QString codebook_;

  private slots:
    void initTestCase() {
        once::studio::test::initStudioTestApplication();
        if (!DemoAssets::locate().hasVideo()) {
            QFAIL(
                "the demo video is not in this checkout (committed, or installed by "
                "scripts/setup.sh: a broken checkout or set-up fails, it does not skip)");
        }
        codebook_ = trainDemoCodebook(DemoAssets::locate().video);
    }

    void theExplorerIsATabAndFollowsTheOverlay() {
        const auto shown = test::shownWindow({kScreenWidth, kScreenHeight - kTitleBarAllowance});
        QVERIFY(shown);
        MainWindow& window = *shown;
        QVERIFY(test::loadDemo(window));
        window.session()->openCodebook(codebook_);
        QVERIFY(waitExplorer(window));
        QCOMPARE(window.size(), QSize(kScreenWidth, kScreenHeight - kTitleBarAllowance));

        CodebookExplorer* explorer = window.codebookExplorer();
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("explorerDock"));
        QVERIFY(dock);
        QVERIFY(window.tabifiedDockWidgets(dock).contains(
            window.findChild<QDockWidget*>(QStringLiteral("chartsDock"))));
        QCOMPARE(explorer->tileCount(), int(kCodewords));
        QVERIFY(explorer->exemplarImageCount() >= int(kCodewords));
        QVERIFY(explorer->statusText().contains(QStringLiteral("thumbnails stored")));

        // A group picked in the frame view: its codeword in the explorer, which the context
        // menu brings forward.
        FrameOverlayView* view = window.frameView();
        const int patch = 300;
        QTest::mouseClick(view, Qt::LeftButton, {}, view->patchCentre(patch));
        const PatchInfo info = window.overlay()->patchInfo(window.overlay()->currentFrame(), patch);
        QCOMPARE(explorer->currentCodeword(), info.codeword);
        QMenu* menu = view->createContextMenu(view->patchCentre(patch));
        for (QAction* a : menu->actions()) {
            if (a->text().contains(QStringLiteral("Codebook View"))) {
                a->trigger();
            }
        }
        delete menu;
        QTRY_VERIFY(dock->isVisible() && !dock->visibleRegion().isEmpty());
        QCOMPARE(explorer->currentCodeword(), info.codeword);

        // Sorted by usage in this video, the first tile is the most used codeword here; choosing
        // it highlights its patches in the frame view and the strip.
        explorer->setSortKey(CodewordFilter::SortKey::VideoUsage);
        const std::int64_t top = explorer->codewordAt(0);
        explorer->view()->scrollToTop();
        QTest::qWait(50);
        QTest::mouseClick(explorer->view()->viewport(), Qt::LeftButton, {},
                          explorer->tileRect(top).center());
        QCOMPARE(window.overlay()->selectedCodeword(), top);
        QVERIFY(window.overlay()->highlightsCodeword());
        int members = 0;
        for (int t = 0; t < window.overlay()->frameCount(); ++t) {
            members += window.overlay()->selectedMembersInFrame(t);
        }
        QCOMPARE(std::int64_t(members), explorer->model().videoUsage(top));
        QTest::qWait(300);

        // The screenshots of docs/gui.md.
        const QString dir = screenshotDir();
        QVERIFY(window.grab().save(dir + QStringLiteral("/studio_explorer_1366x768.png")));
        // The explorer alone, larger than its dock, on the same session and overlay.
        CodebookExplorer big(window.session(), window.overlay());
        big.resize(960, 600);
        big.setSortKey(CodewordFilter::SortKey::CorpusUsage);
        big.show();
        QVERIFY(QTest::qWaitForWindowExposed(&big));
        QTRY_VERIFY_WITH_TIMEOUT(!big.isLoading() && big.exemplarImageCount() > 0, 60000);
        QCOMPARE(big.currentCodeword(), top);  // it follows the overlay's selection
        big.view()->scrollToTop();
        QTest::qWait(100);
        QVERIFY(big.grab().save(dir + QStringLiteral("/codebook_explorer.png")));
        const QImage shot(dir + QStringLiteral("/studio_explorer_1366x768.png"));
        QCOMPARE(shot.size() / shot.devicePixelRatio(),
                 QSize(kScreenWidth, kScreenHeight - kTitleBarAllowance));
        QString error;
        const QString grid =
            QString::fromStdString(once::test::tempDir()) + QStringLiteral("/codebook_grid.png");
        QVERIFY2(explorer->exportGrid(grid, &error), qPrintable(error));
        QCOMPARE(QImage(grid).size(), explorer->renderGrid().size());
    }
};

QTEST_MAIN(TestExplorerWindow)
#include "test_explorer_window.moc"
