#pragma once
// Where a question is answered, for every view that asks one (the question panel's controller,
// the A/B view): taken from the session on the GUI thread, used on a worker. On this machine it is
// the session's AnswerPipeline (its model, the video on screen, its codebook and prepared
// compressors: nothing encoded or prepared again); while the session's RemoteConnection is
// connected, the server (the video file sent). One place, so the views ask the same way and the
// A/B view's answers are the question panel's for the same method and budget.
#include <QString>
#include <memory>
#include <string>
#include <vector>

#include "pipeline/answer_session.h"
#include "serve/remote_client.h"
#include "session/answer_pipeline.h"

namespace once::studio {

class StudioSession;

/// One answer asked of a target: its options, and whether its failure leaves the other answers
/// standing (a compressed column may fail where Dense did not).
struct AnswerRequest {
    once::AskOptions options;
    bool mayFail = false;
};

/// What one request gave: its report, or (a request that may fail) why it failed.
struct AnswerResult {
    std::shared_ptr<const once::AskReport> report;
    QString error;
    bool backboneMismatch = false;  ///< the codebook is for another backbone (this machine)
};

class AnswerTarget {
  public:
    /// The session's target now (GUI thread).
    explicit AnswerTarget(const StudioSession& session);

    /// Whether the session can answer now: a model folder (its language model) and a video
    /// are loaded, or, while connected to a server, a video opened from its file (the server
    /// gets the file, not features).
    static bool available(const StudioSession& session);
    /// Why the session cannot answer now, as the views say it ("" when it can): what to open or
    /// load, and where a model folder comes from. One text for the question panel and the A/B
    /// view.
    static QString unavailableReason(const StudioSession& session);

    bool isRemote() const { return remote_; }
    /// Asks `question` with each request in turn (worker thread), holding the pipeline for all
    /// of them. A request that may not fail throws, as does any failure of the model, the video,
    /// the connection or the server's queue; one that may fails alone: on this machine any
    /// OnceError of its own, on a server a refusal of the request's `once` fields (no codebook
    /// there, say). Cancelled through `progress`.
    std::vector<AnswerResult> ask(const std::string& question,
                                  const std::vector<AnswerRequest>& requests,
                                  once::Progress& progress) const;

  private:
    bool remote_ = false;
    // This machine.
    std::shared_ptr<AnswerPipeline> pipeline_;
    PipelineKey key_;
    PipelineInputs inputs_;
    // A server.
    once::serve::RemoteEndpoint endpoint_;
    std::string videoPath_, sampling_;
};

}  // namespace once::studio
