#pragma once
// The studio's questions (the work behind the question panel): what a question is asked with —
// the model and settings of the document, the video, codebook and prepared compressors on screen
// (session/answer_target.h, shared with the A/B view), the method and budget of the budget panel —
// and the answering on its own BackgroundTask: Dense and the compressed column one after the other,
// the answer streamed piece by piece. The panel only draws what this reports. While the session's
// RemoteConnection is connected, both columns are asked of the server instead (the video file
// sent, the server's kept groups installed as the session's result so the overlay draws them):
// no model folder is needed here then, only the video.
#include <QObject>
#include <QString>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "tasks/background_task.h"

namespace once {
struct AskOptions;
struct AskReport;
}  // namespace once

namespace once::studio {

class StudioSession;

class QuestionController : public QObject {
    Q_OBJECT
  public:
    enum Column { kDense = 0, kCompressed = 1 };

    /// What a question will be asked with, decided when it is asked.
    struct Plan {
        QString method;           ///< the budget panel's (registry name)
        std::int64_t budget = 0;  ///< the budget panel's
        bool compressed = false;  ///< the method can answer (a codebook when it needs one)
        bool dense = false;       ///< Dense is asked (asked for, or the only column)
        QString machine;          ///< the server's host:port; "" for this machine
    };
    /// How a question ended: the reports of the columns answered (null: not asked or failed)
    /// and why the compressed column failed where Dense did not.
    struct Outcome {
        Plan plan;
        std::shared_ptr<const once::AskReport> dense, compressed;
        QString compressedError;
        bool backboneMismatch = false;  ///< the codebook is for another backbone
        /// The server's kept groups are for another token grid than the video on screen
        /// (another encoder, sampling or pooling here): the overlay could not draw them.
        bool groupsNotShown = false;
    };

    explicit QuestionController(StudioSession& session, QObject* parent = nullptr);
    ~QuestionController() override;

    /// Whether a question can be asked now: a model folder and a video are loaded, or, while
    /// connected to a server, a video opened from its file.
    bool canAsk() const;
    /// Whether questions go to the server now.
    bool isRemote() const;
    /// The plan of a question asked now; `compare`: also answer Dense.
    Plan plan(bool compare) const;
    /// Starts answering `question` (trimmed, non-empty) with at most `maxTokens` new tokens;
    /// false (nothing started) when it cannot be asked or a question is running.
    bool ask(const QString& question, int maxTokens, bool compare);

    BackgroundTask* task() const { return task_; }
    /// Cancels a running question and waits (closing the window).
    void shutdown();

  signals:
    /// A question started with `plan`.
    void asked(const QuestionController::Plan& plan);
    /// A streamed piece of the answer of `column` (GUI thread).
    void textArrived(int column, const QString& piece);
    /// The question ended without failing as a whole (GUI thread).
    void answered(const QuestionController::Outcome& outcome);

  private:
    /// Streams the pieces of `column`, arriving on the worker, to this (GUI) thread.
    std::function<void(const std::string&)> streamTo(int column);

    StudioSession& session_;
    BackgroundTask* task_;
};

}  // namespace once::studio
