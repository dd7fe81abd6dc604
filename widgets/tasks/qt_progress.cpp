#include "tasks/qt_progress.h"

#include <QMetaObject>
#include <chrono>
#include <mutex>

namespace once::studio {

struct QtProgress::Throttle {
    std::mutex mutex;
    std::string stage;
    std::chrono::steady_clock::time_point last{};
    int minimumMs = 50;

    // Whether an event should reach the GUI: the first of a stage, the last, and others at most
    // every minimumMs (a tight loop may report thousands of steps a second).
    bool admit(const once::ProgressEvent& e) {
        std::lock_guard lock(mutex);
        const auto now = std::chrono::steady_clock::now();
        const bool newStage = e.stage != stage;
        const bool final = e.total > 0 && e.done >= e.total;
        if (!newStage && !final && now - last < std::chrono::milliseconds(minimumMs)) {
            return false;
        }
        stage = e.stage;
        last = now;
        return true;
    }
};

QtProgress::QtProgress(QObject* parent) : QObject(parent), throttle_(std::make_shared<Throttle>()) {
    qRegisterMetaType<ProgressUpdate>();
}

QtProgress::~QtProgress() = default;

once::Progress QtProgress::makeProgress(const once::CancelToken& token) {
    auto throttle = throttle_;
    return once::Progress(
        [this, throttle](const once::ProgressEvent& e) {
            if (!throttle->admit(e)) {
                return;
            }
            ProgressUpdate u;
            u.stage = QString::fromStdString(e.stage);
            u.done = e.done;
            u.total = e.total;
            u.detail = QString::fromStdString(e.detail);
            u.elapsedSeconds = e.elapsedSeconds;
            u.etaSeconds = e.etaSeconds;
            // Emitted from the worker: the connection to receivers on the GUI thread is queued.
            emit progressed(u);
        },
        token);
}

void QtProgress::setMinimumIntervalMs(int ms) {
    std::lock_guard lock(throttle_->mutex);
    throttle_->minimumMs = ms;
}

int QtProgress::minimumIntervalMs() const {
    std::lock_guard lock(throttle_->mutex);
    return throttle_->minimumMs;
}

}  // namespace once::studio
