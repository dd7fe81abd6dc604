#pragma once
// The document of ONCE Studio (the Okular/Kdenlive pattern): one video (features, frames), one
// codebook, the compressors prepared for them (compress/prepared_compressor.h: ONCE with its
// assignment, the peers), the current compression and its settings (method, budget, variant),
// an optional model folder and the last budget sweep. It keeps that state, installs
// what the workers deliver and announces every change by a signal; it runs no work itself.
//
// Two workers do the work, each with its own BackgroundTask, and talk to the document one way:
// they read its state when a job starts and hand their results to its install methods.
//  - VideoLoader (session/video_loader.h): the load queue and the five loaders (video, feature
//    file, codebook, model folder, demo), and the encoder kept between loads.
//  - CompressionController (session/compression_controller.h): budget, variant and method,
//    the compressors prepared once per video (ONCE's assignment is one), coalesced
//    re-compression, and the budget sweep.
// The request methods below forward to them, so the views need only the document.
#include <QObject>
#include <QString>
#include <memory>
#include <optional>

#include "analysis/budget_sweep.h"
#include "compress/assignment.h"
#include "compress/compression.h"
#include "compress/prepared_compressor.h"
#include "compress/token_compressor.h"
#include "io/file_kind.h"
#include "session/answer_pipeline.h"
#include "session/methods.h"
#include "session/model_folder.h"
#include "session/pipeline_settings.h"
#include "session/video_data.h"

namespace once {
class Codebook;
}

namespace once::studio {

class BackgroundTask;
class CompressionController;
class RemoteConnection;
class VideoLoader;

class StudioSession : public QObject {
    Q_OBJECT
  public:
    using FileKind = once::FileKind;
    /// once::classifyPath (io/file_kind.h).
    static FileKind classify(const QString& path);

    explicit StudioSession(QObject* parent = nullptr);
    ~StudioSession() override;

    // ---- loading (VideoLoader; asynchronous, errors arrive as errorOccurred) ----
    void openVideo(const QString& path);
    void openFeatureFile(const QString& path);
    void openCodebook(const QString& path);
    void openModelFolder(const QString& path);
    /// Opens whatever `path` is (see classify); unknown files are an error.
    void openPath(const QString& path);
    /// Demo video + demo encoder + demo codebook; when the demo codebook file is missing, a
    /// codebook sampled from the demo video's own features (announced by notice()).
    void loadDemo();
    /// Encodes the video on screen again with the encoder of the current settings (after a
    /// model folder brought its own, see reencodeOffered); a feature file stays as it is.
    void reencodeVideo();
    /// In-memory inputs (tests, embedding): replaces the video / codebook; the compressors are
    /// prepared for them as after a load.
    void setVideo(VideoData video);
    void setCodebook(std::shared_ptr<const once::Codebook> codebook);

    // ---- compression (CompressionController) ----
    /// Clamped to the method's range (budgetRange()).
    void setBudget(std::int64_t budget);
    void setVariant(once::Variant variant);
    /// The compression method by registry name: "once" (the default) or a peer baseline. An
    /// unknown name is an error (errorOccurred) and changes nothing.
    void setMethod(const QString& method);
    /// Measures compression time over the method's budgets for the current video (sweepChanged;
    /// sweepCancelled when cancelled).
    void runBudgetSweep();
    /// The largest budget of `method` ("": the current one): K for ONCE (0 without a codebook),
    /// N for a peer (0 without a video).
    std::int64_t maxBudget(const QString& method = {}) const;
    /// The valid budgets of `method` ("": the current one) on the current video, from core's
    /// registry (the smallest budget that gives a token, the largest that changes the output).
    once::BudgetRange budgetRange(const QString& method = {}) const;
    /// Whether `method` can compress the current video without a new preparation (a compressor
    /// of it is prepared for this video: ONCE's assignment serves every variant).
    bool isPrepared(const QString& method) const;
    /// Whether a budget sweep of the current method can be measured now: it is prepared here,
    /// or a connected server compresses (and times) it and its budget range here is known.
    bool canMeasureSweep() const;
    /// Preparations delivered so far, ONCE's assignments and the peers' prepare() alike (tests
    /// check that switching methods re-uses them).
    int preparationCount() const { return preparations_; }
    /// The compressor of `method` at the current settings prepared for this video (ONCE at a new
    /// variant adopts the assignment of another), else null.
    std::shared_ptr<once::PreparedCompressor> preparedCompressor(const QString& method);

    void setPipelineSettings(const PipelineSettings& settings);
    const PipelineSettings& pipelineSettings() const { return settings_; }

