#include "session/answer_target.h"

#include <QCoreApplication>

#include "session/model_folder.h"
#include "session/remote_connection.h"
#include "session/studio_session.h"
#include "util/error.h"

namespace once::studio {

AnswerTarget::AnswerTarget(const StudioSession& session)
    : remote_(session.remote()->isConnected()) {
    if (remote_) {
        endpoint_ = session.remote()->endpoint();
        videoPath_ = session.video().path.toStdString();
        sampling_ = RemoteConnection::samplingFor(session.pipelineSettings());
    } else {
        pipeline_ = session.answerPipeline();
        key_ = session.pipelineKey();
        inputs_ = session.pipelineInputs();
    }
}

bool AnswerTarget::available(const StudioSession& session) {
    const VideoData& v = session.video();
    if (session.remote()->isConnected()) {
        return !v.isEmpty() && !v.fromFeatureFile;
    }
    return session.model().has_value() && !v.isEmpty();
}

// A plain class has no meta-object to name the translation context: it is written out (lupdate
// reads only a literal context).
QString AnswerTarget::unavailableReason(const StudioSession& session) {
    if (session.remote()->isConnected()) {
        const VideoData& v = session.video();
        if (v.isEmpty()) {
            return QCoreApplication::translate("once::studio::AnswerTarget",
                                               "Connected to %1: open a video to ask about it.")
                .arg(session.remote()->machine());
        }
        if (v.fromFeatureFile) {
            return QCoreApplication::translate(
                "once::studio::AnswerTarget",
                "The server answers about a video file: open the video itself, not its "
                "feature file.");
        }
        return {};
    }
    if (!session.model()) {
        // The demo encoder is named only once its features are open (issue 30: the first-start
        // hint spoke of it before anything was loaded).
        const VideoData& v = session.video();
        const QString why =
            QCoreApplication::translate(
                "once::studio::AnswerTarget",
                "Answering needs a model folder (File ▸ Open Model Folder…): a Hugging Face "
                "checkpoint as downloaded, such as %1.")
                .arg(QString::fromStdString(ModelFolder::hubExamples()));
        if (!v.isEmpty() && v.backbone == "demo") {
            return why + QLatin1Char(' ') +
                   QCoreApplication::translate(
                       "once::studio::AnswerTarget",
                       "The demo encoder has no language model, so it cannot answer; the "
                       "overlay, the budget slider and the charts work without one.");
        }
        return why + QLatin1Char(' ') +
               QCoreApplication::translate(
                   "once::studio::AnswerTarget",
                   "The overlay, the budget slider and the charts work without one.");
    }
    if (session.video().isEmpty()) {
        return QCoreApplication::translate("once::studio::AnswerTarget",
                                           "Open a video to ask about it.");
    }
    return {};
}

std::vector<AnswerResult> AnswerTarget::ask(const std::string& question,
                                            const std::vector<AnswerRequest>& requests,
                                            once::Progress& progress) const {
    std::vector<AnswerResult> results(requests.size());
    if (remote_) {
        for (std::size_t i = 0; i < requests.size(); ++i) {
            // A cancel closes the connection, which cancels the server's work. A lost
            // connection, a refused key or a full queue (429) fail every request.
            try {
                results[i].report = std::make_shared<const once::AskReport>(
                    once::serve::askRemote(endpoint_, videoPath_, question, requests[i].options,
                                           sampling_, progress.token())
                        .report);
            } catch (const once::OnceError& e) {
                if (!requests[i].mayFail || e.where().field.rfind("once.", 0) != 0) {
                    throw;
                }
                results[i].error = QString::fromStdString(e.what());
            }
        }
        return results;
    }
    auto lease = pipeline_->acquire(key_, inputs_, &progress);
    for (std::size_t i = 0; i < requests.size(); ++i) {
        try {
            results[i].report = std::make_shared<const once::AskReport>(
                lease.session().ask(question, requests[i].options, &progress));
        } catch (const once::OnceError& e) {
            if (!requests[i].mayFail) {
                throw;
            }
            results[i].error = QString::fromStdString(e.what());
            results[i].backboneMismatch = e.where().field == "backbone";
        }
    }
    return results;
}

}  // namespace once::studio
