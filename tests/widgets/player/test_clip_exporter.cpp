// "Export Overlaid Clip…" (issue 30, item 13) driven through the player as a user drives it: a
// clip made of the synthetic video's frames is played with a real compression on the overlay,
// the player's export button asks for a file (answered like a person answers the dialog), the
// worker writes the MP4, and the file, read back with our own decoder, holds every frame of the
// clip, each showing at every patch the colour of the group of the sampled frame the player
// shows at that time. A GIF through the same path (a clip above GIF's 50 fps keeps every n-th
// frame); the selection drawn as it was when the export started, whatever the user changes
// meanwhile; a cancelled export leaves no file.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTimer>
#include <QToolButton>
#include <QtTest>
#include <cmath>
#include <functional>
#include <vector>

#include "../overlay/overlay_fixture.h"
#include "overlay/overlay_clip_export.h"
#include "player/clip_exporter.h"
#include "player/video_player_panel.h"
#include "support/test_support.h"
#include "tasks/background_task.h"
#include "util/progress.h"
#include "video/video_reader.h"
#include "video/video_writer.h"

using namespace once::studio;
using once::studio::test::OverlayFixture;

namespace {
constexpr int kScale = 4;       // clip pixels per sampled-frame pixel
constexpr double kClipFps = 8;  // sampled frames are 0.5 s apart: 4 clip frames each
constexpr int kFramesPerSample = 4;

/// Writes a clip of `frames` frames at kClipFps whose frame i shows sampled frame
/// min(i / kFramesPerSample, last), scaled up kScale times: the video the overlay was made of.
QString writeClip(const VideoData& video, const QString& path, int frames, double fps = kClipFps) {
    const QImage first = video.frames.front();
    once::VideoWriter w(path.toStdString(), first.width() * kScale, first.height() * kScale, fps);
    for (int i = 0; i < frames; ++i) {
        const int s = std::min(i / kFramesPerSample, int(video.frames.size()) - 1);
        const QImage img =
            video.frames[s]
                .scaled(first.size() * kScale, Qt::IgnoreAspectRatio, Qt::FastTransformation)
                .convertToFormat(QImage::Format_RGBX8888);
        w.write(img.constBits(), once::WriterPixels::rgba, std::size_t(img.bytesPerLine()));
    }
    w.finish();
    return path;
}

/// Largest channel difference between the clip's frame `t` at the centre of every patch whose
/// group the overlay fills (dropped ones are hatched; the bottom row holds the caption) and
/// that group's colour in sampled frame `sampled`.
/// The colour a patch is expected to have in the export (opacity 1).
using ExpectedColour = std::function<QColor(int token)>;

int patchError(const GroupOverlay& overlay, const once::SampledFrames& clip, int t, int sampled,
               const ExpectedColour& expected) {
    const int h = int(clip.rgb.size(1)), w = int(clip.rgb.size(2));
    const auto px = clip.rgb[t].contiguous();
    const std::uint8_t* data = px.data_ptr<std::uint8_t>();
    int worst = 0;
    for (int r = 0; r + 1 < overlay.gridH(); ++r) {
        for (int c = 0; c < overlay.gridW(); ++c) {
            const int token = sampled * overlay.patchesPerFrame() + r * overlay.gridW() + c;
            if (overlay.isDropped(token)) {
                continue;
            }
            const int x = (2 * c + 1) * w / (2 * overlay.gridW());
            const int y = (2 * r + 1) * h / (2 * overlay.gridH());
            const std::uint8_t* p = data + (std::size_t(y) * w + x) * 3;
            const QColor want = expected(token);
            worst = std::max({worst, std::abs(p[0] - want.red()), std::abs(p[1] - want.green()),
                              std::abs(p[2] - want.blue())});
        }
    }
    return worst;
}

/// Checks every frame of `out` against the overlay: the groups of the sampled frame the
/// player maps its time to, within `tolerance`; and that the check tells frames apart.
void checkOverlaidFrames(const GroupOverlay& overlay, const QString& out, int frames, int tolerance,
                         ExpectedColour expected = {}) {
    if (!expected) {
        expected = [&overlay](int token) { return overlay.fillColour(token); };
    }
    const once::SampledFrames clip = once::readFrames(
        out.toStdString(), once::SamplingRule::parse("uniform:" + std::to_string(frames)));
    QCOMPARE(int(clip.rgb.size(0)), frames);
    bool toldApart = false;
    int worst = 0;
    for (int t = 0; t < frames; ++t) {
        const int sampled = std::max(0, overlay.frameAtTime(clip.times[std::size_t(t)]));
        QCOMPARE(sampled, std::min(t / kFramesPerSample, overlay.frameCount() - 1));
        const int err = patchError(overlay, clip, t, sampled, expected);
        QVERIFY2(err <= tolerance, qPrintable(QStringLiteral("frame %1: %2").arg(t).arg(err)));
        worst = std::max(worst, err);
        if (sampled > 0 && patchError(overlay, clip, t, sampled - 1, expected) > 3 * tolerance) {
            toldApart = true;  // the previous sampled frame's groups would not have passed
        }
    }
    qInfo("%s: largest patch colour error %d", qPrintable(QFileInfo(out).fileName()), worst);
    QVERIFY(toldApart);
}

/// Makes the fixture's video a clip of `frames` frames of its own pictures (`name` in `dir`)
/// with the compression on the overlay at opacity 1: the group colours alone, checkable.
bool useClip(OverlayFixture& f, const QString& dir, const QString& name, int frames) {
    f.video.path = writeClip(f.video, dir + QLatin1Char('/') + name, frames);
    f.overlay.setVideo(f.video);
    if (!f.ready() || !f.overlay.hasResult()) {
        return false;
    }
    f.overlay.setOpacity(1.0);
    return true;
}

/// Answers the next save dialog with `path` as a person does: into its folder, the name typed.
void answerSaveDialog(const QString& path, QStringList* titles) {
    auto* poll = new QTimer;
    QObject::connect(poll, &QTimer::timeout, poll, [poll, path, titles] {
        auto* d = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (d == nullptr) {
            return;
        }
        *titles << d->windowTitle();
        d->setDirectory(QFileInfo(path).absolutePath());
        if (auto* name = d->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"))) {
            name->setText(QFileInfo(path).fileName());
        }
        static_cast<QDialog*>(d)->accept();  // QFileDialog's own is protected
        poll->deleteLater();
    });
    poll->start(50);
}
}  // namespace

