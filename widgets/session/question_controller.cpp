#include "session/question_controller.h"

#include <QCoreApplication>

#include "compress/compression.h"
#include "pipeline/answer_session.h"
#include "serve/remote_client.h"
#include "session/answer_pipeline.h"
#include "session/methods.h"
#include "session/remote_connection.h"
#include "session/studio_session.h"
#include "tasks/background_task.h"
#include "util/error.h"

namespace once::studio {

QuestionController::QuestionController(StudioSession& session, QObject* parent)
    : QObject(parent), session_(session), task_(new BackgroundTask(this)) {}

QuestionController::~QuestionController() {
    shutdown();
}

void QuestionController::shutdown() {
    task_->cancelAndWait();
}

bool QuestionController::isRemote() const {
    return session_.remote()->isConnected();
}

bool QuestionController::canAsk() const {
    const VideoData& v = session_.video();
    if (isRemote()) {
        return !v.isEmpty() && !v.fromFeatureFile;  // the server gets the video file
    }
    return session_.model().has_value() && !v.isEmpty();
}

QuestionController::Plan QuestionController::plan(bool compare) const {
    Plan p;
    p.method = session_.method();
    p.budget = session_.budget();
    // A method that needs a codebook answers only with one; without, Dense alone. A server
    // answers with its own codebook (or says it has none).
    p.compressed =
        isRemote() || !methods::needsCodebook(p.method) || session_.codebook() != nullptr;
    if (isRemote()) {
        p.machine = session_.remote()->machine();
    }
    p.dense = compare || !p.compressed;
    return p;
}

bool QuestionController::ask(const QString& question, int maxTokens, bool compare) {
    if (!canAsk() || question.isEmpty() || task_->isRunning()) {
        return false;
    }
    const Plan plan = this->plan(compare);
    const std::string text = question.toStdString();
    // The status bar shows the question panel's word for it (its translation context).
    const QString title = QCoreApplication::translate("once::studio::QuestionPanel", "Answering");
    // The two columns' options, here or on a server: Dense, and the budget panel's method (ONCE
    // with its variant and the studio's or the server's codebook, or a peer) at its budget.
    once::AskOptions dense;
    dense.maxNewTokens = maxTokens;
    dense.onText = streamTo(kDense);
    once::AskOptions compressed = dense;
    compressed.budget = plan.budget;
    compressed.method = plan.method.toStdString();
    compressed.params = methods::params(plan.method, session_.variant());
    compressed.onText = streamTo(kCompressed);
    emit asked(plan);
    if (isRemote()) {
        task_->start(title, remoteWork(plan, text, dense, compressed));
        return true;
    }
    const PipelineKey key = session_.pipelineKey();
    const PipelineInputs inputs = session_.pipelineInputs();
    auto pipeline = session_.answerPipeline();
    task_->start(title, [=, this](once::Progress& progress) -> BackgroundTask::Deliver {
        auto lease = pipeline->acquire(key, inputs, &progress);
        auto outcome = std::make_shared<Outcome>();
        outcome->plan = plan;
        if (plan.dense) {
            outcome->dense = std::make_shared<const once::AskReport>(
                lease.session().ask(text, dense, &progress));
        }
        // The compressed column may fail where Dense did not (a codebook for another
        // backbone): keep the Dense answer and say why the other column is empty.
        if (plan.compressed) {
            try {
                outcome->compressed = std::make_shared<const once::AskReport>(
                    lease.session().ask(text, compressed, &progress));
            } catch (const once::OnceError& e) {
                outcome->compressedError = QString::fromStdString(e.what());
                outcome->backboneMismatch = e.where().field == "backbone";
            }
        }
        return [this, outcome] { emit answered(*outcome); };
    });
    return true;
}

std::function<void(const std::string&)> QuestionController::streamTo(int column) {
    return [this, column](const std::string& piece) {
        const QString s = QString::fromStdString(piece);
        QMetaObject::invokeMethod(
            this, [this, column, s] { emit textArrived(column, s); }, Qt::QueuedConnection);
    };
}

BackgroundTask::Work QuestionController::remoteWork(const Plan& plan, const std::string& question,
                                                    const once::AskOptions& dense,
                                                    const once::AskOptions& compressed) {
    const once::serve::RemoteEndpoint endpoint = session_.remote()->endpoint();
    const VideoData& video = session_.video();
    const std::string path = video.path.toStdString();
    const std::int64_t videoTokens = video.numTokens();
    const once::Variant variant = session_.variant();
    const std::string sampling = RemoteConnection::samplingFor(session_.pipelineSettings());
    return [=, this](once::Progress& progress) -> BackgroundTask::Deliver {
        auto outcome = std::make_shared<Outcome>();
        outcome->plan = plan;
        // A cancel closes the connection, which cancels the server's work.
        auto ask = [&](const once::AskOptions& a) {
            return once::serve::askRemote(endpoint, path, question, a, sampling, progress.token());
        };
        if (plan.dense) {
            outcome->dense = std::make_shared<const once::AskReport>(ask(dense).report);
        }
        std::shared_ptr<const once::CompressionResult> groups;
        if (plan.compressed) {
            // A server that refuses the method (no codebook there, say) fails this column only;
            // a lost connection, a refused key or a full queue (429) fail the question.
            try {
                outcome->compressed =
                    std::make_shared<const once::AskReport>(ask(compressed).report);
                if (static_cast<std::int64_t>(outcome->compressed->groupOfToken.size()) ==
                    videoTokens) {
                    auto kept = once::serve::keptGroups(*outcome->compressed);
                    kept->variant = variant;
                    groups = std::move(kept);
                } else {
                    outcome->groupsNotShown = true;
                }
            } catch (const once::OnceError& e) {
                // Refusals of the request's `once` fields only (once.method, once.budget, …).
                if (e.where().field.rfind("once.", 0) != 0) {
                    throw;
                }
                outcome->compressedError = QString::fromStdString(e.what());
            }
        }
        return [this, outcome, groups, plan] {
            if (groups) {
                session_.installResult(groups, plan.machine);
            }
            emit answered(*outcome);
        };
    };
}

}  // namespace once::studio
