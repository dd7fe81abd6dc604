#include "session/session_binder.h"

#include "budget/budget_panel.h"
#include "codebook/codebook.h"
#include "overlay/group_overlay.h"
#include "session/studio_session.h"

namespace once::studio {

SessionBinder::SessionBinder(StudioSession* session, GroupOverlay* overlay, BudgetPanel* budget,
                             QObject* parent)
    : QObject(parent), session_(session), overlay_(overlay), budget_(budget) {
    connect(session_, &StudioSession::videoChanged, this, &SessionBinder::onVideo);
    connect(session_, &StudioSession::codebookChanged, this, &SessionBinder::onCodebook);
    connect(session_, &StudioSession::resultChanged, this, &SessionBinder::onResult);
    connect(budget_, &BudgetPanel::budgetChanged, session_, &StudioSession::setBudget);
    connect(budget_, &BudgetPanel::variantChanged, session_, &StudioSession::setVariant);
    budget_->setVariant(session_->variant());
    budget_->setBudget(session_->budget());
    onVideo();
    onCodebook();
}

void SessionBinder::onVideo() {
    overlay_->setVideo(session_->video());
    onResult();
}

void SessionBinder::onCodebook() {
    const auto codebook = session_->codebook();
    budget_->setCodebookSize(codebook ? codebook->size() : 0);
    budget_->setBudget(session_->budget());
}

void SessionBinder::onResult() {
    const auto result = session_->result();
    overlay_->setResult(result, session_->assignment());
    budget_->showResult(result.get(), session_->llmVisualTokens());
    if (result) {
        budget_->setBudget(session_->budget());
    }
}

}  // namespace once::studio
