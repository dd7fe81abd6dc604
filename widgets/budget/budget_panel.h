#pragma once
// The compression method (ONCE first, then the peer baselines of the registry), budget B
// (log-scale slider up to K for ONCE, N for a peer, starting at the method's smallest useful
// budget, with an exact spin box and a line saying what the method does with B) and ONCE's
// variant, plus what the current compression gives: M output groups, coverage, and the visual
// tokens that would enter the LLM — greyed and marked while they are for another budget than the
// one selected. Emits changes only; the session re-compresses from its prepared state.
#include <QString>
#include <QWidget>
#include <cstdint>

#include "budget/log_scale.h"
#include "compress/compression.h"

class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace once::studio {

class BudgetPanel : public QWidget {
    Q_OBJECT
  public:
    explicit BudgetPanel(QWidget* parent = nullptr);

    /// The largest budget: K of the loaded codebook for ONCE, N for a peer (0: none, the budget
    /// controls are disabled; the method selector stays usable). The smallest is 1.
    void setMaximumBudget(std::int64_t maximum);
    /// The method's budgets: the controls go from `minimum` (the smallest budget that gives a
    /// token) to `maximum`; `rule` says what the method does with B and where it stops
    /// changing the output (methods::budgetRule), shown under the slider.
    void setBudgetRange(std::int64_t minimum, std::int64_t maximum, const QString& rule);
    std::int64_t minimumBudget() const { return minimum_; }
    /// The line under the slider on the method's budgets ("" when none).
    QString rangeNote() const;
    /// The same as setMaximumBudget (ONCE's maximum is K).
    void setCodebookSize(std::int64_t k) { setMaximumBudget(k); }
    std::int64_t codebookSize() const { return scale_.maximum; }
    /// Sets the method selector without emitting methodChanged ("once" or a registry name).
    void setMethod(const QString& method);
    QString method() const;
    /// What is loaded, for the notice under the selector (ONCE without a codebook says that it
    /// needs one).
    void setInputs(bool hasVideo, bool hasCodebook);
    /// The notice shown under the method selector ("" when none).
    QString notice() const;
    /// The note under the budget row after a typed budget was clamped ("" when none).
    QString budgetNote() const;
    /// Sets the controls without emitting budgetChanged.
    void setBudget(std::int64_t budget);
    std::int64_t budget() const { return budget_; }
    void setVariant(once::Variant variant);
    once::Variant variant() const;

    /// Shows what a compression gave (null: nothing yet). `llmTokens` counts the layout tokens
    /// the backbone adds; `denseTokens` is N.
    /// `machine`: the server that computed it ("host:port"); "" for this machine.
    void showResult(const once::CompressionResult* result, std::int64_t llmTokens,
                    const QString& machine = {});
    /// The compression time as shown (with the machine that measured it), for tests.
    QString timeText() const;
    /// Which encoder the video's features came from (and, when it differs, the model folder's),
    /// shown as "Features:" ("" hides nothing: the row shows "—").
    void setFeatureSource(const QString& text);
    /// Whether a compression for the selected settings is running (the read-outs say
    /// "updating…" while they are for another budget or variant).
    void setComputing(bool computing);
    /// The read-outs are for another budget or variant than the one selected (greyed).
    bool isStale() const { return stale_; }
    /// The line that says so ("" when the read-outs are current).
    QString staleNote() const;

    /// The slider, for tests and keyboard focus.
    QSlider* slider() const { return slider_; }
    QSpinBox* spinBox() const { return spin_; }
    QComboBox* variantBox() const { return variantBox_; }
    QComboBox* methodBox() const { return methodBox_; }
    /// The text of the read-out labels, for tests: "M", "coverage", "llm", "time",
    /// "features".
    QString readout(const QString& key) const;

    /// Display name of a variant (translated).
    static QString variantTitle(once::Variant variant);
    /// What a variant does, for its tooltip (translated).
    static QString variantDescription(once::Variant variant);

  signals:
    void budgetChanged(std::int64_t budget);
    void variantChanged(once::Variant variant);
    void methodChanged(const QString& method);

  private:
    void applyBudget(std::int64_t budget, bool fromSlider);
    void updateControls();
    void updateStale();
    /// The slider position of the smallest budget (its value is at least minimum_).
    int minimumPosition() const;

    LogScale scale_;
    std::int64_t minimum_ = 1;
    QString rule_;
    // What the read-outs show: the budget and variant of the result (shownBudget_ 0: none).
    std::int64_t shownBudget_ = 0;
    once::Variant shownVariant_ = once::Variant::Full;
    bool computing_ = false, stale_ = false;
    std::int64_t budget_ = 512;
    bool updating_ = false;
    bool hasVideo_ = false, hasCodebook_ = false, budgetUsable_ = false;
    QComboBox* methodBox_;
    QLabel* notice_;
    QSlider* slider_;
    QSpinBox* spin_;
    QLabel* budgetNote_;
    QLabel* rangeNote_;
    QComboBox* variantBox_;
    QLabel* staleNote_;
    QLabel* groups_;
    QLabel* coverage_;
    QLabel* llmTokens_;
    QLabel* ratio_;
    QLabel* time_;
    QLabel* features_;
};

}  // namespace once::studio
