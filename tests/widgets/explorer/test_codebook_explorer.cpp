// The codebook explorer (issue 16) driven through the real session, overlay and widgets: one
// tile per codeword, sorted by id, corpus usage and video usage, searched by ids; clicking a
// tile highlights exactly the patches assigned to that codeword in every frame (also a codeword
// outside the budget's selection); clicking a group in the frame view selects its codeword;
// thumbnails from the file, patches cut from the corpus videos on the worker, a corpus that
// is not found and then located; a codebook trained before provenance and a damaged section
// say what is missing; the grid exports as a PNG.
#include <ATen/ATen.h>

#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>
#include <filesystem>
#include <numeric>

#include "../studio_test_data.h"
#include "budget/budget_panel.h"
#include "codebook/codebook.h"
#include "codebook/codebook_exemplars.h"
#include "codebook/codebook_writer.h"
#include "compress/assignment.h"
#include "explorer/codebook_explorer.h"
#include "explorer_fixture.h"
#include "overlay/frame_overlay_view.h"
#include "overlay/group_overlay.h"
#include "overlay/overlay_export.h"
#include "session/session_binder.h"
#include "session/studio_session.h"
#include "support/test_support.h"
#include "train/exemplar_pixels.h"
#include "train/exemplar_selection.h"
#include "video/video_reader.h"

using namespace once::studio;

namespace {

constexpr std::int64_t kCodewords = 10;
constexpr int kPerCodeword = 3;

// Corpus usage with distinct token counts (codeword k: 100·((k·7) mod 10) + k + 1 tokens), and
// `exemplars` slots filled for the first codewords (video 0, frame = slot).
once::CodebookExemplarTables tables(int perCodeword, int thumbnailSide, const std::string& root,
                                    const std::vector<std::string>& videos) {
    once::CodebookExemplarTables t;
    t.usage = at::zeros({kCodewords, 3}, at::kLong);
    for (std::int64_t k = 0; k < kCodewords; ++k) {
        t.usage[k][0] = 100 * ((k * 7) % 10) + k + 1;
        t.usage[k][1] = k % 4 + 1;
        t.usage[k][2] = 1;
    }
    t.perCodeword = perCodeword;
    t.root = root;
    t.videos = videos;
    if (perCodeword > 0) {
        t.exemplars =
            at::full({kCodewords, perCodeword, once::kCodebookExemplarColumns}, -1, at::kInt);
        for (std::int64_t k = 0; k < kCodewords; ++k) {
            for (int j = 0; j < std::min<int>(perCodeword, int(k % 4 + 1)); ++j) {
                at::Tensor s = t.exemplars[k][j];
                s[once::kCbExemplarVideo] = 0;
                s[once::kCbExemplarFrame] = j;
                s[once::kCbExemplarSourceFrame] = 2 * j;
                s[once::kCbExemplarTimeMs] = -1;
                s[once::kCbExemplarRow] = int(k % 3);
                s[once::kCbExemplarCol] = int(k % 5);
                s[once::kCbExemplarGridRows] = 3;
                s[once::kCbExemplarGridCols] = 5;
                s[once::kCbExemplarThumbnail] = thumbnailSide > 0 ? 1 : 0;
            }
        }
    }
    if (thumbnailSide > 0) {
        t.thumbnailSide = thumbnailSide;
        t.thumbnails =
            at::full({kCodewords, perCodeword, thumbnailSide, thumbnailSide, 3}, 200, at::kByte);
    }
    return t;
}

// The synthetic video's codebook as a file, with an exemplar section when `t` is given.
QString writeCodebook(const VideoData& video, const QString& name,
                      const once::CodebookExemplarTables* t) {
    const auto cb = test::codebookFrom(video, kCodewords);
    std::map<std::string, std::string> meta;
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    if (t) {
        t->addTo(meta, tensors);
    }
    const std::string path = once::test::tempDir() + "/" + name.toStdString();
    once::saveCodebookFile(*cb, path, "F32", meta, tensors);
    return QString::fromStdString(path);
}

struct Fixture : test::ExplorerFixture {
    explicit Fixture(const QString& codebook, std::int64_t b = kCodewords)
        : ExplorerFixture(test::syntheticVideo(), codebook, kCodewords, b) {}
    std::vector<std::int64_t> shown() const {
        std::vector<std::int64_t> out;
        for (int i = 0; i < explorer.tileCount(); ++i) {
            out.push_back(explorer.codewordAt(i));
        }
        return out;
    }
    void clickTile(std::int64_t k) {
        const QRect r = explorer.tileRect(k);
        QVERIFY(!r.isEmpty() && explorer.view()->viewport()->rect().contains(r.center()));
        QTest::mouseClick(explorer.view()->viewport(), Qt::LeftButton, {}, r.center());
    }
};

}  // namespace

