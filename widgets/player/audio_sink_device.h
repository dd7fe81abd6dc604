#pragma once
// Where the player's sound goes: a small seam between the audio worker (player/audio_playback.h)
// and the device, so that the sync logic is tested on machines without a sound card (CI has
// none) with a sink that records what it is given. The studio's sink is Qt Multimedia's audio
// output only (player/qt_audio_sink.h): no Qt Multimedia decoder ever runs in the studio.
//
// A sink is created, used and destroyed on the audio worker thread.
#include <QString>
#include <QtGlobal>
#include <functional>
#include <memory>

#include "video/audio_stream.h"

namespace once::studio {

class AudioSinkDevice {
  public:
    virtual ~AudioSinkDevice() = default;

    /// Opens the output. Returns "" when it plays, with `format` set to the rate and channel
    /// count it takes (interleaved float32 is what write() gets), else why it cannot play ("no
    /// audio output device"); the player then stays silent.
    virtual QString open(once::AudioFormat& format) = 0;
    /// Starts a new run whose first sample is `seconds` of the clip, dropping queued sound.
    virtual void begin(double seconds) = 0;
    /// How many frames (samples per channel) write() takes now.
    virtual qint64 framesFree() = 0;
    /// Queues `frames` frames of interleaved float32; returns how many it took.
    virtual qint64 write(const float* samples, qint64 frames) = 0;
    /// Stops playing and drops queued sound.
    virtual void halt() = 0;
    /// 0 (silent) to 1 (as decoded).
    virtual void setVolume(double volume) = 0;
    /// "" while the device works, else why it stopped (the player then falls silent).
    virtual QString error() const = 0;
};

/// Makes the sink (called on the audio worker thread).
using AudioSinkFactory = std::function<std::unique_ptr<AudioSinkDevice>()>;

}  // namespace once::studio