class TestClipExporter : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void exportButtonWritesEveryFrameWithItsGroups() {
        OverlayFixture f(6);
        const QString dir = QString::fromStdString(once::test::tempDir());
        QVERIFY(useClip(f, dir, QStringLiteral("clip.mp4"), 16));

        VideoPlayerPanel panel(&f.overlay);
        QAction* action = panel.clipExporter()->action();
        QVERIFY(!action->isEnabled());  // no video yet
        panel.setSource(f.video.path);
        QVERIFY(action->isEnabled());
        QVERIFY(panel.view()->actions().contains(action));  // the picture's context menu
        panel.resize(480, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));

        const QString out = dir + QStringLiteral("/exported.mp4");
        QStringList titles;
        answerSaveDialog(out, &titles);
        QSignalSpy exported(panel.clipExporter(), &ClipExporter::exported);
        QTest::mouseClick(panel.exportClipButton(), Qt::LeftButton);
        QVERIFY(exported.wait(120000));
        QCOMPARE(titles, QStringList{QStringLiteral("Export Overlaid Clip")});
        const QString message = exported.first().first().toString();
        QVERIFY2(message.contains(QStringLiteral("16 frames")), qPrintable(message));
        QVERIFY(action->isEnabled());  // ready for the next one

        // Every decoded frame of the clip, at its rate, not only the sampled ones.
        const once::VideoInfo source = once::probeVideo(f.video.path.toStdString());
        const once::VideoInfo written = once::probeVideo(out.toStdString());
        QCOMPARE(written.frameCount, source.frameCount);
        QCOMPARE(written.fps, source.fps);
        QCOMPARE(written.width, source.width);
        QVERIFY(written.codec == "h264" || written.codec == "mpeg4");
        checkOverlaidFrames(f.overlay, out, 16, 24);
        QCOMPARE(QDir(dir).entryList(QDir::Files).size(), 2);  // no temporary left behind
    }

    void gifThroughTheSameActionAndACancelLeavesNothing() {
        OverlayFixture f(6);
        const QString dir = QString::fromStdString(once::test::tempDir());
        QVERIFY(useClip(f, dir, QStringLiteral("clip.mp4"), 16));
        VideoPlayerPanel panel(&f.overlay);
        panel.setSource(f.video.path);
        ClipExporter* exporter = panel.clipExporter();

        const QString gif = dir + QStringLiteral("/exported.gif");
        QSignalSpy exported(exporter, &ClipExporter::exported);
        QVERIFY(exporter->start(gif));
        QVERIFY(!exporter->action()->isEnabled());  // one export at a time
        QVERIFY(!exporter->start(gif));
        QVERIFY(exported.wait(120000));
        QCOMPARE(once::probeVideo(gif.toStdString()).codec, std::string("gif"));
        QCOMPARE(once::probeVideo(gif.toStdString()).frameCount, std::int64_t(16));
        // The fixed palette is at most 26 off per channel, the MP4 clip a few more.
        checkOverlaidFrames(f.overlay, gif, 16, 40);

        // A long clip, cancelled as soon as it starts: no file, no temporary.
        QVERIFY(useClip(f, dir, QStringLiteral("long.mp4"), 400));
        panel.setSource(f.video.path);
        const QStringList before = QDir(dir).entryList(QDir::Files);
        QSignalSpy cancelled(exporter->task(), &BackgroundTask::cancelled);
        QVERIFY(exporter->start(dir + QStringLiteral("/cancelled.mp4")));
        exporter->task()->cancel();
        QVERIFY(cancelled.wait(60000));
        QCOMPARE(QDir(dir).entryList(QDir::Files), before);
    }

    void theWorkerDrawsTheOverlayAsItWasWhenTheExportStarted() {
        OverlayFixture f(6);
        const QString dir = QString::fromStdString(once::test::tempDir());
        QVERIFY(useClip(f, dir, QStringLiteral("clip.mp4"), 16));
        VideoPlayerPanel panel(&f.overlay);
        panel.setSource(f.video.path);
        // A selected group: its patches in their colour, the others dimmed (the painter's
        // black at 110 / 255 over them).
        int patch = 0;
        while (f.overlay.isDropped(patch)) {
            ++patch;
        }
        f.overlay.toggleSelectionAt(0, patch);
        QVERIFY(f.overlay.hasSelection());
        std::vector<QColor> expected;
        for (int token = 0; token < f.overlay.frameCount() * f.overlay.patchesPerFrame(); ++token) {
            const QColor c = f.overlay.fillColour(token);
            const double keep = f.overlay.isSelectedToken(token) ? 1.0 : 1.0 - 110.0 / 255.0;
            expected.push_back(QColor(int(std::lround(c.red() * keep)),
                                      int(std::lround(c.green() * keep)),
                                      int(std::lround(c.blue() * keep))));
        }
        const QString out = dir + QStringLiteral("/selected.mp4");
        QSignalSpy exported(panel.clipExporter(), &ClipExporter::exported);
        QVERIFY(panel.clipExporter()->start(out));
        // The user goes on: the export keeps what was on screen when it started.
        f.overlay.setSelectedCodeword(-1);
        f.overlay.setOpacity(0.2);
        QVERIFY(exported.wait(120000));
        checkOverlaidFrames(f.overlay, out, 16, 24,
                            [&expected](int token) { return expected[std::size_t(token)]; });
    }

    void aGifOfAFastClipKeepsEveryNthFrame() {
        OverlayFixture f(6);
        QVERIFY(f.ready());
        const QString dir = QString::fromStdString(once::test::tempDir());
        // 60 fps is above GIF's 50: every second frame, at 30 fps.
        const std::string clip =
            writeClip(f.video, dir + QStringLiteral("/fast.mp4"), 12, 60).toStdString();
        once::Progress progress;
        const OverlayClipResult r = exportOverlaidClip(
            f.overlay, clip, (dir + QStringLiteral("/fast.gif")).toStdString(), progress);
        QCOMPARE(r.frames, std::int64_t(6));
        QCOMPARE(r.fps, 30.0);
        QCOMPARE(once::probeVideo((dir + QStringLiteral("/fast.gif")).toStdString()).frameCount,
                 std::int64_t(6));
        // An unknown format is refused before anything is decoded or written.
        const once::OnceError e = once::test::errorOf([&] {
            exportOverlaidClip(f.overlay, clip, (dir + QStringLiteral("/x.avi")).toStdString(),
                               progress);
        });
        QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral(".mp4 or .gif")),
                 e.what());
        QCOMPARE(QDir(dir).entryList(QDir::Files).size(), 2);
    }
};

QTEST_MAIN(TestClipExporter)
#include "test_clip_exporter.moc"
