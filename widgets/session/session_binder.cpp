#include "session/session_binder.h"

#include "budget/budget_panel.h"
#include "codebook/codebook.h"
#include "models/backbone.h"
#include "overlay/group_overlay.h"
#include "session/methods.h"
#include "session/studio_session.h"
#include "util/error.h"

namespace once::studio {

SessionBinder::SessionBinder(StudioSession* session, GroupOverlay* overlay, BudgetPanel* budget,
                             QObject* parent)
    : QObject(parent), session_(session), overlay_(overlay), budget_(budget) {
    connect(session_, &StudioSession::videoChanged, this, &SessionBinder::onVideo);
    connect(session_, &StudioSession::codebookChanged, this, &SessionBinder::onCodebook);
    connect(session_, &StudioSession::resultChanged, this, &SessionBinder::onResult);
    connect(session_, &StudioSession::methodChanged, this, &SessionBinder::onInputs);
    connect(session_, &StudioSession::optionsChanged, this, &SessionBinder::onOptions);
    connect(session_, &StudioSession::busyChanged, this, &SessionBinder::onWork);
    connect(session_, &StudioSession::compressingChanged, this, &SessionBinder::onWork);
    connect(budget_, &BudgetPanel::budgetChanged, session_, &StudioSession::setBudget);
    connect(budget_, &BudgetPanel::variantChanged, session_, &StudioSession::setVariant);
    connect(budget_, &BudgetPanel::methodChanged, session_, &StudioSession::setMethod);
    connect(session_, &StudioSession::modelChanged, this, &SessionBinder::onFeatureSource);
    budget_->setVariant(session_->variant());
    budget_->setBudget(session_->budget());
    onVideo();
    onCodebook();
}

QString SessionBinder::encoderTitle(const QString& backbone) {
    try {
        return QString::fromStdString(once::backboneInfo(backbone.toStdString()).title);
    } catch (const once::OnceError&) {
        return backbone;  // an encoder without a language backbone (the demo's)
    }
}

void SessionBinder::onVideo() {
    overlay_->setVideo(session_->video());
    onFeatureSource();
    onInputs();
}

void SessionBinder::onFeatureSource() {
    const VideoData& v = session_->video();
    if (v.isEmpty()) {
        budget_->setFeatureSource({});
        return;
    }
    const QString features = QString::fromStdString(v.backbone);
    QString text = v.fromFeatureFile ? tr("%1 encoder (from a feature file)")
                                     : tr("%1 encoder").arg(encoderTitle(features));
    if (v.fromFeatureFile) {
        text = text.arg(encoderTitle(features));
    }
    const auto& model = session_->model();
    if (model && !model->backbone.isEmpty() && model->backbone != features) {
        text = tr("%1; the model folder's encoder is %2 (not re-encoded)")
                   .arg(text, encoderTitle(model->backbone));
    }
    budget_->setFeatureSource(text);
}

void SessionBinder::onCodebook() {
    onInputs();
}

void SessionBinder::onInputs() {
    budget_->setMethod(session_->method());
    budget_->setInputs(!session_->video().isEmpty(), session_->codebook() != nullptr);
    // The slider starts at the method's smallest useful budget and the panel says what the
    // method does with B (issue 16: peers below their minimum gave 0 tokens silently).
    const auto codebook = session_->codebook();
    const once::BudgetShape shape =
        methods::budgetShape(session_->video(), codebook ? codebook->size() : 0);
    const std::int64_t most = session_->maxBudget();
    budget_->setBudgetRange(most > 0 ? session_->budgetRange().min : 1, most,
                            methods::budgetRule(session_->method(), shape));
    budget_->setBudget(session_->budget());
    onResult();
}

void SessionBinder::onOptions() {
    budget_->setBudget(session_->budget());
    budget_->setVariant(session_->variant());
}

void SessionBinder::onResult() {
    const auto result = session_->result();
    // The assignment names the nearest codeword of ONCE's dropped tokens; peers have none.
    const bool assigns = methods::hasAssignment(session_->method());
    overlay_->setResult(result, assigns ? session_->assignment() : nullptr);
    budget_->showResult(result.get(), session_->llmVisualTokens(), session_->resultMachine());
    if (result) {
        budget_->setBudget(session_->budget());
    }
    onWork();
}

void SessionBinder::onWork() {
    budget_->setComputing(session_->isCompressing());
    const bool needsCodebook = methods::needsCodebook(session_->method()) && !session_->codebook();
    QString text;
    if (!session_->result() && !needsCodebook && !session_->video().isEmpty()) {
        const QString title = methods::title(session_->method());
        // Without work under way nothing more will come: say so instead of "computing" forever.
        text = session_->isBusy()
                   ? tr("computing the %1 groups…").arg(title)
                   : tr("no %1 groups: the computation was cancelled or failed (move the budget "
                        "to try again)")
                         .arg(title);
    }
    overlay_->setEmptyText(text);
}

}  // namespace once::studio
