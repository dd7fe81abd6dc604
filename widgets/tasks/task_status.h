#pragma once
// Status-bar view of a BackgroundTask: stage name, a progress bar (busy indicator when the
// total is unknown), the ETA, and a cancel button.
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

    /// Follows `task` (several tasks may be tracked; the latest event wins).
    void track(BackgroundTask* task);
    /// "12 s", "3 min 05 s", "1 h 02 min" (translated).
    static QString formatDuration(double seconds);

  private:
    void show(const QString& title);
    void onProgress(const ProgressUpdate& update);
    void onFinished();

    QLabel* label_;
    QProgressBar* bar_;
    QToolButton* cancel_;
    BackgroundTask* current_ = nullptr;
    QString title_;
};

}  // namespace once::studio
