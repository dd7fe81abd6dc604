// The codebook explorer on a Qwen3.5-style encoded video (issue 17): a feature frame is a
// temporal pair of video frames and a token a merged 2 × 2 patch of the merger's grid. Proves
// that (1) the overlay's picture of feature frame t is the pair's first frame and each merged
// cell's colour the mean over both frames of the pair; (2) highlighting a codeword marks exactly
// the merged-grid rectangles of its tokens on every pair, and nothing else; (3) exemplar
// thumbnails are cut from the named frame of the pair and the merged cell named by the
// provenance (row, column of the merged grid), through the explorer's decode; (4) provenance
// recorded from such a video names the pair's first frame (see the expected failure below).
#include <ATen/ATen.h>

#include <QDir>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>
#include <filesystem>

#include "../studio_test_data.h"
#include "budget/budget_panel.h"
#include "codebook/codebook.h"
#include "codebook/codebook_exemplars.h"
#include "codebook/codebook_writer.h"
#include "compress/assignment.h"
#include "explorer/codebook_explorer.h"
#include "explorer/exemplar_source.h"
#include "explorer_fixture.h"
#include "overlay/group_overlay.h"
#include "overlay/overlay_export.h"
#include "session/session_binder.h"
#include "session/studio_session.h"
#include "support/test_support.h"
#include "train/exemplar_pixels.h"
#include "train/exemplar_selection.h"
#include "train/sketch_provenance.h"
#include "video/video_reader.h"

using namespace once::studio;

