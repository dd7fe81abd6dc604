#pragma once
// "The latest request wins", for views that recompute on every change of what they show (the
// patch inspector, the codebook projector's map and its similar codewords, the A/B comparison):
// a request that comes while another runs cancels the running one and runs as soon as it has
// ended — only the newest of the requests that came meanwhile — and the running one's result, or
// failure, is never delivered, even when its work ends before it sees the cancel.
// A class beside BackgroundTask rather than a mode of it: a BackgroundTask is one job with one
// outcome, and the question, the trainer and the loader rely on start() refusing a second job
// while one runs; here the view hands over its newest request instead of checking and flagging.
#include <QObject>
#include <QString>
#include <optional>

#include "tasks/background_task.h"

namespace once::studio {

class LatestRequestRunner : public QObject {
    Q_OBJECT
  public:
    explicit LatestRequestRunner(QObject* parent = nullptr);
    /// Cancels the running request and waits for its worker, delivering nothing.
    ~LatestRequestRunner() override;

    /// Runs `work` now when idle. While a request runs, cancels it (its outcome is dropped) and
    /// keeps `work` as the next one, replacing a next one that has not started yet.
    void run(const QString& title, BackgroundTask::Work work);
    /// Drops the waiting request and cancels the running one: neither delivers anything (a view
    /// that now shows a message instead of a result).
    void cancel();
    /// Running, or a request waiting for the running one to end.
    bool isBusy() const { return task_->isRunning() || next_.has_value(); }
    /// The worker (tests wait on it; its signals fire for stale requests too).
    BackgroundTask* task() const { return task_; }

  signals:
    /// The newest request failed (a stale one's failure is dropped): OnceError::what().
    void failed(const QString& message);

  private:
    void start(const QString& title, BackgroundTask::Work work);

    struct Request {
        QString title;
        BackgroundTask::Work work;
    };
    BackgroundTask* task_;
    std::optional<Request> next_;
    /// The running request was superseded or cancelled: its delivery and failure are dropped.
    /// Read on the GUI thread only (deliveries run there).
    bool stale_ = false;
};

}  // namespace once::studio