    // ---- state (GUI thread) ----
    std::int64_t budget() const { return options_.budget; }
    once::Variant variant() const { return options_.variant; }
    const once::CompressOptions& compressOptions() const { return options_; }
    QString method() const { return method_; }
    const VideoData& video() const { return video_; }
    std::shared_ptr<const once::Codebook> codebook() const { return codebook_; }
    /// The codeword assignment of this video to the codebook, from the prepared compressor that
    /// has one (CompressorInfo::hasAssignment: ONCE), whichever method is on screen; else null.
    std::shared_ptr<const once::Assignment> assignment() const { return prepared_.assignment(); }
    std::shared_ptr<const once::CompressionResult> result() const { return result_; }
    /// The server ("host:port") that computed the result on screen; "" for this machine.
    QString resultMachine() const { return resultMachine_; }
    const std::optional<ModelFolder>& model() const { return model_; }
    const std::optional<BudgetSweep>& sweep() const { return sweep_; }
    /// Bumped by every new video: work started for an older one is stale.
    std::uint64_t videoGeneration() const { return videoGeneration_; }
    /// Bumped by every new video or codebook: work for a method that uses the codebook started
    /// before is stale.
    std::uint64_t codebookGeneration() const { return codebookGeneration_; }
    /// What makes work for `method` stale: codebookGeneration() for a method that needs the
    /// codebook, else videoGeneration().
    std::uint64_t generation(const QString& method) const;
    /// Tokens the LLM would get: M compressed plus the backbone's layout tokens (0 without a
    /// result).
    std::int64_t llmVisualTokens() const;
    /// The codebook's file when it came from one ("" for an in-memory codebook).
    QString codebookFile() const;
    /// The answering pipeline (shared by the question panel and the sweep), the key of the
    /// current model and settings (empty model: none), and the inputs it answers about: the
    /// video, codebook and prepared compressors on screen, handed over without decoding,
    /// loading or preparing them again.
    std::shared_ptr<AnswerPipeline> answerPipeline() const { return answerPipeline_; }
    /// The server questions go to while connected (File ▸ Connect to Server…); never null.
    RemoteConnection* remote() const { return remote_; }
    PipelineKey pipelineKey() const;
    PipelineInputs pipelineInputs() const;

    // ---- installs: what the workers deliver (GUI thread); each replaces state and signals ----
    /// A new video (the compressors prepared for the previous one are forgotten); `codebook`,
    /// when given, replaces the codebook with it (the demo), else a non-empty `unloaded` says
    /// why the codebook does not fit the video and is unloaded.
    void installVideo(VideoData video, const QString& unloaded = {},
                      std::shared_ptr<const once::Codebook> codebook = nullptr);
    /// A new codebook (the compressors that used the previous one are forgotten).
    void installCodebook(std::shared_ptr<const once::Codebook> codebook);
    /// A compressor prepared for the current video (assignmentChanged when it brings a new
    /// assignment).
    void installPrepared(std::shared_ptr<once::PreparedCompressor> compressor);
    void installModel(const ModelFolder& model);
    /// Method, budget and variant (a new method clears the result and the sweep).
    void installSettings(const QString& method, const once::CompressOptions& options);
    /// `machine`: the server that computed it ("host:port"), "" for this machine.
    void installResult(std::shared_ptr<const once::CompressionResult> result,
                       const QString& machine = {});
    void installSweep(const BudgetSweep& sweep);
    /// A failure (errorOccurred) or something to know (notice) from a worker.
    void report(const QString& title, const QString& message);
    void inform(const QString& message);
    /// A model folder whose encoder differs from the one the video's features came from was
    /// opened: reencodeOffered.
    void offerReencode(const QString& featuresBackbone, const QString& modelBackbone);

    // ---- workers ----
    VideoLoader* loader() const { return loader_; }
    CompressionController* compression() const { return compression_; }
    /// The workers' tasks, for progress and cancel in the status bar: loads, re-compression
    /// (and peer preparation), the budget sweep.
    BackgroundTask* loadTask() const;
    BackgroundTask* compressTask() const;
    BackgroundTask* sweepTask() const;
    bool isBusy() const;
    /// A re-compression or a peer preparation is running or queued: the result on screen is
    /// not yet the one for the current settings.
    bool isCompressing() const;
    bool isSweeping() const;
    /// Cancels the running load, compression and sweep and drops the queued ones.
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
    /// The budget or the variant changed (the result follows when it is computed).
    void optionsChanged();
    void modelChanged();
    void sweepChanged();
    void busyChanged(bool busy);
    /// A re-compression or peer preparation started or ended (see isCompressing()).
    void compressingChanged(bool compressing);
    /// A budget sweep started or ended.
    void sweepingChanged(bool sweeping);
    /// The running sweep was cancelled: the previous sweep (if any) stays.
    void sweepCancelled();
    /// A failed load: `title` says what was being done, `message` is the complete error.
    void errorOccurred(const QString& title, const QString& message);
    /// Something the user should know that is not an error (fallback codebook, unloaded
    /// codebook after a dimension change).
    void notice(const QString& message);
    /// The opened model folder's encoder (`modelBackbone`) is not the one the video's features
    /// came from: the view may offer reencodeVideo().
    void reencodeOffered(const QString& featuresBackbone, const QString& modelBackbone);

  private:
    void updateBusy();

    PipelineSettings settings_;
    VideoData video_;
    std::shared_ptr<const once::Codebook> codebook_;
    once::PreparedCompressors prepared_;
    std::shared_ptr<const once::CompressionResult> result_;
    QString resultMachine_;
    std::optional<ModelFolder> model_;
    std::optional<BudgetSweep> sweep_;
    std::shared_ptr<AnswerPipeline> answerPipeline_ = std::make_shared<AnswerPipeline>();
    once::CompressOptions options_;
    QString method_ = methods::preferred();
    std::uint64_t videoGeneration_ = 0;
    std::uint64_t codebookGeneration_ = 0;
    int preparations_ = 0;
    bool busy_ = false;
    // Created last in the constructor: they connect to the state's signals (the remote
    // connection first: the compression controller connects to it).
    VideoLoader* loader_ = nullptr;
    CompressionController* compression_ = nullptr;
    RemoteConnection* remote_ = nullptr;
};

}  // namespace once::studio
