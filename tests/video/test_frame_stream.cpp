// The player's decoder (video/frame_stream.h) on the real clips: every frame in order with the
// times and pixels of readFrames (the encoder's frames), a seek to any time gives the frame the
// sequential pass showed at that time, then its successors, frames are scaled to the bounds
// asked for, and bad inputs are refused with an error naming the file.
#include <ATen/ATen.h>

#include <QtTest>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string_view>

#include "support/real_clips.h"
#include "support/test_support.h"
#include "util/error.h"
#include "video/frame_stream.h"
#include "video/frames_at.h"

using namespace once;

namespace {
// Large enough for every real clip: frames come at full size, as readFrames gives them.
constexpr int kFull = 1 << 14;

std::size_t checksum(const PlaybackFrame& f) {
    return std::hash<std::string_view>{}(
        std::string_view(reinterpret_cast<const char*>(f.rgb.data()), f.rgb.size()));
}

struct Pass {
    std::vector<double> times;
    std::vector<std::size_t> sums;
};

Pass decodeAll(FrameStream& s) {
    Pass p;
    PlaybackFrame f;
    while (s.next(f)) {
        p.times.push_back(f.time);
        p.sums.push_back(checksum(f));
    }
    return p;
}

/// The frame the sequential pass shows at `t`: the last at or before it, else the first.
std::size_t shownAt(const Pass& p, double t) {
    std::size_t i = 0;
    while (i + 1 < p.times.size() && p.times[i + 1] <= t + 1e-3) {
        ++i;
    }
    return i;
}
}  // namespace

class TestFrameStream : public QObject {
    Q_OBJECT
  private slots:
    void realClipsDecodeInOrderAndSeekToTheSameFrames() {
        const auto clips = test::installedRealClips();
        if (clips.empty()) {
            QFAIL(
                "no real clip of real-data.md is installed (scripts/setup.sh installs them): a "
                "broken set-up fails, it does not skip");
        }
        for (const std::string& clip : clips) {
            FrameStream stream(clip, kFull, kFull);
            const Pass pass = decodeAll(stream);
            QVERIFY2(pass.times.size() > 10, clip.c_str());
            for (std::size_t i = 1; i < pass.times.size(); ++i) {
                QVERIFY2(pass.times[i] > pass.times[i - 1], clip.c_str());
            }
            // Pixels and times of the encoder's reader at the first, middle and last frame.
            const std::int64_t n = std::int64_t(pass.times.size());
            const std::vector<std::int64_t> picks = {0, n / 2, n - 1};
            const SampledFrames ref = readFramesAt(clip, picks);
            FrameStream again(clip, kFull, kFull);
            PlaybackFrame f;
            std::int64_t index = 0;
            std::size_t matched = 0;
            while (again.next(f) && matched < picks.size()) {
                if (index == picks[matched]) {
                    const at::Tensor r = ref.rgb[std::int64_t(matched)].contiguous();
                    QCOMPARE(f.width, int(r.size(1)));
                    QCOMPARE(f.height, int(r.size(0)));
                    QVERIFY2(
                        std::memcmp(f.rgb.data(), r.data_ptr<std::uint8_t>(), f.rgb.size()) == 0,
                        (clip + " frame " + std::to_string(index)).c_str());
                    QCOMPARE(f.time, ref.times[matched]);
                    ++matched;
                }
                ++index;
            }
            QCOMPARE(matched, picks.size());

            // Seeks anywhere (forward, back, before the start, past the end) land on the frame
            // the pass showed at that time and go on with its successor.
            const double last = pass.times.back();
            for (double t : {last * 0.5, last * 0.1, 0.0, last * 0.9, last * 0.37, last + 5.0,
                             pass.times[1] - 1e-4, last}) {
                stream.seek(t);
                const std::size_t want = shownAt(pass, t);
                QVERIFY2(stream.next(f), (clip + " at " + std::to_string(t)).c_str());
                QVERIFY2(std::abs(f.time - pass.times[want]) < 1e-6,
                         (clip + " at " + std::to_string(t) + ": " + std::to_string(f.time) +
                          " instead of " + std::to_string(pass.times[want]))
                             .c_str());
                QVERIFY2(checksum(f) == pass.sums[want],
                         (clip + " at " + std::to_string(t)).c_str());
                if (want + 1 < pass.times.size()) {
                    QVERIFY(stream.next(f));
                    QCOMPARE(checksum(f), pass.sums[want + 1]);
                } else {
                    QVERIFY(!stream.next(f));
                }
            }
        }
    }

    void framesAreScaledIntoTheBounds() {
        const auto clips = test::installedRealClips();
        if (clips.empty()) {
            QFAIL(
                "no real clip is installed (committed, or installed by scripts/setup.sh: a broken "
                "checkout or set-up fails, it does not skip)");
        }
        for (const std::string& clip : clips) {
            FrameStream full(clip, kFull, kFull);
            FrameStream small(clip, 160, 90);
            PlaybackFrame a, b;
            QVERIFY(full.next(a) && small.next(b));
            QVERIFY(b.width <= 160 && b.height <= 90);
            QVERIFY(b.width == 160 || b.height == 90 ||
                    (b.width == a.width && b.height == a.height));
            // The aspect ratio is kept to a pixel.
            QVERIFY2(std::abs(double(b.width) / b.height - double(a.width) / a.height) <
                         2.0 / std::min(b.width, b.height),
                     clip.c_str());
            QCOMPARE(b.rgb.size(), std::size_t(b.width) * std::size_t(b.height) * 3);
            QCOMPARE(b.time, a.time);
        }
    }

    void badInputsAreRefusedNamingTheFile() {
        const std::string dir = test::tempDir();
        const std::string text = dir + "/notes.mp4";
        {
            std::FILE* f = std::fopen(text.c_str(), "wb");
            QVERIFY(f != nullptr);
            std::fputs("this is not a video", f);
            std::fclose(f);
        }
        for (const std::string& path : {dir + "/missing.mp4", text, dir}) {
            try {
                FrameStream s(path, 320, 240);
                QFAIL(("no error for " + path).c_str());
            } catch (const OnceError& e) {
                QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
            }
        }
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 FrameStream(test::sourcePath("resources/demo/demo.mp4"), 0, 10));
    }
};

QTEST_MAIN(TestFrameStream)
#include "test_frame_stream.moc"
