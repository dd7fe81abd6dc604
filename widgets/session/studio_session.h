#pragma once
// The document of ONCE Studio: one video (features, frames), one codebook, the cached assignment
// and the current compression, plus an optional model folder. Every load runs on a worker
// thread (BackgroundTask); results replace the state on the GUI thread and are announced by
// signals. The budget and variant re-compress from the cached assignment on a second worker,
// coalescing slider moves so the newest setting always wins.
//
// The compression method is ONCE (needs a codebook) or any peer baseline of the registry
// (compress/token_compressor.h; works on the video alone). A peer is prepared once per video on
// the load worker and kept per method, so switching methods back and forth prepares nothing
// twice; the slider then re-compresses from the prepared state like ONCE's cached assignment.
#include <QObject>
#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

#include "analysis/budget_sweep.h"
#include "compress/assignment.h"
#include "compress/compression.h"
#include "io/file_kind.h"
#include "session/answer_pipeline.h"
#include "session/methods.h"
#include "session/model_folder.h"
#include "session/pipeline_settings.h"
#include "session/video_data.h"

namespace once {
class Codebook;
class TokenCompressor;
class VisualEncoder;
}  // namespace once

namespace once::studio {

class BackgroundTask;
struct AssignOutcome;

class StudioSession : public QObject {
    Q_OBJECT
  public:
    using FileKind = once::FileKind;
    /// once::classifyPath (io/file_kind.h).
    static FileKind classify(const QString& path);

    explicit StudioSession(QObject* parent = nullptr);
    ~StudioSession() override;

    // ---- loading (all asynchronous; errors arrive as errorOccurred) ----
    void openVideo(const QString& path);
    void openFeatureFile(const QString& path);
    void openCodebook(const QString& path);
    void openModelFolder(const QString& path);
    /// Opens whatever `path` is (see classify); unknown files are an error.
    void openPath(const QString& path);
    /// Demo video + demo encoder + demo codebook; when the demo codebook file is missing, a
    /// codebook sampled from the demo video's own features (announced by notice()).
    void loadDemo();
    /// In-memory inputs (tests, embedding): replaces the video / codebook and re-assigns.
    void setVideo(VideoData video);
    void setCodebook(std::shared_ptr<const once::Codebook> codebook);
    /// Measures compression time over budgets 1…K (ONCE) or 1…N (a peer) for the current video
    /// and method (sweepChanged).
    void runBudgetSweep();

    // ---- compression ----
    void setBudget(std::int64_t budget);
    void setVariant(once::Variant variant);
    std::int64_t budget() const { return options_.budget; }
    once::Variant variant() const { return options_.variant; }
    /// The compression method by registry name: "once" (the default) or a peer baseline. An
    /// unknown name is an error (errorOccurred) and changes nothing.
    void setMethod(const QString& method);
    QString method() const { return method_; }
    /// The largest budget of the current method: K for ONCE (0 without a codebook), N for a
    /// peer (0 without a video).
    std::int64_t maxBudget() const;
    /// Whether `method` can compress the current video without a new preparation (ONCE: the
    /// assignment is cached; a peer: prepared for this video).
    bool isPrepared(const QString& method) const;
    /// Preparations delivered so far: ONCE assignments and peer prepare() runs (tests check
    /// that switching methods re-uses them).
    int preparationCount() const { return preparations_; }

    void setPipelineSettings(const PipelineSettings& settings);
    const PipelineSettings& pipelineSettings() const { return settings_; }

    // ---- state (GUI thread) ----
    const VideoData& video() const { return video_; }
    std::shared_ptr<const once::Codebook> codebook() const { return codebook_; }
    std::shared_ptr<const once::Assignment> assignment() const { return assignment_; }
    std::shared_ptr<const once::CompressionResult> result() const { return result_; }
    const std::optional<ModelFolder>& model() const { return model_; }
    const std::optional<BudgetSweep>& sweep() const { return sweep_; }
    /// Tokens the LLM would get: M compressed plus the backbone's layout tokens (0 without a
    /// result).
    std::int64_t llmVisualTokens() const;
    /// The codebook's file when it came from one ("" for an in-memory codebook).
    QString codebookFile() const;
    /// The answering pipeline (shared by the question panel and the sweep), the key of the
    /// current model and settings (empty model: none), and the inputs it answers about: the
    /// video and codebook on screen, handed over without decoding or loading them again.
    std::shared_ptr<AnswerPipeline> answerPipeline() const { return answerPipeline_; }
    PipelineKey pipelineKey() const;
    PipelineInputs pipelineInputs() const;

