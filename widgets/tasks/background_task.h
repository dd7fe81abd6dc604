#pragma once
// One long job on its own QThread (code-style anchors, rule 3): the worker gets a once::Progress
// whose cancel token the GUI thread sets directly; errors come back as signals, never as
// exceptions across threads, and nothing but the delivery step touches the GUI.
#include <QObject>
#include <QString>
#include <functional>

#include "tasks/qt_progress.h"
#include "util/progress.h"

class QThread;

namespace once::studio {

class BackgroundTask : public QObject {
    Q_OBJECT
  public:
    /// Runs on the worker thread. Returns what to do with its result on the GUI thread (may be
    /// empty); capture the result by value in that closure. Throw once::OnceError (or any
    /// std::exception) to fail, once::Cancelled when the token was cancelled.
    using Deliver = std::function<void()>;
    using Work = std::function<Deliver(once::Progress&)>;

    explicit BackgroundTask(QObject* parent = nullptr);
    /// Cancels a running job and waits for its thread: the work must reach a cancel point.
    ~BackgroundTask() override;

    /// Starts `work`; returns false (and does nothing) while a job is still running.
    bool start(const QString& title, Work work);
    bool isRunning() const { return thread_ != nullptr; }
    QString title() const { return title_; }
    /// Asks the running job to stop at its next cancel point; returns at once.
    void cancel();
    /// Cancels and blocks until the worker has ended, without delivering its result (used when
    /// the window closes). Returns at once when idle.
    void cancelAndWait();
    /// Blocks until the worker has ended and the outcome was delivered (tests, shutdown).
    /// Returns false on timeout.
    bool wait(int timeoutMs = -1);

    QtProgress* progress() { return progress_; }
    /// Whether a cancelled job's result is still delivered (before cancelled()) when the work
    /// returned one: for jobs whose partial result is worth keeping (a budget sweep's measured
    /// budgets). Off by default: a cancelled load or compression must not install anything.
    void setDeliversWhenCancelled(bool on) { deliversWhenCancelled_ = on; }

  signals:
    void started(const QString& title);
    void progressed(const once::studio::ProgressUpdate& update);
    void succeeded();
    /// `message` is the complete text of the error (OnceError::what()).
    void failed(const QString& message);
    void cancelled();
    /// After succeeded, failed or cancelled.
    void finished();

  private:
    void onThreadFinished();

    QtProgress* progress_;
    QThread* thread_ = nullptr;
    QString title_;
    once::CancelToken token_;
    // Written by the worker before its thread finishes, read on the GUI thread after.
    Deliver deliver_;
    QString error_;
    bool wasCancelled_ = false;
    bool deliversWhenCancelled_ = false;
    bool discard_ = false;
};

}  // namespace once::studio
