#pragma once
// Qt side of once::Progress: the core calls the sink on its worker thread; this adapter thins the
// events out and hands them to the GUI thread as a queued signal, so widgets never see a worker
// thread and the worker never waits for a repaint.
#include <QMetaType>
#include <QObject>
#include <QString>
#include <memory>

#include "util/progress.h"

namespace once::studio {

/// A progress event as the GUI sees it (a copy of once::ProgressEvent in Qt types).
struct ProgressUpdate {
    QString stage;
    double done = 0;
    double total = 0;  ///< 0: unknown
    QString detail;
    double elapsedSeconds = 0;
    double etaSeconds = -1;  ///< negative: unknown

    /// 0…1, or -1 when the total is unknown.
    double fraction() const { return total > 0 ? std::min(1.0, done / total) : -1.0; }
};

class QtProgress : public QObject {
    Q_OBJECT
  public:
    explicit QtProgress(QObject* parent = nullptr);
    ~QtProgress() override;

    /// A core Progress whose events arrive as progressed() on this object's thread. Events of one
    /// stage closer than minimumIntervalMs() apart are dropped, except a stage's first and last.
    /// The owner must keep this object alive until the worker using the Progress has ended.
    once::Progress makeProgress(const once::CancelToken& token);

    void setMinimumIntervalMs(int ms);
    int minimumIntervalMs() const;

  signals:
    void progressed(const once::studio::ProgressUpdate& update);

  private:
    struct Throttle;
    std::shared_ptr<Throttle> throttle_;
};

}  // namespace once::studio

Q_DECLARE_METATYPE(once::studio::ProgressUpdate)