    /// The task that runs loads (progress and cancel for the status bar).
    BackgroundTask* loadTask() const { return loadTask_; }
    bool isBusy() const;
    /// Cancels the running load and drops the queued ones.
    void cancel();
    /// Cancels everything and waits for the workers (closing the window).
    void shutdown();

  signals:
    void videoChanged();
    void codebookChanged();
    void assignmentChanged();
    void resultChanged();
    /// The method changed (the result is cleared until the new method's arrives).
    void methodChanged();
    void modelChanged();
    void sweepChanged();
    void busyChanged(bool busy);
    /// A failed load: `title` says what was being done, `message` is the complete error.
    void errorOccurred(const QString& title, const QString& message);
    /// Something the user should know that is not an error (fallback codebook, unloaded
    /// codebook after a dimension change).
    void notice(const QString& message);

  private:
    using Work = std::function<std::function<void()>(once::Progress&)>;
    // Loads run one at a time, in request order; each captures the state it works from only
    // when it starts (a codebook queued behind a video is checked against that video).
    void enqueue(std::function<void()> start);
    void drainQueue();
    void runLoad(const QString& title, const QString& errorTitle, Work work);
    void startVideo(const QString& path);
    void startFeatureFile(const QString& path);
    void startCodebook(const QString& path);
    void startModelFolder(const QString& path);
    void startDemo();
    void installVideo(VideoData video, const AssignOutcome& outcome);
    void installAssignment(std::shared_ptr<const once::Assignment> assignment,
                           std::shared_ptr<const once::CompressionResult> result);
    void startAssignment();
    void recompress();
    void updateBusy();
    // A peer prepared for the current video; compress() is not re-entrant, so the slider's
    // worker and the sweep's worker take turns through the mutex.
    struct PreparedPeer {
        std::unique_ptr<once::TokenCompressor> compressor;
        std::mutex mutex;
        double prepareMs = 0;
    };
    /// Forgets the peers prepared for the previous video (a new video was installed).
    void resetPeers();
    void startPreparation(const QString& method);

    PipelineSettings settings_;
    VideoData video_;
    std::shared_ptr<const once::Codebook> codebook_;
    std::shared_ptr<const once::Assignment> assignment_;
    std::shared_ptr<const once::CompressionResult> result_;
    std::optional<ModelFolder> model_;
    std::optional<BudgetSweep> sweep_;
    std::shared_ptr<AnswerPipeline> answerPipeline_ = std::make_shared<AnswerPipeline>();
    once::CompressOptions options_;
    QString method_ = methods::preferred();
    std::map<QString, std::shared_ptr<PreparedPeer>> peers_;
    std::set<QString> preparing_;  // queued or running preparations
    QString runningPreparation_;
    int preparations_ = 0;
    // Bumped whenever the video changes: a preparation started before is stale.
    std::uint64_t videoGeneration_ = 0;
    // Bumped whenever the assignment changes: a compression started before is stale.
    std::uint64_t generation_ = 0;
    bool compressPending_ = false;
    // The encoder survives between loads: a real backbone loads its weights once.
    std::shared_ptr<once::VisualEncoder> encoder_;
    PipelineSettings encoderSettings_;
    QString encoderModelDir_;

    BackgroundTask* loadTask_;
    BackgroundTask* compressTask_;
    BackgroundTask* sweepTask_;
    QString loadErrorTitle_;
    std::vector<std::function<void()>> queue_;
    bool busy_ = false;
};

}  // namespace once::studio
