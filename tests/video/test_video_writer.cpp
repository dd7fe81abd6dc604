// The clip writer (video/video_writer.h): a synthetic clip of an odd size written to MP4 (H.264
// and the MPEG-4 Part 2 fallback) and GIF and read back with our own decoder — frame count, size
// (MP4 padded to even by repeating the last column and row), frame times, codec, and pixels
// within the lossy codec's or the fixed palette's error — and the file handling: a cancelled write
// leaves nothing, an existing file is replaced only whole, and bad paths, suffixes, sizes and rates
// are refused naming the file.
#include <ATen/ATen.h>

#include <QtTest>
#include <cmath>
#include <filesystem>

#include "support/test_support.h"
#include "util/error.h"
#include "video/video_reader.h"
#include "video/video_writer.h"

using namespace once;
namespace fs = std::filesystem;

namespace {
constexpr int kW = 161, kH = 91, kFrames = 24;
constexpr double kFps = 24;

/// Frame `t` of the test pattern: a smooth diagonal gradient (what a video is mostly made of)
/// under a flat square that moves 4 pixels a frame (an overlay group's colour).
std::vector<std::uint8_t> pattern(int t, int bpp = 3) {
    std::vector<std::uint8_t> rgb(std::size_t(kW) * kH * std::size_t(bpp), 255);
    for (int y = 0; y < kH; ++y) {
        for (int x = 0; x < kW; ++x) {
            std::uint8_t* p = rgb.data() + (std::size_t(y) * kW + std::size_t(x)) * bpp;
            const bool square = x >= 4 * t && x < 4 * t + 30 && y >= 20 && y < 50;
            p[0] = square ? 230 : std::uint8_t(x * 255 / kW);
            p[1] = square ? 40 : std::uint8_t(y * 255 / kH);
            p[2] = square ? 60 : std::uint8_t((x + y + 8 * t) % 256 / 2 + 40);
        }
    }
    return rgb;
}

std::string writeClip(const std::string& path, std::string* codec = nullptr,
                      Mp4Codec mp4Codec = Mp4Codec::automatic) {
    VideoWriter w(path, kW, kH, kFps, OutputReplace::regularFile, mp4Codec);
    for (int t = 0; t < kFrames; ++t) {
        w.write(pattern(t).data(), WriterPixels::rgb24);
    }
    w.finish();
    if (codec) {
        *codec = w.codec();
    }
    return path;
}

/// Mean and max |decoded - written| over the kW x kH picture of every frame.
void compare(const SampledFrames& got, double* mean, double* max) {
    double sum = 0, worst = 0;
    for (int t = 0; t < kFrames; ++t) {
        const at::Tensor want =
            at::from_blob(pattern(t).data(), {kH, kW, 3}, at::kByte).to(at::kDouble);
        const at::Tensor d =
            (got.rgb[t].slice(0, 0, kH).slice(1, 0, kW).to(at::kDouble) - want).abs();
        sum += d.mean().item<double>();
        worst = std::max(worst, d.max().item<double>());
    }
    *mean = sum / kFrames;
    *max = worst;
}

std::vector<std::string> leftovers(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) {
        names.push_back(e.path().filename().string());
    }
    return names;
}

SamplingRule everyFrame() {
    return SamplingRule::parse("uniform:" + std::to_string(kFrames));
}
}  // namespace

