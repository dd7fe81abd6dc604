#pragma once
// The player's sound (issue 30): the core decodes the clip's audio (video/audio_stream.h) on a
// worker thread, which feeds the device (player/audio_sink_device.h) as fast as it plays. The
// GUI only says where the playhead is: start(seconds) plays from there, stop() falls silent, a
// new source forgets the old one. Everything that can go wrong — no device, a format it
// refuses, a device error, a clip without sound, sound the core cannot decode — ends in silence
// and a note ("No sound: …"), never a crash or a wait on the GUI thread.
#include <QObject>
#include <QString>
#include <QThread>

#include "player/audio_sink_device.h"

namespace once::studio {

class AudioFeeder;

class AudioPlayback : public QObject {
    Q_OBJECT
  public:
    /// Plays through Qt Multimedia's audio output (player/qt_audio_sink.h).
    explicit AudioPlayback(QObject* parent = nullptr);
    /// Stops the worker and joins it.
    ~AudioPlayback() override;

    /// Replaces the device (tests: a sink that records); takes effect at the next source.
    void setSinkFactory(AudioSinkFactory factory);
    /// The clip whose sound plays (empty: none). Stops what plays.
    void setSource(const QString& path);
    /// Plays the sound from `seconds` of the clip (again from there when already playing).
    void start(double seconds);
    /// Stops the sound.
    void stop();
    void setMuted(bool muted);
    bool isMuted() const { return muted_; }
    /// 0 … 1.
    void setVolume(double volume);
    double volume() const { return volume_; }
    /// Why the clip plays silently ("" while it has sound or has not been played yet).
    QString note() const { return note_; }

  signals:
    void noteChanged(const QString& note);

  private:
    /// Runs `f` on the worker, in order with the other commands.
    template <class F>
    void post(F&& f);
    void applyVolume();

    QThread thread_;
    AudioFeeder* feeder_;
    quint64 generation_ = 0;  ///< counts sources: notes of an older one are dropped
    bool muted_ = false;
    double volume_ = 1.0;
    QString note_;
};

}  // namespace once::studio
