#include "session/question_controller.h"

#include <QCoreApplication>

#include "compress/compression.h"
#include "pipeline/answer_session.h"
#include "serve/remote_client.h"
#include "session/answer_target.h"
#include "session/methods.h"
#include "session/remote_connection.h"
#include "session/studio_session.h"
#include "tasks/background_task.h"

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
    return AnswerTarget::available(session_);
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
    std::vector<AnswerRequest> requests;
    if (plan.dense) {
        requests.push_back({dense, false});
    }
    // The compressed column may fail where Dense did not (a codebook for another backbone, a
    // server without a codebook): Dense's answer is kept and the panel says why.
    if (plan.compressed) {
        requests.push_back({compressed, true});
    }
    const AnswerTarget target(session_);
    const std::int64_t videoTokens = session_.video().numTokens();
    const once::Variant variant = session_.variant();
    task_->start(title, [=, this](once::Progress& progress) -> BackgroundTask::Deliver {
        std::vector<AnswerResult> results = target.ask(text, requests, progress);
        auto outcome = std::make_shared<Outcome>();
        outcome->plan = plan;
        if (plan.dense) {
            outcome->dense = results.front().report;
        }
        std::shared_ptr<const once::CompressionResult> groups;
        if (plan.compressed) {
            const AnswerResult& r = results.back();
            outcome->compressed = r.report;
            outcome->compressedError = r.error;
            outcome->backboneMismatch = r.backboneMismatch;
            // A server's kept groups are installed as the session's result, so the overlay
            // draws what the server kept (where its token grid is the video's on screen).
            if (target.isRemote() && r.report) {
                if (static_cast<std::int64_t>(r.report->groupOfToken.size()) == videoTokens) {
                    auto kept = once::serve::keptGroups(*r.report);
                    kept->variant = variant;
                    groups = std::move(kept);
                } else {
                    outcome->groupsNotShown = true;
                }
            }
        }
        return [this, outcome, groups, plan] {
            if (groups) {
                session_.installResult(groups, plan.machine);
            }
            emit answered(*outcome);
        };
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

}  // namespace once::studio
