#include "player/audio_playback.h"

#include <QFile>
#include <QTimer>
#include <exception>

#include "player/qt_audio_sink.h"
#include "util/exception_text.h"

namespace once::studio {
namespace {
// How often the worker tops the device up: well inside the device's own buffer (Qt's
// PulseAudio sink holds about 100 ms or more).
constexpr int kFeedMs = 10;
}  // namespace

/// The worker side: owns the sink and the decoder, both used on the worker thread only.
class AudioFeeder : public QObject {
  public:
    /// `report(generation, note)` is called on the worker with "" or why there is no sound.
    AudioFeeder(std::function<void(quint64, QString)> report)
        : report_(std::move(report)), timer_(new QTimer(this)) {
        timer_->setInterval(kFeedMs);
        connect(timer_, &QTimer::timeout, this, &AudioFeeder::feed);
    }

    void setFactory(AudioSinkFactory factory) { factory_ = std::move(factory); }

    void setSource(const QString& path, quint64 generation) {
        halt();
        sink_.reset();  // a device plugged in since is found at the next start
        stream_.reset();
        path_ = path;
        generation_ = generation;
        silentWhy_.clear();
    }

    void start(double seconds, double volume) {
        halt();
        if (path_.isEmpty() || !silentWhy_.isEmpty() || !prepare()) {
            return;
        }
        try {
            stream_->seek(seconds);
        } catch (const std::exception& e) {
            silence(QString::fromStdString(once::userMessage(e)));
            return;
        }
        chunk_.samples.clear();
        offset_ = 0;
        sink_->setVolume(volume);
        sink_->begin(seconds);
        timer_->start();
        feed();
    }

    void halt() {
        timer_->stop();
        if (sink_) {
            sink_->halt();
        }
    }

    void setVolume(double volume) {
        if (sink_) {
            sink_->setVolume(volume);
        }
    }

    /// Frees the sink and the decoder on this thread (the sink's QObjects live here).
    void shutdown() {
        halt();
        sink_.reset();
        stream_.reset();
    }

  private:
    /// Opens the device and the decoder once per source; false (with the note) when either
    /// cannot play.
    bool prepare() {
        if (!sink_) {
            sink_ = factory_ ? factory_() : std::make_unique<QtAudioSink>();
            const QString why = sink_->open(format_);
            if (!why.isEmpty()) {
                silence(why);
                return false;
            }
        }
        if (!stream_) {
            try {
                stream_ = std::make_unique<once::AudioStream>(
                    QFile::encodeName(path_).toStdString(), format_);
            } catch (const std::exception& e) {
                silence(QString::fromStdString(once::userMessage(e)));
                return false;
            }
            if (!stream_->hasAudio()) {
                silence(AudioPlayback::tr("the clip has no sound track"));
                return false;
            }
            report_(generation_, QString());
        }
        return true;
    }

    /// Falls silent for the rest of this source and says why.
    void silence(const QString& why) {
        halt();
        silentWhy_ = why;
        report_(generation_, why);
    }

    void feed() {
        if (!sink_ || !stream_) {
            return;
        }
        const QString broken = sink_->error();
        if (!broken.isEmpty()) {
            silence(broken);
            return;
        }
        try {
            qint64 room = sink_->framesFree();
            while (room > 0) {
                if (offset_ >= chunk_.frames()) {
                    if (!stream_->next(chunk_)) {
                        timer_->stop();  // the end of the sound: the device plays out its queue
                        return;
                    }
                    offset_ = 0;
                }
                const qint64 n = std::min(room, chunk_.frames() - offset_);
                const qint64 took = sink_->write(
                    chunk_.samples.data() + std::size_t(offset_) * std::size_t(format_.channels),
                    n);
                offset_ += took;
                room -= took;
                if (took < n) {
                    break;  // the device is full for now
                }
            }
        } catch (const std::exception& e) {
            silence(QString::fromStdString(once::userMessage(e)));
        }
    }

    std::function<void(quint64, QString)> report_;
    QTimer* timer_;
    AudioSinkFactory factory_;
    std::unique_ptr<AudioSinkDevice> sink_;
    std::unique_ptr<once::AudioStream> stream_;
    once::AudioFormat format_;
    once::AudioChunk chunk_;
    qint64 offset_ = 0;  ///< frames of chunk_ already written
    QString path_;
    quint64 generation_ = 0;
    QString silentWhy_;  ///< why this source plays silently ("" while it may play)
};

AudioPlayback::AudioPlayback(QObject* parent) : QObject(parent) {
    feeder_ = new AudioFeeder([this](quint64 generation, QString why) {
        // Back to the GUI thread; a note about an earlier source is dropped there.
        QMetaObject::invokeMethod(
            this,
            [this, generation, why] {
                if (generation != generation_) {
                    return;
                }
                note_ = why.isEmpty() ? QString() : tr("No sound: %1").arg(why);
                emit noteChanged(note_);
            },
            Qt::QueuedConnection);
    });
    feeder_->moveToThread(&thread_);
    thread_.setObjectName(QStringLiteral("once-audio"));
    thread_.start();
}

AudioPlayback::~AudioPlayback() {
    QMetaObject::invokeMethod(
        feeder_, [f = feeder_] { f->shutdown(); }, Qt::BlockingQueuedConnection);
    thread_.quit();
    thread_.wait();
    delete feeder_;
}

template <class F>
void AudioPlayback::post(F&& f) {
    QMetaObject::invokeMethod(feeder_, std::forward<F>(f), Qt::QueuedConnection);
}

void AudioPlayback::setSinkFactory(AudioSinkFactory factory) {
    post([f = feeder_, factory = std::move(factory)]() mutable {
        f->setFactory(std::move(factory));
    });
    setSource(QString());
}

void AudioPlayback::setSource(const QString& path) {
    const quint64 generation = ++generation_;
    post([f = feeder_, path, generation] { f->setSource(path, generation); });
    if (!note_.isEmpty()) {
        note_.clear();
        emit noteChanged(note_);
    }
}

void AudioPlayback::start(double seconds) {
    const double volume = muted_ ? 0.0 : volume_;
    post([f = feeder_, seconds, volume] { f->start(seconds, volume); });
}

void AudioPlayback::stop() {
    post([f = feeder_] { f->halt(); });
}

void AudioPlayback::setMuted(bool muted) {
    muted_ = muted;
    applyVolume();
}

void AudioPlayback::setVolume(double volume) {
    volume_ = std::clamp(volume, 0.0, 1.0);
    applyVolume();
}

void AudioPlayback::applyVolume() {
    const double v = muted_ ? 0.0 : volume_;
    post([f = feeder_, v] { f->setVolume(v); });
}

}  // namespace once::studio
