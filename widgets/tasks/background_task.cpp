#include "tasks/background_task.h"

#include <QDeadlineTimer>
#include <QThread>
#include <exception>

#include "util/error.h"
#include "util/exception_text.h"

namespace once::studio {

BackgroundTask::BackgroundTask(QObject* parent) : QObject(parent), progress_(new QtProgress(this)) {
    connect(progress_, &QtProgress::progressed, this, &BackgroundTask::progressed);
}

BackgroundTask::~BackgroundTask() {
    cancelAndWait();
}

bool BackgroundTask::start(const QString& title, Work work) {
    if (thread_) {
        return false;
    }
    title_ = title;
    token_ = once::CancelToken();
    deliver_ = {};
    error_.clear();
    wasCancelled_ = false;
    discard_ = false;
    auto progress = progress_->makeProgress(token_);
    thread_ = QThread::create([this, work = std::move(work), progress]() mutable {
        try {
            deliver_ = work(progress);
        } catch (const once::Cancelled&) {
            wasCancelled_ = true;
        } catch (const once::OnceError& e) {
            error_ = QString::fromStdString(e.what());
        } catch (const std::exception& e) {
            // LibTorch (c10::Error) and the standard library: one line, no backtrace.
            error_ = QString::fromStdString(once::userMessage(e));
        } catch (...) {
            error_ = QStringLiteral("unknown error");
        }
        if (token_.cancelled() && error_.isEmpty()) {
            wasCancelled_ = true;
        }
    });
    thread_->setObjectName(QStringLiteral("once-worker"));
    // wait() may already have handled this thread when the queued signal arrives, and a new job
    // may be running by then: only the thread it was sent for is finished by it.
    QThread* t = thread_;
    connect(t, &QThread::finished, this, [this, t] {
        if (thread_ == t) {
            onThreadFinished();
        }
    });
    emit started(title_);
    thread_->start();
    return true;
}

void BackgroundTask::cancel() {
    if (thread_) {
        token_.cancel();
    }
}

void BackgroundTask::cancelAndWait() {
    if (!thread_) {
        return;
    }
    discard_ = true;
    token_.cancel();
    thread_->wait();
    onThreadFinished();
}

bool BackgroundTask::wait(int timeoutMs) {
    if (!thread_) {
        return true;
    }
    QThread* t = thread_;
    if (!t->wait(timeoutMs < 0 ? QDeadlineTimer(QDeadlineTimer::Forever)
                               : QDeadlineTimer(timeoutMs))) {
        return false;
    }
    // The finished signal is queued to this thread: deliver now instead of waiting for it.
    onThreadFinished();
    return true;
}

void BackgroundTask::onThreadFinished() {
    if (!thread_) {
        return;  // already handled by wait() or cancelAndWait()
    }
    QThread* t = thread_;
    thread_ = nullptr;
    t->deleteLater();
    Deliver deliver = std::move(deliver_);
    deliver_ = {};
    if (discard_) {
        return;
    }
    if (wasCancelled_) {
        if (deliversWhenCancelled_ && deliver) {  // a cancel never carries an error
            try {
                deliver();
            } catch (const std::exception&) {
                // a partial result that cannot be installed is dropped; the cancel still stands
            }
        }
        emit cancelled();
    } else if (!error_.isEmpty()) {
        emit failed(error_);
    } else {
        try {
            if (deliver) {
                deliver();
            }
            emit succeeded();
        } catch (const std::exception& e) {
            emit failed(QString::fromStdString(once::userMessage(e)));
        }
    }
    emit finished();
}

}  // namespace once::studio