class TestVideoWriter : public QObject {
    Q_OBJECT
  private slots:
    void mp4RoundTripsThroughOurDecoder() {
        std::string codec;
        const std::string path = writeClip(test::tempDir() + "/clip.mp4", &codec);
        const VideoInfo info = probeVideo(path);
        // libx264 where libavcodec has it (Debian's has), else the native MPEG-4 encoder.
        QVERIFY2(codec == "libx264" || codec == "mpeg4", codec.c_str());
        QCOMPARE(info.codec, std::string(codec == "libx264" ? "h264" : "mpeg4"));
        QCOMPARE(info.frameCount, std::int64_t(kFrames));
        QCOMPARE(info.width, kW + 1);  // even for 4:2:0
        QCOMPARE(info.height, kH + 1);
        QVERIFY2(std::abs(info.fps - kFps) < 1e-6, std::to_string(info.fps).c_str());
        QVERIFY(std::abs(info.duration - 1.0) < 1e-6);
        const SampledFrames got = readFrames(path, everyFrame());
        for (int t = 0; t < kFrames; ++t) {
            QVERIFY2(std::abs(got.times[std::size_t(t)] - t / kFps) < 1e-3,
                     std::to_string(got.times[std::size_t(t)]).c_str());
        }
        double mean = 0, max = 0;
        compare(got, &mean, &max);
        qInfo("MP4 (%s): mean error %.2f, max %.0f", codec.c_str(), mean, max);
        // Lossy, but close: CRF 18 (or q 3) keeps a mean error of a few levels.
        QVERIFY2(mean < 4.0, std::to_string(mean).c_str());
        // The padding repeats the last column and row rather than adding black.
        const at::Tensor last = got.rgb[0].select(1, kW).to(at::kDouble);
        const at::Tensor before = got.rgb[0].select(1, kW - 1).to(at::kDouble);
        QVERIFY((last - before).abs().mean().item<double>() < 6.0);
    }

    // The fallback of an FFmpeg without libx264, asked for by name: the native MPEG-4 Part 2
    // encoder writes a clip our decoder reads back with every frame, time and colour.
    void theMpeg4FallbackRoundTripsThroughOurDecoder() {
        std::string codec;
        const std::string path =
            writeClip(test::tempDir() + "/fallback.mp4", &codec, Mp4Codec::mpeg4);
        QCOMPARE(codec, std::string("mpeg4"));
        const VideoInfo info = probeVideo(path);
        QCOMPARE(info.codec, std::string("mpeg4"));
        QCOMPARE(info.frameCount, std::int64_t(kFrames));
        QCOMPARE(info.width, kW + 1);
        QCOMPARE(info.height, kH + 1);
        QVERIFY2(std::abs(info.fps - kFps) < 1e-6, std::to_string(info.fps).c_str());
        const SampledFrames got = readFrames(path, everyFrame());
        QCOMPARE(got.times.size(), std::size_t(kFrames));
        for (int t = 0; t < kFrames; ++t) {
            QVERIFY2(std::abs(got.times[std::size_t(t)] - t / kFps) < 1e-3,
                     std::to_string(got.times[std::size_t(t)]).c_str());
        }
        double mean = 0, max = 0;
        compare(got, &mean, &max);
        qInfo("MP4 (mpeg4): mean error %.2f, max %.0f", mean, max);
        QVERIFY2(mean < 4.0, std::to_string(mean).c_str());
        // H.264 asked for by name is libx264 (Debian's libavcodec has it: scripts/setup.sh).
        writeClip(test::tempDir() + "/h264.mp4", &codec, Mp4Codec::h264);
        QCOMPARE(codec, std::string("libx264"));
        // A GIF ignores the MP4 choice.
        writeClip(test::tempDir() + "/still.gif", &codec, Mp4Codec::mpeg4);
        QCOMPARE(codec, std::string("gif"));
    }

    void gifRoundTripsWithinThePaletteError() {
        std::string codec;
        const std::string path = writeClip(test::tempDir() + "/clip.GIF", &codec);
        QCOMPARE(codec, std::string("gif"));
        const VideoInfo info = probeVideo(path);
        QCOMPARE(info.codec, std::string("gif"));
        QCOMPARE(info.frameCount, std::int64_t(kFrames));
        QCOMPARE(info.width, kW);  // GIF keeps odd sizes
        QCOMPARE(info.height, kH);
        const SampledFrames got = readFrames(path, everyFrame());
        // Delays are whole hundredths: each frame within half of one of its time.
        for (int t = 0; t < kFrames; ++t) {
            QVERIFY2(std::abs(got.times[std::size_t(t)] - t / kFps) <= 0.005 + 1e-9,
                     std::to_string(got.times[std::size_t(t)]).c_str());
        }
        double mean = 0, max = 0;
        compare(got, &mean, &max);
        qInfo("GIF: mean error %.2f, max %.0f", mean, max);
        // The fixed 6 x 7 x 6 palette: at most half a level step (25.5) in every channel.
        QVERIFY2(max <= 26.0, std::to_string(max).c_str());
        QVERIFY2(mean < 14.0, std::to_string(mean).c_str());
    }

