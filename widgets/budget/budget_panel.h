#pragma once
// Budget B (log-scale slider 1…K with an exact spin box) and the ONCE variant, plus what the
// current compression gives: M output groups, coverage, and the visual tokens that would enter
// the LLM. Emits changes only; the session re-compresses from the cached assignment.
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

    /// K of the loaded codebook (0: none, the panel is disabled).
    void setCodebookSize(std::int64_t k);
    std::int64_t codebookSize() const { return scale_.maximum; }
    /// Sets the controls without emitting budgetChanged.
    void setBudget(std::int64_t budget);
    std::int64_t budget() const { return budget_; }
    void setVariant(once::Variant variant);
    once::Variant variant() const;

    /// Shows what a compression gave (null: nothing yet). `llmTokens` counts the layout tokens
    /// the backbone adds; `denseTokens` is N.
    void showResult(const once::CompressionResult* result, std::int64_t llmTokens);

    /// The slider, for tests and keyboard focus.
    QSlider* slider() const { return slider_; }
    QSpinBox* spinBox() const { return spin_; }
    QComboBox* variantBox() const { return variantBox_; }
    /// The text of the read-out labels, for tests: "M", "coverage", "llm", "time".
    QString readout(const QString& key) const;

    /// Display name of a variant (translated).
    static QString variantTitle(once::Variant variant);

  signals:
    void budgetChanged(std::int64_t budget);
    void variantChanged(once::Variant variant);

  private:
    void applyBudget(std::int64_t budget, bool fromSlider);

    LogScale scale_;
    std::int64_t budget_ = 512;
    bool updating_ = false;
    QSlider* slider_;
    QSpinBox* spin_;
    QComboBox* variantBox_;
    QLabel* groups_;
    QLabel* coverage_;
    QLabel* llmTokens_;
    QLabel* ratio_;
    QLabel* time_;
};

}  // namespace once::studio
