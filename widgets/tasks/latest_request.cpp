#include "tasks/latest_request.h"

#include <utility>

namespace once::studio {

LatestRequestRunner::LatestRequestRunner(QObject* parent)
    : QObject(parent), task_(new BackgroundTask(this)) {
    connect(task_, &BackgroundTask::failed, this, [this](const QString& message) {
        if (!stale_) {
            emit failed(message);
        }
    });
    // After the delivery (or failure) of the request that ended: the newest waiting one starts.
    // When the worker was waited for (BackgroundTask::wait), it starts within that call.
    connect(task_, &BackgroundTask::finished, this, [this] {
        if (next_) {
            Request next = std::move(*next_);
            next_.reset();
            start(next.title, std::move(next.work));
        }
    });
}

LatestRequestRunner::~LatestRequestRunner() {
    next_.reset();
    task_->cancelAndWait();
}

void LatestRequestRunner::run(const QString& title, BackgroundTask::Work work) {
    if (!task_->isRunning()) {
        start(title, std::move(work));
        return;
    }
    next_ = Request{title, std::move(work)};
    stale_ = true;
    task_->cancel();
}

void LatestRequestRunner::cancel() {
    next_.reset();
    if (task_->isRunning()) {
        stale_ = true;
        task_->cancel();
    }
}

void LatestRequestRunner::start(const QString& title, BackgroundTask::Work work) {
    stale_ = false;
    task_->start(title, [this, work = std::move(work)](once::Progress& progress) {
        BackgroundTask::Deliver deliver = work(progress);
        if (!deliver) {
            return deliver;
        }
        // Checked on the GUI thread when it delivers: a cancel may come after the work ended.
        return BackgroundTask::Deliver([this, deliver = std::move(deliver)] {
            if (!stale_) {
                deliver();
            }
        });
    });
}

}  // namespace once::studio
