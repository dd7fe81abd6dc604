#include "tasks/task_status.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QTimer>
#include <QToolButton>
#include <cmath>

#include "tasks/background_task.h"

namespace once::studio {

TaskStatus::TaskStatus(QWidget* parent) : QWidget(parent) {
    label_ = new QLabel(this);
    bar_ = new QProgressBar(this);
    bar_->setMaximumWidth(180);
    bar_->setTextVisible(true);
    cancel_ = new QToolButton(this);
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop the running work"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(label_);
    row->addWidget(bar_);
    row->addWidget(cancel_);
    connect(cancel_, &QToolButton::clicked, this, [this] {
        if (current_) {
            current_->cancel();
            label_->setText(tr("Cancelling…"));
            cancel_->setEnabled(false);
        }
    });
    setVisible(false);
}

QString TaskStatus::formatDuration(double s) {
    if (s < 0 || !std::isfinite(s)) {
        return {};
    }
    const auto total = static_cast<long long>(std::llround(s));
    if (total < 60) {
        return tr("%1 s").arg(total);
    }
    if (total < 3600) {
        return tr("%1 min %2 s").arg(total / 60).arg(total % 60, 2, 10, QLatin1Char('0'));
    }
    return tr("%1 h %2 min").arg(total / 3600).arg((total % 3600) / 60, 2, 10, QLatin1Char('0'));
}

void TaskStatus::track(BackgroundTask* task, int showAfterMs) {
    connect(task, &BackgroundTask::started, this, [this, task, showAfterMs] {
        if (showAfterMs <= 0) {
            show(task);
            return;
        }
        QTimer::singleShot(showAfterMs, this, [this, task] {
            if (task->isRunning() && !running_.contains(task)) {
                show(task);
            }
        });
    });
    connect(task, &BackgroundTask::progressed, this, [this, task](const ProgressUpdate& u) {
        if (task == current_) {
            onProgress(u);
        }
    });
    connect(task, &BackgroundTask::finished, this, [this, task] { onFinished(task); });
}

QString TaskStatus::text() const {
    return current_ != nullptr ? label_->text() : QString();
}

void TaskStatus::show(BackgroundTask* task) {
    running_.removeAll(task);
    running_.append(task);
    current_ = task;
    label_->setText(task->title());
    cancel_->setEnabled(true);
    bar_->setRange(0, 0);
    setVisible(true);
}

void TaskStatus::onProgress(const ProgressUpdate& u) {
    QString text = current_->title() + QStringLiteral(" · ") + u.stage;
    if (!u.detail.isEmpty()) {
        text += QStringLiteral(" · ") + u.detail;
    }
    if (u.etaSeconds >= 0) {
        text += QStringLiteral(" · ") + tr("%1 left").arg(formatDuration(u.etaSeconds));
    }
    label_->setText(text);
    const double f = u.fraction();
    if (f < 0) {
        bar_->setRange(0, 0);
    } else {
        bar_->setRange(0, 1000);
        bar_->setValue(static_cast<int>(f * 1000));
    }
}

void TaskStatus::onFinished(BackgroundTask* task) {
    running_.removeAll(task);
    if (task != current_) {
        return;
    }
    current_ = nullptr;
    // Back to another task that still runs (its progress shows from its next event on).
    while (!running_.isEmpty()) {
        BackgroundTask* other = running_.takeLast();
        if (other->isRunning()) {
            show(other);
            return;
        }
    }
    setVisible(false);
}

}  // namespace once::studio