class TestCodebookExplorer : public QObject {
    Q_OBJECT
    QString withExemplars_, plain_;

  private slots:
    void initTestCase() {
        // Settings of this test alone, cleared (the explorer remembers located corpus folders).
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(
            QStringLiteral("widgets_explorer_test_codebook_explorer"));
        QSettings().clear();
        const VideoData v = test::syntheticVideo();
        const auto t = tables(kPerCodeword, 0, "/nonexistent-corpus", {"clip.mp4"});
        withExemplars_ = writeCodebook(v, QStringLiteral("with_exemplars.safetensors"), &t);
        plain_ = writeCodebook(v, QStringLiteral("plain.safetensors"), nullptr);
    }

    void listsEveryCodewordAndSortsAndSearches() {
        Fixture f(withExemplars_);
        QVERIFY(f.ready());
        QCOMPARE(f.explorer.tileCount(), int(kCodewords));
        std::vector<std::int64_t> ids(kCodewords);
        std::iota(ids.begin(), ids.end(), 0);
        QCOMPARE(f.shown(), ids);

        // Corpus usage: most tokens first (the file's counts).
        f.explorer.sortBox()->setCurrentIndex(1);
        std::vector<std::int64_t> byCorpus = ids;
        std::sort(byCorpus.begin(), byCorpus.end(), [](std::int64_t a, std::int64_t b) {
            return 100 * ((a * 7) % 10) + a > 100 * ((b * 7) % 10) + b;
        });
        QCOMPARE(f.shown(), byCorpus);
        QCOMPARE(f.explorer.model().corpusTokens(3), std::int64_t(100 * 1 + 4));

        // Usage in this video: n_k of the session's assignment, most first, ties by id.
        f.explorer.setSortKey(CodewordFilter::SortKey::VideoUsage);
        QCOMPARE(f.explorer.sortBox()->currentIndex(), 2);
        const at::Tensor counts = f.session.assignment()->counts.to(at::kLong);
        std::vector<std::int64_t> byVideo = ids;
        std::stable_sort(byVideo.begin(), byVideo.end(), [&](std::int64_t a, std::int64_t b) {
            return counts[a].item<std::int64_t>() > counts[b].item<std::int64_t>();
        });
        QCOMPARE(f.shown(), byVideo);
        for (std::int64_t k = 0; k < kCodewords; ++k) {
            QCOMPARE(f.explorer.model().videoUsage(k), counts[k].item<std::int64_t>());
        }

        // Search by ids and ranges, typed into the field.
        f.explorer.setSortKey(CodewordFilter::SortKey::Id);
        QTest::keyClicks(f.explorer.searchField(), QStringLiteral("7"));
        QCOMPARE(f.shown(), std::vector<std::int64_t>{7});
        f.explorer.searchField()->clear();
        QTest::keyClicks(f.explorer.searchField(), QStringLiteral("2-4, 9"));
        QCOMPARE(f.shown(), (std::vector<std::int64_t>{2, 3, 4, 9}));
        f.explorer.setSearchText(QStringLiteral("seven"));
        QCOMPARE(f.explorer.tileCount(), 0);
        QVERIFY2(f.explorer.statusText().contains(QStringLiteral("not a list of codeword ids")),
                 qPrintable(f.explorer.statusText()));
        f.explorer.setSearchText({});
        QCOMPARE(f.explorer.tileCount(), int(kCodewords));
    }

