#pragma once
// The studio document's loader: a queue of load jobs run one at a time, in request order, on its
// own BackgroundTask — a video, a feature file, a codebook, a model folder, the demo. Each job reads the document's state when it
// starts (a codebook queued behind a video is checked against that video) and hands what it made
// to the document's install methods; it never keeps a copy of the document's state. The vision
// encoder survives between loads, so a real backbone loads its weights once.
#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <vector>

#include "io/file_kind.h"
#include "session/pipeline_settings.h"
#include "util/progress.h"

namespace once {
class VisualEncoder;
}

namespace once::studio {

class BackgroundTask;
class StudioSession;

class VideoLoader : public QObject {
    Q_OBJECT
  public:
    /// Child of `session`, whose state it reads and into which it installs.
    explicit VideoLoader(StudioSession& session);
    ~VideoLoader() override;

    /// Queues the load of `path` as `kind`: a video, a feature file, a codebook or a model
    /// folder (FileKind::Unknown: StudioSession::classify decides; still unknown is an error).
    void open(once::FileKind kind, const QString& path);
    void loadDemo();
    /// Encodes the document's video again with the encoder of the current settings (a model
    /// folder brought another one); decided when the job starts: a feature file or no video
    /// is nothing to do.
    void reencode();
    /// Runs `step` on the GUI thread when the loads queued before it have ended (failed ones
    /// too); a cancel drops it with the rest of the queue.
    void then(std::function<void()> step);

    BackgroundTask* task() const { return task_; }
    /// A load is running or queued.
    bool isBusy() const;
    /// Cancels the running load and drops the queued ones.
    void cancel();
    /// Cancels and waits for the worker (closing the window).
    void shutdown();

  signals:
    /// isBusy() may have changed.
    void busyChanged();

  private:
    using Work = std::function<std::function<void()>(once::Progress&)>;
    void enqueue(std::function<void()> start);
    void drainQueue();
    void run(const QString& title, const QString& errorTitle, Work work);
    // One per FileKind (open() picks by kind).
    void startVideo(const QString& path);
    void startFeatureFile(const QString& path);
    void startCodebook(const QString& path);
    void startModelFolder(const QString& path);
    void startDemo();
    /// The kept encoder when it was built for `settings` and `modelDir`, else null.
    std::shared_ptr<once::VisualEncoder> cachedEncoder(const PipelineSettings& settings,
                                                       const QString& modelDir) const;
    void keepEncoder(std::shared_ptr<once::VisualEncoder> encoder, const PipelineSettings& settings,
                     const QString& modelDir);

    StudioSession& session_;
    BackgroundTask* task_;
    QString errorTitle_;
    std::vector<std::function<void()>> queue_;
    std::shared_ptr<once::VisualEncoder> encoder_;
    PipelineSettings encoderSettings_;
    QString encoderModelDir_;
};

}  // namespace once::studio
