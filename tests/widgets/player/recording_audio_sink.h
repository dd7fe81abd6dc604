#pragma once
// A sound device for the player's tests (player/audio_sink_device.h): it records the runs the
// player starts (the clip time of each), the PCM it is given, halts and volume, and takes sound
// as fast as a real device would play it (a fifth of a second queued, then real time), so that
// the sync logic is tested without a sound card. A test can make it refuse to open or fail
// while playing, as a real device may.
#include <QElapsedTimer>
#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "player/audio_sink_device.h"

namespace once::test {

/// What the sink saw; shared between the test (GUI thread) and the sink (audio worker).
struct SinkRecord {
    mutable std::mutex mutex;
    // Set by the test:
    QString refuseOpen;  ///< open() returns this when not empty
    QString failure;     ///< error() returns this when not empty
    int rate = 48000, channels = 2;
    // Recorded:
    std::vector<double> begins;  ///< clip time of each run
    std::vector<float> pcm;      ///< the current run's samples
    qint64 frames = 0;           ///< frames written over all runs
    int halts = 0;
    bool running = false;
    double volume = 1.0;

    template <class T>
    T get(T SinkRecord::*field) const {
        std::lock_guard lock(mutex);
        return this->*field;
    }
    void set(QString SinkRecord::*field, const QString& value) {
        std::lock_guard lock(mutex);
        this->*field = value;
    }
};

class RecordingAudioSink : public studio::AudioSinkDevice {
  public:
    explicit RecordingAudioSink(std::shared_ptr<SinkRecord> record) : r_(std::move(record)) {}

    QString open(once::AudioFormat& format) override {
        std::lock_guard lock(r_->mutex);
        format = {r_->rate, r_->channels};
        return r_->refuseOpen;
    }
    void begin(double seconds) override {
        std::lock_guard lock(r_->mutex);
        r_->begins.push_back(seconds);
        r_->pcm.clear();
        r_->running = true;
        since_.restart();
        written_ = 0;
    }
    qint64 framesFree() override {
        std::lock_guard lock(r_->mutex);
        if (!r_->running) {
            return 0;
        }
        const double played = 0.2 + double(since_.elapsed()) / 1000.0;
        return std::max<qint64>(0, qint64(played * r_->rate) - written_);
    }
    qint64 write(const float* samples, qint64 frames) override {
        std::lock_guard lock(r_->mutex);
        r_->pcm.insert(r_->pcm.end(), samples, samples + frames * r_->channels);
        r_->frames += frames;
        written_ += frames;
        return frames;
    }
    void halt() override {
        std::lock_guard lock(r_->mutex);
        r_->halts += r_->running ? 1 : 0;
        r_->running = false;
    }
    void setVolume(double volume) override {
        std::lock_guard lock(r_->mutex);
        r_->volume = volume;
    }
    QString error() const override {
        std::lock_guard lock(r_->mutex);
        return r_->failure;
    }

  private:
    std::shared_ptr<SinkRecord> r_;
    QElapsedTimer since_;
    qint64 written_ = 0;
};

/// A factory for AudioPlayback::setSinkFactory that records into `record`.
inline studio::AudioSinkFactory recordingSink(std::shared_ptr<SinkRecord> record) {
    return [record] { return std::make_unique<RecordingAudioSink>(record); };
}

}  // namespace once::test