    void clickingATileHighlightsExactlyItsAssignedPatches() {
        // Budget 2: most codewords are not among the selected ones, and still show their patches.
        Fixture f(withExemplars_, 2);
        QVERIFY(f.ready());
        QVERIFY(f.overlay.hasResult() && f.overlay.groupCount() <= 2);
        const at::Tensor nearest = f.session.assignment()->topIds.select(1, 0).to(at::kLong);
        const at::Tensor counts = f.session.assignment()->counts.to(at::kLong);
        const at::Tensor selected = f.session.result()->codewordIds.to(at::kLong);
        std::int64_t k = -1;  // a used codeword outside the budget's selection
        for (std::int64_t c = 0; c < kCodewords && k < 0; ++c) {
            if (counts[c].item<std::int64_t>() > 0 && !selected.eq(c).any().item<bool>()) {
                k = c;
            }
        }
        QVERIFY(k >= 0);
        const QImage before = renderOverlayFrame(f.overlay, 1);
        QSignalSpy chosen(&f.explorer, &CodebookExplorer::codewordChosen);
        f.clickTile(k);
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(f.explorer.currentCodeword(), k);
        QCOMPARE(f.overlay.selectedCodeword(), k);
        QVERIFY(f.overlay.highlightsCodeword() && f.overlay.hasSelection());
        const int p = f.overlay.patchesPerFrame();
        int highlighted = 0;
        for (int t = 0; t < f.overlay.frameCount(); ++t) {
            int inFrame = 0;
            for (int i = 0; i < p; ++i) {
                const bool assigned = nearest[t * p + i].item<std::int64_t>() == k;
                QCOMPARE(f.overlay.isSelectedToken(t * p + i), assigned);
                inFrame += assigned ? 1 : 0;
            }
            QCOMPARE(f.overlay.selectedMembersInFrame(t), inFrame);
            highlighted += inFrame;
        }
        QCOMPARE(std::int64_t(highlighted), counts[k].item<std::int64_t>());
        // On screen: assigned patches keep their colour, every other patch is dimmed.
        const QImage after = renderOverlayFrame(f.overlay, 1);
        QCOMPARE(after.size(), before.size());
        const int gh = f.overlay.gridH(), gw = f.overlay.gridW();
        for (int i = 0; i < p; ++i) {
            const QPoint c((i % gw) * after.width() / gw + after.width() / (2 * gw),
                           (i / gw) * after.height() / gh + after.height() / (2 * gh));
            const bool assigned = nearest[p + i].item<std::int64_t>() == k;
            QCOMPARE(after.pixel(c) == before.pixel(c), assigned);
        }
        QVERIFY(f.explorer.detailText().contains(QStringLiteral("Codeword %1").arg(k)));

        // The highlight follows the budget: it is the assignment, not the budget's groups.
        f.session.setBudget(kCodewords);
        QVERIFY(test::waitIdle(f.session));
        QCOMPARE(f.overlay.selectedCodeword(), k);
        QCOMPARE(f.overlay.selectedMembersInFrame(0) + f.overlay.selectedMembersInFrame(1) +
                     f.overlay.selectedMembersInFrame(2) + f.overlay.selectedMembersInFrame(3),
                 int(counts[k].item<std::int64_t>()));
    }

