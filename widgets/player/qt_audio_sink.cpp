#include "player/qt_audio_sink.h"

#include <QAudioDevice>
#include <QAudioSink>
#include <QMediaDevices>
#include <algorithm>
#include <cmath>

namespace once::studio {

QtAudioSink::QtAudioSink() = default;

QtAudioSink::~QtAudioSink() {
    halt();
}

QString QtAudioSink::open(once::AudioFormat& format) {
    const QAudioDevice device = QMediaDevices::defaultAudioOutput();
    if (device.isNull()) {
        return tr("no audio output device");
    }
    // The device's own rate and at most two channels (the player's sound is stereo at most
    // worth hearing), in float if it takes it, else 16-bit.
    QAudioFormat f = device.preferredFormat();
    f.setSampleRate(std::clamp(f.sampleRate() > 0 ? f.sampleRate() : 48000, once::kMinAudioRate,
                               once::kMaxAudioRate));
    f.setChannelCount(std::clamp(f.channelCount(), 1, 2));
    f.setSampleFormat(QAudioFormat::Float);
    if (!device.isFormatSupported(f)) {
        f.setSampleFormat(QAudioFormat::Int16);
        if (!device.isFormatSupported(f)) {
            return tr("the audio device %1 takes neither float nor 16-bit sound at %2 Hz")
                .arg(device.description())
                .arg(f.sampleRate());
        }
    }
    sink_ = std::make_unique<QAudioSink>(device, f);
    format_ = f;
    format.rate = f.sampleRate();
    format.channels = f.channelCount();
    return error();
}

void QtAudioSink::begin(double) {
    halt();
    if (sink_) {
        io_ = sink_->start();  // push mode: write() feeds it
    }
}

qint64 QtAudioSink::framesFree() {
    if (!io_ || !sink_ || format_.bytesPerFrame() <= 0) {
        return 0;
    }
    return sink_->bytesFree() / format_.bytesPerFrame();
}

qint64 QtAudioSink::write(const float* samples, qint64 frames) {
    if (!io_ || frames <= 0) {
        return 0;
    }
    const qint64 n = std::min(frames, framesFree());
    const qint64 count = n * format_.channelCount();
    qint64 written = 0;
    if (format_.sampleFormat() == QAudioFormat::Float) {
        written = io_->write(reinterpret_cast<const char*>(samples), count * qint64(sizeof(float)));
    } else {
        scratch_.resize(std::size_t(count));
        for (qint64 i = 0; i < count; ++i) {
            const float v = std::clamp(samples[i], -1.0f, 1.0f);
            scratch_[std::size_t(i)] = qint16(std::lround(v * 32767.0f));
        }
        written = io_->write(reinterpret_cast<const char*>(scratch_.data()),
                             count * qint64(sizeof(qint16)));
    }
    return written > 0 ? written / format_.bytesPerFrame() : 0;
}

void QtAudioSink::halt() {
    if (sink_) {
        sink_->stop();
    }
    io_ = nullptr;
}

void QtAudioSink::setVolume(double volume) {
    if (sink_) {
        sink_->setVolume(std::clamp(volume, 0.0, 1.0));
    }
}

QString QtAudioSink::error() const {
    if (!sink_) {
        return {};
    }
    switch (sink_->error()) {
        case QAudio::NoError:
        case QAudio::UnderrunError:  // the feed paused (a seek, a slow disk): not the device's
                                     // fault
            return {};
        case QAudio::OpenError:
            return tr("the audio device could not be opened");
        case QAudio::IOError:
            return tr("the audio device stopped taking sound");
        case QAudio::FatalError:
            return tr("the audio device failed");
    }
    return tr("the audio device failed");
}

}  // namespace once::studio