namespace {

// Qwen3.5 geometry, small: 6 video frames -> 3 temporal pairs; frames 64 x 96 pixels of 16-pixel
// patches (4 x 6), merged 2 x 2 -> a 2 x 3 token grid, each token a 32 x 32 pixel cell.
constexpr int kFrames = 6, kPair = 2, kPairs = kFrames / kPair;
constexpr int kGridH = 2, kGridW = 3, kCell = 32, kDim = 16;
constexpr std::int64_t kCodewords = 4;

// A distinct colour per (video frame, merged cell): the two frames of a pair differ everywhere.
at::Tensor cellColour(int frame, int cell) {
    return at::tensor({std::uint8_t(20 + 35 * cell), std::uint8_t(30 + 30 * frame),
                       std::uint8_t(frame % 2 ? 220 : 60)},
                      at::kByte);
}

at::Tensor qwenFrames() {
    at::Tensor rgb = at::zeros({kFrames, kGridH * kCell, kGridW * kCell, 3}, at::kByte);
    for (int f = 0; f < kFrames; ++f) {
        for (int i = 0; i < kGridH * kGridW; ++i) {
            const int r = i / kGridW, c = i % kGridW;
            rgb[f].slice(0, r * kCell, (r + 1) * kCell).slice(1, c * kCell, (c + 1) * kCell) =
                cellColour(f, i);
        }
    }
    return rgb;
}

// The encoded video as Qwen3_5VisualEncoder leaves it: [T', merged cells, D] features, the
// merged grid, "temporal_patch_size" 2, pair times (mean of the pair, frames at 3 fps), and the
// decoder's frame_indices of all six frames. Tokens fall into kCodewords clusters by a pattern
// that differs per pair, so each codeword has tokens in several pairs and cells.
VideoData qwenVideo() {
    at::manual_seed(11);
    const at::Tensor directions = at::randn({kCodewords, kDim}) * 3;
    at::Tensor features = at::zeros({kPairs, kGridH * kGridW, kDim});
    for (int t = 0; t < kPairs; ++t) {
        for (int i = 0; i < kGridH * kGridW; ++i) {
            features[t][i] = directions[(i + t) % kCodewords] + 0.05 * at::randn({kDim});
        }
    }
    once::EncodedVideo encoded;
    encoded.features = features;
    encoded.gridH = kGridH;
    encoded.gridW = kGridW;
    encoded.backbone = "qwen3.5";
    for (int t = 0; t < kPairs; ++t) {
        encoded.frameTimes.push_back((2.0 * t + 0.5) / once::kFrameFolderFps);
    }
    encoded.temporalPatchSize = kPair;
    encoded.extra = {{"spatial_merge_size", "2"}, {"frame_indices", "0,1,2,3,4,5"}};
    VideoData v;
    static_cast<once::EncodedVideo&>(v) = encoded;
    v.path = QStringLiteral("qwen_frames");
    attachFrames(v, qwenFrames());
    return v;
}

// The corpus "video": the six frames as a frame folder (lossless PNG, 3 fps).
std::string writeFrameFolder(const std::string& root) {
    const std::string dir = root + "/qwen_frames";
    std::filesystem::create_directories(dir);
    const at::Tensor rgb = qwenFrames();
    for (int f = 0; f < kFrames; ++f) {
        const at::Tensor frame = rgb[f].contiguous();
        QImage image(frame.data_ptr<std::uint8_t>(), int(frame.size(1)), int(frame.size(0)),
                     int(frame.size(1)) * 3, QImage::Format_RGB888);
        image.copy().save(QString::fromStdString(dir + "/frame_" + std::to_string(f) + ".png"));
    }
    return dir;
}

// Codeword k's single exemplar: pair t = k % 3, merged cell i = k + 1 (row i / 3, column i % 3),
// named by its source frame `frameOf(t)` (or -1 with the time instead).
struct Exemplar {
    int pair, cell;
};
Exemplar exemplarOf(std::int64_t k) {
    return {int(k % kPairs), int(k + 1)};
}

QString writeCodebook(const VideoData& v, const std::string& root, bool byTime) {
    once::CodebookExemplarTables t;
    t.usage = at::ones({kCodewords, 3}, at::kLong);
    t.perCodeword = 1;
    t.root = root;
    t.videos = {"qwen_frames"};
    t.exemplars = at::full({kCodewords, 1, once::kCodebookExemplarColumns}, -1, at::kInt);
    for (std::int64_t k = 0; k < kCodewords; ++k) {
        const Exemplar x = exemplarOf(k);
        at::Tensor s = t.exemplars[k][0];
        s[once::kCbExemplarVideo] = 0;
        s[once::kCbExemplarFrame] = x.pair;
        // The pair's first frame (the frame the overlay shows for the pair).
        s[once::kCbExemplarSourceFrame] = byTime ? -1 : kPair * x.pair;
        s[once::kCbExemplarTimeMs] =
            byTime ? int(std::lround(1000.0 * kPair * x.pair / once::kFrameFolderFps)) : -1;
        s[once::kCbExemplarRow] = x.cell / kGridW;
        s[once::kCbExemplarCol] = x.cell % kGridW;
        s[once::kCbExemplarGridRows] = kGridH;
        s[once::kCbExemplarGridCols] = kGridW;
        s[once::kCbExemplarThumbnail] = 0;
    }
    std::map<std::string, std::string> meta;
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    t.addTo(meta, tensors);
    const std::string path =
        root + (byTime ? "/qwen_codebook_time.safetensors" : "/qwen_codebook.safetensors");
    // Codewords: one token of each cluster (the codebook of the video's backbone).
    const at::Tensor flat = v.features.reshape({-1, kDim});
    const once::Codebook cb =
        once::Codebook::fromTensor(flat.narrow(0, 0, kCodewords).contiguous(), v.backbone);
    once::saveCodebookFile(cb, path, "F32", meta, tensors);
    return QString::fromStdString(path);
}

struct Fixture : test::ExplorerFixture {
    Fixture(const VideoData& video, const QString& codebook)
        : ExplorerFixture(video, codebook, kCodewords, kCodewords) {}
};

QRgb rgbOf(const at::Tensor& c) {
    return qRgb(c[0].item<int>(), c[1].item<int>(), c[2].item<int>());
}

bool near(QRgb a, QRgb b, int tolerance) {
    return std::abs(qRed(a) - qRed(b)) <= tolerance &&
           std::abs(qGreen(a) - qGreen(b)) <= tolerance &&
           std::abs(qBlue(a) - qBlue(b)) <= tolerance;
}

}  // namespace

class TestExplorerQwenFrames : public QObject {
    Q_OBJECT
    std::string root_;
    VideoData video_;

