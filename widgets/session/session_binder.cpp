#include "session/session_binder.h"

#include "budget/budget_panel.h"
#include "overlay/group_overlay.h"
#include "session/methods.h"
#include "session/studio_session.h"

namespace once::studio {

SessionBinder::SessionBinder(StudioSession* session, GroupOverlay* overlay, BudgetPanel* budget,
                             QObject* parent)
    : QObject(parent), session_(session), overlay_(overlay), budget_(budget) {
    connect(session_, &StudioSession::videoChanged, this, &SessionBinder::onVideo);
    connect(session_, &StudioSession::codebookChanged, this, &SessionBinder::onCodebook);
    connect(session_, &StudioSession::resultChanged, this, &SessionBinder::onResult);
    connect(session_, &StudioSession::methodChanged, this, &SessionBinder::onInputs);
    connect(budget_, &BudgetPanel::budgetChanged, session_, &StudioSession::setBudget);
    connect(budget_, &BudgetPanel::variantChanged, session_, &StudioSession::setVariant);
    connect(budget_, &BudgetPanel::methodChanged, session_, &StudioSession::setMethod);
    budget_->setVariant(session_->variant());
    budget_->setBudget(session_->budget());
    onVideo();
    onCodebook();
}

void SessionBinder::onVideo() {
    overlay_->setVideo(session_->video());
    onInputs();
}

void SessionBinder::onCodebook() {
    onInputs();
}

void SessionBinder::onInputs() {
    budget_->setMethod(session_->method());
    budget_->setInputs(!session_->video().isEmpty(), session_->codebook() != nullptr);
    budget_->setMaximumBudget(session_->maxBudget());
    budget_->setBudget(session_->budget());
    onResult();
}

void SessionBinder::onResult() {
    const auto result = session_->result();
    // The assignment names the nearest codeword of ONCE's dropped tokens; peers have none.
    const bool codebookMethod = methods::needsCodebook(session_->method());
    overlay_->setResult(result, codebookMethod ? session_->assignment() : nullptr);
    const bool needsCodebook = codebookMethod && !session_->codebook();
    overlay_->setEmptyText(
        result || needsCodebook || session_->video().isEmpty()
            ? QString()
            : tr("computing the %1 groups…").arg(methods::title(session_->method())));
    budget_->showResult(result.get(), session_->llmVisualTokens());
    if (result) {
        budget_->setBudget(session_->budget());
    }
}

}  // namespace once::studio
