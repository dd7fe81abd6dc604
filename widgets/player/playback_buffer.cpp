#include "player/playback_buffer.h"

#include <QFile>
#include <algorithm>
#include <exception>
#include <iterator>

#include "util/exception_text.h"
#include "video/frame_stream.h"

namespace once::studio {
namespace {
constexpr double kEps = 1e-6;
// A cursor this far past the last decoded frame is reached faster by decoding on than by
// seeking back to a key frame and decoding forward again.
constexpr double kForwardGap = 1.0;

QImage toImage(const once::PlaybackFrame& f) {
    return QImage(f.rgb.data(), f.width, f.height, f.width * 3, QImage::Format_RGB888).copy();
}
}  // namespace

PlaybackBuffer::PlaybackBuffer(QObject* parent) : PlaybackBuffer(Window{}, parent) {}

PlaybackBuffer::PlaybackBuffer(const Window& window, QObject* parent)
    : QObject(parent), window_(window) {}

PlaybackBuffer::~PlaybackBuffer() {
    open(QString());
}

void PlaybackBuffer::open(const QString& path) {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        ++generation_;
    }
    wake_.notify_all();
    if (worker_.joinable()) {
        worker_.join();
    }
    std::lock_guard lock(mutex_);
    stop_ = false;
    path_ = path;
    frames_.clear();
    cursor_ = 0;
    runFrom_ = 0;
    decodedTo_ = -1;
    atEnd_ = false;
    lastFrame_ = -1;
    stated_ = fps_ = 0;
    seeks_ = 0;
    if (!path.isEmpty()) {
        worker_ = std::thread(&PlaybackBuffer::run, this, QFile::encodeName(path).toStdString(),
                              generation_);
    }
}

QString PlaybackBuffer::path() const {
    std::lock_guard lock(mutex_);
    return path_;
}

void PlaybackBuffer::setCursor(double seconds) {
    {
        std::lock_guard lock(mutex_);
        cursor_ = std::max(0.0, seconds);
        evict();
    }
    wake_.notify_all();
}

double PlaybackBuffer::cursor() const {
    std::lock_guard lock(mutex_);
    return cursor_;
}

PlaybackBuffer::Frame PlaybackBuffer::frameAt(double seconds) const {
    std::lock_guard lock(mutex_);
    if (frames_.empty()) {
        return {};
    }
    auto it = frames_.upper_bound(seconds + kEps);
    if (it == frames_.begin()) {
        // Before the first held frame: that frame only when nothing precedes it (the start
        // of the stream or of the seek that produced it).
        return seconds + kEps >= runFrom_ || runFrom_ <= kEps ? Frame{it->second, it->first}
                                                              : Frame{};
    }
    --it;
    return {it->second, it->first};
}

bool PlaybackBuffer::holdsUpTo(double seconds) const {
    std::lock_guard lock(mutex_);
    if (frames_.empty()) {
        return atEnd_;
    }
    return frames_.begin()->first <= seconds + kEps &&
           (atEnd_ || frames_.rbegin()->first >= seconds - kEps);
}

double PlaybackBuffer::lastFrameTime() const {
    std::lock_guard lock(mutex_);
    return lastFrame_;
}

double PlaybackBuffer::statedDuration() const {
    std::lock_guard lock(mutex_);
    return stated_;
}

double PlaybackBuffer::fps() const {
    std::lock_guard lock(mutex_);
    return fps_;
}

int PlaybackBuffer::cachedFrames() const {
    std::lock_guard lock(mutex_);
    return int(frames_.size());
}

int PlaybackBuffer::seekCount() const {
    std::lock_guard lock(mutex_);
    return seeks_;
}

bool PlaybackBuffer::needsWork() const {
    const bool inRun = cursor_ + kEps >= runFrom_ &&
                       (atEnd_ || decodedTo_ < 0 || cursor_ <= decodedTo_ + kForwardGap);
    if (!inRun) {
        return true;  // a seek
    }
    return !atEnd_ && (decodedTo_ < cursor_ + window_.ahead) &&
           int(frames_.size()) < window_.maxFrames;
}

void PlaybackBuffer::evict() {
    // Frames before the window go, but the one shown at the cursor stays.
    auto keep = frames_.upper_bound(cursor_ - window_.behind);
    if (keep != frames_.begin()) {
        --keep;
    }
    if (keep != frames_.begin()) {
        frames_.erase(frames_.begin(), keep);
        runFrom_ = frames_.begin()->first;
    }
    // At a high frame rate the seconds behind would fill the buffer and stop decoding ahead:
    // at most a quarter of it stays behind the cursor.
    const auto behind = std::distance(frames_.begin(), frames_.upper_bound(cursor_ + kEps));
    const auto excess = behind - std::max<std::ptrdiff_t>(1, window_.maxFrames / 4);
    if (excess > 0) {
        frames_.erase(frames_.begin(), std::next(frames_.begin(), excess));
        runFrom_ = frames_.begin()->first;
    }
}

void PlaybackBuffer::run(std::string path, quint64 generation) {
    try {
        once::FrameStream stream(path, window_.maxWidth, window_.maxHeight);
        {
            std::lock_guard lock(mutex_);
            if (generation != generation_) {
                return;
            }
            stated_ = stream.statedDuration();
            fps_ = stream.info().fps;
        }
        emit opened();
        once::PlaybackFrame frame;
        while (true) {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stop_ || needsWork(); });
            if (stop_) {
                return;
            }
            const bool inRun = cursor_ + kEps >= runFrom_ &&
                               (atEnd_ || decodedTo_ < 0 || cursor_ <= decodedTo_ + kForwardGap);
            if (!inRun) {
                const double target = cursor_;
                frames_.clear();
                atEnd_ = false;
                runFrom_ = target;
                decodedTo_ = -1;
                ++seeks_;
                lock.unlock();
                stream.seek(target);
                continue;
            }
            lock.unlock();
            const bool got = stream.next(frame);
            QImage image = got ? toImage(frame) : QImage();
            lock.lock();
            if (stop_) {
                return;
            }
            if (!got) {
                atEnd_ = true;
                lastFrame_ = std::max(lastFrame_, decodedTo_);
            } else {
                frames_[frame.time] = std::move(image);
                runFrom_ = std::min(runFrom_, frame.time);
                decodedTo_ = std::max(decodedTo_, frame.time);
                evict();
            }
            lock.unlock();
            emit framesAdded();
        }
    } catch (const std::exception& e) {
        bool current = false;
        {
            std::lock_guard lock(mutex_);
            current = generation == generation_ && !stop_;
            atEnd_ = true;
        }
        if (current) {
            emit failed(QString::fromStdString(once::userMessage(e)));
        }
    }
}

}  // namespace once::studio