    // The exemplar thumbnail of codeword k in the explorer is cut from the pair's first frame
    // at the merged cell the provenance names: its marked cell has that frame's colour there,
    // and not the second frame's.
    void checkThumbnails(Fixture& f) {
        QTRY_COMPARE_WITH_TIMEOUT(f.explorer.exemplarImageCount(), int(kCodewords), 60000);
        for (std::int64_t k = 0; k < kCodewords; ++k) {
            const Exemplar x = exemplarOf(k);
            const QImage patch = f.explorer.model().images(k).front();
            const QRectF mark = f.explorer.model().marks(k).front();
            QCOMPARE(patch.size(), QSize(CodebookExplorer::kDecodedPatchSide,
                                         CodebookExplorer::kDecodedPatchSide));
            // Context 1 on a 2 x 3 grid: both rows and the 3 columns around (all of them).
            const int row = x.cell / kGridW, col = x.cell % kGridW;
            QCOMPARE(mark, QRectF(double(col) / kGridW, double(row) / kGridH, 1.0 / kGridW,
                                  1.0 / kGridH));
            // Every cell of the thumbnail: the colour of that cell in the pair's first frame.
            for (int i = 0; i < kGridH * kGridW; ++i) {
                const QPoint centre(int((i % kGridW + 0.5) * patch.width() / kGridW),
                                    int((i / kGridW + 0.5) * patch.height() / kGridH));
                const QRgb got = patch.pixel(centre);
                QVERIFY2(
                    near(got, rgbOf(cellColour(kPair * x.pair, i)), 2),
                    qPrintable(
                        QStringLiteral("codeword %1 cell %2: %3").arg(k).arg(i).arg(got, 0, 16)));
                QVERIFY(!near(got, rgbOf(cellColour(kPair * x.pair + 1, i)), 20));
            }
        }
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(
            QStringLiteral("widgets_explorer_test_explorer_qwen_frames"));
        QSettings().clear();
        root_ = once::test::tempDir();
        writeFrameFolder(root_);
        video_ = qwenVideo();
    }

    void eachFeatureFrameShowsItsPairOnTheMergedGrid() {
        QCOMPARE(video_.frames.size(), kPairs);
        QCOMPARE(int(video_.patchColours.size()), kPairs * kGridH * kGridW);
        const at::Tensor rgb = qwenFrames();
        for (int t = 0; t < kPairs; ++t) {
            // The picture: the pair's first frame.
            const QImage shown = video_.frames[t].convertToFormat(QImage::Format_RGB888);
            QCOMPARE(shown.size(), QSize(kGridW * kCell, kGridH * kCell));
            for (int i = 0; i < kGridH * kGridW; ++i) {
                const QPoint centre((i % kGridW) * kCell + kCell / 2,
                                    (i / kGridW) * kCell + kCell / 2);
                QCOMPARE(shown.pixel(centre), rgbOf(cellColour(kPair * t, i)));
                // The cell's colour: the mean over both frames of the pair.
                const at::Tensor mean = (cellColour(kPair * t, i).to(at::kFloat) +
                                         cellColour(kPair * t + 1, i).to(at::kFloat)) /
                                        2;
                const QRgb c = video_.patchColours[std::size_t(t * kGridH * kGridW + i)];
                QVERIFY(std::abs(qRed(c) - mean[0].item<double>()) <= 1);
                QVERIFY(std::abs(qGreen(c) - mean[1].item<double>()) <= 1);
                QVERIFY(std::abs(qBlue(c) - mean[2].item<double>()) <= 1);
            }
        }
    }