    void bgraFramesAreWrittenInTheirColours() {
        const std::string path = test::tempDir() + "/bgra.mp4";
        VideoWriter w(path, kW, kH, kFps);
        for (int t = 0; t < kFrames; ++t) {
            std::vector<std::uint8_t> px = pattern(t, 4);
            for (std::size_t i = 0; i < px.size(); i += 4) {
                std::swap(px[i], px[i + 2]);  // RGBA -> BGRA, as QImage::Format_RGB32 lies
            }
            w.write(px.data(), WriterPixels::bgra, std::size_t(kW) * 4);
        }
        w.finish();
        double mean = 0, max = 0;
        compare(readFrames(path, everyFrame()), &mean, &max);
        QVERIFY2(mean < 4.0, std::to_string(mean).c_str());
    }

    void aCancelledWriteLeavesNothingAndAnExistingFileIsReplacedWhole() {
        const std::string dir = test::tempDir();
        const std::string path = dir + "/clip.mp4";
        {
            VideoWriter w(path, kW, kH, kFps);
            w.write(pattern(0).data(), WriterPixels::rgb24);
        }  // destroyed before finish(): cancelled
        QVERIFY(leftovers(dir).empty());

        test::writeText(path, "the user's old clip");
        {
            VideoWriter w(path, kW, kH, kFps);
            for (int t = 0; t < kFrames; ++t) {
                w.write(pattern(t).data(), WriterPixels::rgb24);
            }
            // While writing, the old file is untouched and the new one is a temporary beside it.
            QCOMPARE(test::readText(path), std::string("the user's old clip"));
            QCOMPARE(leftovers(dir).size(), std::size_t(2));
        }
        QCOMPARE(test::readText(path), std::string("the user's old clip"));
        QCOMPARE(leftovers(dir), std::vector<std::string>{"clip.mp4"});
        writeClip(path);
        QCOMPARE(probeVideo(path).frameCount, std::int64_t(kFrames));
        QCOMPARE(leftovers(dir), std::vector<std::string>{"clip.mp4"});
    }

    void badOutputsAreRefusedNamingTheFile() {
        const std::string dir = test::tempDir();
        const std::string missing = dir + "/no/such/folder/clip.mp4";
        OnceError e = test::errorOf([&] { VideoWriter w(missing, kW, kH, kFps); });
        QVERIFY2(std::string(e.what()).find(missing) != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("No such file") != std::string::npos, e.what());

        fs::create_directory(dir + "/folder.mp4");
        e = test::errorOf([&] { VideoWriter w(dir + "/folder.mp4", kW, kH, kFps); });
        QVERIFY2(std::string(e.what()).find("folder") != std::string::npos, e.what());

        e = test::errorOf([&] { VideoWriter w(dir + "/clip.avi", kW, kH, kFps); });
        QVERIFY2(std::string(e.what()).find(".mp4 or .gif") != std::string::npos, e.what());
        e = test::errorOf([&] { VideoWriter w(dir + "/clip.mp4", 0, kH, kFps); });
        QCOMPARE(e.where().field, std::string("size"));
        e = test::errorOf([&] { VideoWriter w(dir + "/clip.mp4", kMaxWrittenSide + 1, 2, kFps); });
        QCOMPARE(e.where().field, std::string("size"));
        e = test::errorOf([&] { VideoWriter w(dir + "/clip.mp4", kW, kH, 0); });
        QCOMPARE(e.where().field, std::string("fps"));
        e = test::errorOf([&] { VideoWriter w(dir + "/clip.gif", kW, kH, 60); });
        QCOMPARE(e.where().field, std::string("fps"));
        e = test::errorOf([&] { VideoWriter(dir + "/empty.mp4", kW, kH, kFps).finish(); });
        QVERIFY2(std::string(e.what()).find("no frames") != std::string::npos, e.what());
        QVERIFY(leftovers(dir) == std::vector<std::string>{"folder.mp4"});
        QVERIFY(isWritableVideoPath("a/b.MP4") && isWritableVideoPath("c.gif"));
        QVERIFY(!isWritableVideoPath("c.png") && !isWritableVideoPath("mp4"));
    }
};

QTEST_MAIN(TestVideoWriter)
#include "test_video_writer.moc"
