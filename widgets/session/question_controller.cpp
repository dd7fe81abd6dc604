#include "session/question_controller.h"

#include <QCoreApplication>

#include "pipeline/answer_session.h"
#include "session/answer_pipeline.h"
#include "session/methods.h"
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

bool QuestionController::canAsk() const {
    return session_.model().has_value() && !session_.video().isEmpty();
}

QuestionController::Plan QuestionController::plan(bool compare) const {
    Plan p;
    p.method = session_.method();
    p.budget = session_.budget();
    // A method that needs a codebook answers only with one; without, Dense alone.
    p.compressed = !methods::needsCodebook(p.method) || session_.codebook() != nullptr;
    p.dense = compare || !p.compressed;
    return p;
}

bool QuestionController::ask(const QString& question, int maxTokens, bool compare) {
    if (!canAsk() || question.isEmpty() || task_->isRunning()) {
        return false;
    }
    const Plan plan = this->plan(compare);
    const PipelineKey key = session_.pipelineKey();
    const PipelineInputs inputs = session_.pipelineInputs();
    auto pipeline = session_.answerPipeline();
    // ONCE with its variant and the studio's codebook (in memory or from a file), or a peer.
    const once::CompressorParams params = methods::params(plan.method, session_.variant());
    const std::string text = question.toStdString();
    // Streamed pieces arrive on the worker; queue them to this (GUI) thread.
    auto streamTo = [this](int column) {
        return [this, column](const std::string& piece) {
            const QString s = QString::fromStdString(piece);
            QMetaObject::invokeMethod(
                this, [this, column, s] { emit textArrived(column, s); }, Qt::QueuedConnection);
        };
    };
    auto denseStream = streamTo(kDense);
    auto compressedStream = streamTo(kCompressed);
    emit asked(plan);
    // The status bar shows the question panel's word for it (its translation context).
    const QString title = QCoreApplication::translate("once::studio::QuestionPanel", "Answering");
    task_->start(title, [=, this](once::Progress& progress) -> BackgroundTask::Deliver {
        auto lease = pipeline->acquire(key, inputs, &progress);
        auto outcome = std::make_shared<Outcome>();
        outcome->plan = plan;
        if (plan.dense) {
            once::AskOptions a;
            a.maxNewTokens = maxTokens;
            a.onText = denseStream;
            outcome->dense =
                std::make_shared<const once::AskReport>(lease.session().ask(text, a, &progress));
        }
        // The compressed column may fail where Dense did not (a codebook for another
        // backbone): keep the Dense answer and say why the other column is empty.
        if (plan.compressed) {
            once::AskOptions a;
            a.budget = plan.budget;
            a.method = plan.method.toStdString();
            a.params = params;
            a.maxNewTokens = maxTokens;
            a.onText = compressedStream;
            try {
                outcome->compressed = std::make_shared<const once::AskReport>(
                    lease.session().ask(text, a, &progress));
            } catch (const once::OnceError& e) {
                outcome->compressedError = QString::fromStdString(e.what());
                outcome->backboneMismatch = e.where().field == "backbone";
            }
        }
        return [this, outcome] { emit answered(*outcome); };
    });
    return true;
}

}  // namespace once::studio