    void clickingAnOverlayGroupSelectsItsCodeword() {
        Fixture f(withExemplars_);
        QVERIFY(f.ready());
        FrameOverlayView view(&f.overlay);
        view.resize(640, 480);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        f.explorer.setSearchText(QStringLiteral("0"));  // the group's tile may be hidden
        const int patch = 20;
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.patchCentre(patch));
        const PatchInfo info = f.overlay.patchInfo(f.overlay.currentFrame(), patch);
        QVERIFY(info.valid && info.codeword >= 0);
        QVERIFY(!f.overlay.highlightsCodeword());  // the overlay keeps its group selection
        QCOMPARE(f.overlay.selectedCodeword(), info.codeword);
        QCOMPARE(f.explorer.currentCodeword(), info.codeword);
        QVERIFY(!f.explorer.tileRect(info.codeword).isEmpty());
        // The context menu offers the codeword in the explorer.
        QSignalSpy requested(&view, &FrameOverlayView::codewordRequested);
        QMenu* menu = view.createContextMenu(view.patchCentre(patch));
        QAction* show = nullptr;
        for (QAction* a : menu->actions()) {
            if (a->text().contains(QStringLiteral("Codebook View"))) {
                show = a;
            }
        }
        QVERIFY(show && show->isEnabled());
        show->trigger();
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.first().first().value<std::int64_t>(), info.codeword);
        delete menu;
        // Escape in the frame view clears both.
        QTest::keyClick(&view, Qt::Key_Escape);
        QCOMPARE(f.overlay.selectedCodeword(), std::int64_t(-1));
        QCOMPARE(f.explorer.currentCodeword(), std::int64_t(-1));
    }

    void aCodebookTrainedBeforeProvenanceSaysWhatIsMissing() {
        Fixture f(plain_);
        QVERIFY(f.ready());
        QCOMPARE(f.explorer.tileCount(), int(kCodewords));
        QCOMPARE(f.explorer.exemplarImageCount(), 0);
        QVERIFY(!f.explorer.model().hasCorpusUsage());
        QVERIFY2(f.explorer.statusText().contains(QStringLiteral("trained before provenance")),
                 qPrintable(f.explorer.statusText()));
        // Still fully usable: sort, search, highlight.
        f.explorer.setSortKey(CodewordFilter::SortKey::CorpusUsage);
        QCOMPARE(f.explorer.tileCount(), int(kCodewords));
        f.clickTile(4);
        QCOMPARE(f.overlay.selectedCodeword(), std::int64_t(4));
    }

    void aDamagedSectionIsReportedAndIgnored() {
        const VideoData v = test::syntheticVideo();
        auto t = tables(kPerCodeword, 0, "/x", {"clip.mp4"});
        t.videos = {"../outside.mp4"};  // leaves the corpus folder
        const QString damaged = writeCodebook(v, QStringLiteral("damaged.safetensors"), &t);
        Fixture f(damaged);
        QVERIFY(f.ready());
        QVERIFY(f.session.codebook());  // the codebook itself is fine
        QCOMPARE(f.explorer.tileCount(), int(kCodewords));
        QVERIFY2(f.explorer.statusText().contains(QStringLiteral("damaged")) &&
                     f.explorer.statusText().contains(QStringLiteral("videos[0]")),
                 qPrintable(f.explorer.statusText()));
    }

    void thumbnailsFromTheFileAreShown() {
        const VideoData v = test::syntheticVideo();
        const auto t = tables(kPerCodeword, 8, "/nowhere", {"clip.mp4"});
        Fixture f(writeCodebook(v, QStringLiteral("thumbs.safetensors"), &t));
        QVERIFY(f.ready());
        int expected = 0;
        for (std::int64_t k = 0; k < kCodewords; ++k) {
            expected += std::min<int>(kPerCodeword, int(k % 4 + 1));
        }
        QCOMPARE(f.explorer.exemplarImageCount(), expected);
        QCOMPARE(f.explorer.model().images(3).size(), kPerCodeword);
        QCOMPARE(f.explorer.model().images(3).front().pixel(2, 2), qRgb(200, 200, 200));
        QVERIFY(f.explorer.statusText().contains(QStringLiteral("thumbnails stored")));
    }

    void patchesAreCutFromTheCorpusVideosOnceLocated() {
        const std::string clip = once::test::sourcePath("resources/demo/demo.mp4");
        if (!std::filesystem::exists(clip)) {
            QFAIL(
                "the demo clip is not in this checkout (committed, or installed by "
                "scripts/setup.sh: a broken checkout or set-up fails, it does not skip)");
        }
        // The recorded folder does not exist: nothing to show until the corpus is located.
        const VideoData v = test::syntheticVideo();
        const auto t = tables(kPerCodeword, 0, "/moved-away-corpus", {"demo.mp4"});
        Fixture f(writeCodebook(v, QStringLiteral("corpus_elsewhere.safetensors"), &t));
        QVERIFY(f.ready());
        QCOMPARE(f.explorer.exemplarImageCount(), 0);
        QVERIFY2(f.explorer.statusText().contains(QStringLiteral("were not found")),
                 qPrintable(f.explorer.statusText()));
        f.explorer.setCorpusFolder(
            QString::fromStdString(std::filesystem::path(clip).parent_path().string()));
        QVERIFY(f.ready());
        int expected = 0;
        for (std::int64_t k = 0; k < kCodewords; ++k) {
            expected += std::min<int>(kPerCodeword, int(k % 4 + 1));
        }
        QTRY_COMPARE_WITH_TIMEOUT(f.explorer.exemplarImageCount(), expected, 60000);
        QVERIFY2(f.explorer.statusText().contains(QStringLiteral("cut from the corpus videos")),
                 qPrintable(f.explorer.statusText()));
        // The patch is the cell of the frame with one cell around it: codeword 1, slot 0 is row 1,
        // column 1 of 3 × 5 of frame 0, so rows 0-2 and columns 0-2, the cell outlined in the
        // middle.
        const QImage patch = f.explorer.model().images(1).front();
        QCOMPARE(patch.size(),
                 QSize(CodebookExplorer::kDecodedPatchSide, CodebookExplorer::kDecodedPatchSide));
        once::SamplingRule first;
        first.count = 1;
        first.end = 0;
        const once::SampledFrames frame0 = once::readFrames(clip, first);
        const std::int64_t h = frame0.rgb.size(1), w = frame0.rgb.size(2);
        QCOMPARE(f.explorer.model().marks(1).front(), QRectF(1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3));
        const at::Tensor cell =
            frame0.rgb[0].slice(0, 0, h).slice(1, 0, 3 * w / 5).to(at::kFloat).mean({0, 1});
        double r = 0, g = 0, b = 0;
        for (int y = 0; y < patch.height(); ++y) {
            for (int x = 0; x < patch.width(); ++x) {
                const QRgb c = patch.pixel(x, y);
                r += qRed(c);
                g += qGreen(c);
                b += qBlue(c);
            }
        }
        const double n = double(patch.width() * patch.height());
        QVERIFY(std::abs(r / n - cell[0].item<double>()) < 8);
        QVERIFY(std::abs(g / n - cell[1].item<double>()) < 8);
        QVERIFY(std::abs(b / n - cell[2].item<double>()) < 8);
    }

    void exportWritesThePictureOfTheGrid() {
        Fixture f(plain_);
        QVERIFY(f.ready());
        f.explorer.setSearchText(QStringLiteral("0-4"));
        const QString path =
            QString::fromStdString(once::test::tempDir()) + QStringLiteral("/grid.png");
        QString error;
        QVERIFY2(f.explorer.exportGrid(path, &error), qPrintable(error));
        const QImage image(path);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), f.explorer.renderGrid().size());
        // Five tiles in one row: the swatch of codeword 3 (its overlay colour) in the fourth.
        QVERIFY(image.width() > 5 * 80 && image.width() < 6 * 110);
        const QColor swatch = GroupOverlay::codewordColour(3);
        bool found = false;
        for (int x = image.width() * 3 / 5; x < image.width() * 4 / 5 && !found; ++x) {
            for (int y = 0; y < image.height() && !found; ++y) {
                found = image.pixel(x, y) == swatch.rgb();
            }
        }
        QVERIFY(found);
        // Nothing to export without a codebook, said plainly.
        StudioSession empty;
        GroupOverlay overlay;
        CodebookExplorer none(&empty, &overlay);
        QVERIFY(!none.exportGrid(path + QStringLiteral(".2.png"), &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(none.statusText().contains(QStringLiteral("Open a codebook")));
    }
};

QTEST_MAIN(TestCodebookExplorer)
#include "test_codebook_explorer.moc"
