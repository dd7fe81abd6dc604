#pragma once
// Status-bar view of the running BackgroundTasks: stage name, a progress bar (busy indicator when
// the total is unknown), the ETA, and a cancel button. Several tasks may run at once (a load, a
// re-compression, a sweep, an answer): the one started last is shown, and when it ends the
// view goes back to another that still runs.
#include <QList>
#include <QWidget>

#include "tasks/qt_progress.h"

class QLabel;
class QProgressBar;
class QToolButton;

namespace once::studio {

class BackgroundTask;

class TaskStatus : public QWidget {
    Q_OBJECT
  public:
    explicit TaskStatus(QWidget* parent = nullptr);

    /// Follows `task`. A task that usually ends at once (a re-compression) is shown only after
    /// running `showAfterMs`, so quick ones do not flicker in the status bar.
    void track(BackgroundTask* task, int showAfterMs = 0);
    /// "12 s", "3 min 05 s", "1 h 02 min" (translated).
    static QString formatDuration(double seconds);

    /// The task on view (null when hidden), its text and the cancel button, for tests.
    BackgroundTask* currentTask() const { return current_; }
    QString text() const;
    QToolButton* cancelButton() const { return cancel_; }

  private:
    void show(BackgroundTask* task);
    void onProgress(const ProgressUpdate& update);
    void onFinished(BackgroundTask* task);

    QLabel* label_;
    QProgressBar* bar_;
    QToolButton* cancel_;
    BackgroundTask* current_ = nullptr;
    // Running tasks that are (or are due to be) on view, oldest first.
    QList<BackgroundTask*> running_;
};

}  // namespace once::studio
