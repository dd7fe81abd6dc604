#pragma once
// The studio's sound output: Qt Multimedia's QAudioSink on the default output device, in push
// mode. Only the device output of Qt Multimedia is used (the sound is decoded by the core,
// video/audio_stream.h): its FFmpeg plugin once killed the studio in a decoding thread (issue 30).
// Every way the device can fail — none present, a format it refuses, an error while playing —
// is a reason the player shows while it plays on silently.
#include <QAudioFormat>
#include <QCoreApplication>
#include <memory>
#include <vector>

#include "player/audio_sink_device.h"

class QAudioSink;
class QIODevice;

namespace once::studio {

class QtAudioSink : public AudioSinkDevice {
    Q_DECLARE_TR_FUNCTIONS(QtAudioSink)
  public:
    QtAudioSink();
    ~QtAudioSink() override;

    QString open(once::AudioFormat& format) override;
    void begin(double seconds) override;
    qint64 framesFree() override;
    qint64 write(const float* samples, qint64 frames) override;
    void halt() override;
    void setVolume(double volume) override;
    QString error() const override;

  private:
    std::unique_ptr<QAudioSink> sink_;
    QIODevice* io_ = nullptr;
    QAudioFormat format_;
    std::vector<qint16> scratch_;  ///< for a device that takes 16-bit samples only
};

}  // namespace once::studio