    void highlightingACodewordMarksItsMergedCellsOnEveryPair() {
        Fixture f(video_, writeCodebook(video_, root_, false));
        QVERIFY(f.ready());
        QCOMPARE(f.overlay.frameCount(), kPairs);
        QCOMPARE(f.overlay.gridH(), kGridH);
        QCOMPARE(f.overlay.gridW(), kGridW);
        const at::Tensor nearest = f.session.assignment()->topIds.select(1, 0).to(at::kLong);
        const int p = f.overlay.patchesPerFrame();
        QCOMPARE(p, kGridH * kGridW);
        for (std::int64_t k = 0; k < kCodewords; ++k) {
            f.explorer.showCodeword(k);
            f.overlay.highlightCodeword(k);
            QVERIFY(f.overlay.highlightsCodeword());
            int pairsWithIt = 0;
            for (int t = 0; t < kPairs; ++t) {
                int inPair = 0;
                for (int i = 0; i < p; ++i) {
                    const bool assigned = nearest[t * p + i].item<std::int64_t>() == k;
                    QCOMPARE(f.overlay.isSelectedToken(t * p + i), assigned);
                    inPair += assigned;
                }
                QCOMPARE(f.overlay.selectedMembersInFrame(t), inPair);
                pairsWithIt += inPair > 0;
            }
            QVERIFY(pairsWithIt >= 2);  // the codeword's tokens span several pairs
        }
        // On screen, per pair: the merged cells of the codeword keep their colour, the others
        // are dimmed; the rectangles are the merged grid's (2 x 3 over the picture).
        f.overlay.highlightCodeword(-1);
        QCoreApplication::processEvents();
        std::vector<QImage> plain;
        for (int t = 0; t < kPairs; ++t) {
            plain.push_back(renderOverlayFrame(f.overlay, t));
        }
        const std::int64_t k = nearest[0].item<std::int64_t>();
        f.overlay.highlightCodeword(k);
        for (int t = 0; t < kPairs; ++t) {
            const QImage after = renderOverlayFrame(f.overlay, t);
            QCOMPARE(after.size(), plain[std::size_t(t)].size());
            const int w = after.width(), h = after.height();
            for (int i = 0; i < p; ++i) {
                const bool assigned = nearest[t * p + i].item<std::int64_t>() == k;
                // The centre and a point near each corner of the merged cell (inside it).
                const int x0 = (i % kGridW) * w / kGridW, x1 = (i % kGridW + 1) * w / kGridW;
                const int y0 = (i / kGridW) * h / kGridH, y1 = (i / kGridW + 1) * h / kGridH;
                for (const QPoint q : {QPoint((x0 + x1) / 2, (y0 + y1) / 2), QPoint(x0 + 3, y0 + 3),
                                       QPoint(x1 - 4, y1 - 4)}) {
                    QVERIFY2((after.pixel(q) == plain[std::size_t(t)].pixel(q)) == assigned,
                             qPrintable(QStringLiteral("pair %1 cell %2").arg(t).arg(i)));
                }
            }
        }
    }

    void exemplarThumbnailsComeFromThePairsFrameAndMergedCell() {
        Fixture f(video_, writeCodebook(video_, root_, false));
        QVERIFY(f.ready());
        checkThumbnails(f);
    }

    void exemplarsNamedByTimeFindTheSameFrame() {
        Fixture f(video_, writeCodebook(video_, root_, true));
        QVERIFY(f.ready());
        checkThumbnails(f);
    }

    void provenanceOfAQwenVideoNamesThePairsFirstFrame() {
        // What `once train sketch` records for a token of this video: feature frame, merged
        // row/column on the merged grid, and the pair's source frame.
        const at::Tensor medoids = at::tensor(std::vector<std::int64_t>{0, 7, 17}, at::kLong);
        const at::Tensor rows = once::exemplarRows(medoids, video_);
        for (int j = 0; j < 3; ++j) {
            const std::int64_t token = medoids[j].item<std::int64_t>();
            const std::int64_t t = token / (kGridH * kGridW), cell = token % (kGridH * kGridW);
            QCOMPARE(rows[j][once::kExemplarFrame].item<std::int64_t>(), t);
            QCOMPARE(rows[j][once::kExemplarRow].item<std::int64_t>(), cell / kGridW);
            QCOMPARE(rows[j][once::kExemplarCol].item<std::int64_t>(), cell % kGridW);
            QCOMPARE(rows[j][once::kExemplarGridRows].item<std::int64_t>(), std::int64_t(kGridH));
            QCOMPARE(rows[j][once::kExemplarGridCols].item<std::int64_t>(), std::int64_t(kGridW));
        }
        // frame_indices lists the six decoded frames, one per video frame, not one per feature
        // frame: with "temporal_patch_size" 2 the source frame of a pair is its first frame
        // (core/train/sketch_provenance.cpp, sourceFrames), not lost and not the pair's mean time.
        QCOMPARE(rows[0][once::kExemplarSourceFrame].item<std::int64_t>(), std::int64_t(0));
        QCOMPARE(rows[2][once::kExemplarSourceFrame].item<std::int64_t>(), std::int64_t(4));
    }
};

QTEST_MAIN(TestExplorerQwenFrames)
#include "test_explorer_qwen_frames.moc"
