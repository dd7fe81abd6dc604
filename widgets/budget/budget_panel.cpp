#include "budget/budget_panel.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSlider>
#include <QSpinBox>
#include <algorithm>
#include <functional>
#include <limits>
#include <optional>

#include "compress/token_compressor.h"
#include "session/methods.h"

namespace once::studio {
namespace {
// A spin box that lets a number beyond its range be typed and clamps it when editing ends,
// telling `onClamped` what was typed. QSpinBox refuses the keystroke that leaves the range, so
// with K = 256 typing 300 silently gave 30 and 1024 gave 102 (issue 16).
class ClampingSpinBox : public QSpinBox {
  public:
    using QSpinBox::QSpinBox;
    std::function<void(qint64 typed, int clampedTo)> onClamped;

    QValidator::State validate(QString& input, int& pos) const override {
        const QValidator::State state = QSpinBox::validate(input, pos);
        if (state == QValidator::Invalid && typedNumber(input).has_value()) {
            return QValidator::Intermediate;  // out of range: fixup() clamps it
        }
        return state;
    }

    void fixup(QString& input) const override {
        const auto typed = typedNumber(input);
        if (!typed) {
            QSpinBox::fixup(input);
            return;
        }
        const int clamped = static_cast<int>(std::clamp<qint64>(*typed, minimum(), maximum()));
        if (clamped != *typed && onClamped) {
            onClamped(*typed, clamped);
        }
        input = textFromValue(clamped);
    }

  private:
    // Digits only (no sign, at most 18 of them so they fit qint64).
    std::optional<qint64> typedNumber(const QString& input) const {
        const QString text = input.trimmed();
        if (text.isEmpty() || text.size() > 18) {
            return std::nullopt;
        }
        for (const QChar c : text) {
            if (!c.isDigit()) {
                return std::nullopt;
            }
        }
        bool ok = false;
        const qint64 v = text.toLongLong(&ok);
        return ok ? std::optional<qint64>(v) : std::nullopt;
    }
};
}  // namespace

QString BudgetPanel::variantTitle(once::Variant v) {
    switch (v) {
        case once::Variant::Full:
            return tr("Full (the paper's rule)");
        case once::Variant::NoReassign:
            return tr("No reassignment (drop unselected)");
        case once::Variant::FixedRandom:
            return tr("Fixed random codewords");
        case once::Variant::FrameWise:
            return tr("Frame-wise selection");
        case once::Variant::RandomGrouping:
            return tr("Random grouping");
        case once::Variant::CodewordOutput:
            return tr("Codeword output");
        case once::Variant::MedoidOutput:
            return tr("Medoid output");
    }
    return {};
}

QString BudgetPanel::variantDescription(once::Variant v) {
    switch (v) {
        case once::Variant::Full:
            return tr(
                "The paper's rule: every token goes to its nearest codeword, the B most used "
                "codewords are kept, every token is reassigned to its nearest kept codeword "
                "and each group is averaged into one output token.");
        case once::Variant::NoReassign:
            return tr(
                "As Full, but tokens whose nearest codeword was not kept are dropped "
                "instead of reassigned: coverage falls below 100 %.");
        case once::Variant::FixedRandom:
            return tr(
                "Keeps the first B codewords of one seeded random order (the same for every "
                "video) instead of the most used ones; tokens are reassigned to them.");
        case once::Variant::FrameWise:
            return tr(
                "Cuts the frames into segments; each segment keeps its own most used "
                "codewords from an even share of B and reassigns its own tokens.");
        case once::Variant::RandomGrouping:
            return tr(
                "Full's group sizes filled with randomly chosen tokens: shows what the "
                "codewords' grouping is worth.");
        case once::Variant::CodewordOutput:
            return tr(
                "Full's groups, each output as its codeword instead of the mean of its "
                "tokens.");
        case once::Variant::MedoidOutput:
            return tr(
                "Full's groups, each output as the member closest (cosine) to the group's "
                "mean.");
    }
    return {};
}

BudgetPanel::BudgetPanel(QWidget* parent) : QWidget(parent) {
    methodBox_ = new QComboBox(this);
    for (const QString& name : methods::all()) {
        methodBox_->addItem(methods::title(name), name);
        QString tip;
        try {
            const once::CompressorInfo& info = once::compressorInfo(name.toStdString());
            tip = methods::summary(name);
            if (info.needsCodebook) {
                tip += QLatin1Char('\n') + tr("Needs a codebook.");
            } else {
                tip += QLatin1Char('\n') + tr("Works on the video alone (no codebook).");
            }
            tip += QLatin1Char('\n') + tr("Follows: %1").arg(QString::fromStdString(info.source));
        } catch (const std::exception&) {
            // Not registered (a build without it): the name alone.
        }
        methodBox_->setItemData(methodBox_->count() - 1, tip, Qt::ToolTipRole);
    }
    methodBox_->setAccessibleName(tr("Compression method"));
    methodBox_->setToolTip(tr("ONCE or a peer baseline, compared at the same budget"));
    notice_ = new QLabel(this);
    notice_->setWordWrap(true);
    notice_->setVisible(false);
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setRange(0, LogScale::kSteps);
    slider_->setPageStep(LogScale::kSteps / 20);
    slider_->setAccessibleName(tr("Token budget (log scale)"));
    auto* spin = new ClampingSpinBox(this);
    spin_ = spin;
    spin_->setRange(1, 1);
    spin_->setAccessibleName(tr("Token budget"));
    spin_->setKeyboardTracking(false);
    budgetNote_ = new QLabel(this);
    budgetNote_->setWordWrap(true);
    budgetNote_->setVisible(false);
    spin->onClamped = [this](qint64 typed, int clampedTo) {
        const bool codebookMethod = methods::needsCodebook(method());
        budgetNote_->setText(
            typed < clampedTo
                ? tr("B = %1 is below the smallest budget: set to %2.").arg(typed).arg(clampedTo)
                : (codebookMethod
                       ? tr("B = %1 is more than K = %2, the codebook's size: set to %2.")
                       : tr("B = %1 is more than N = %2, the video's tokens: set to %2."))
                      .arg(typed)
                      .arg(clampedTo));
        budgetNote_->setVisible(true);
    };
    rangeNote_ = new QLabel(this);
    rangeNote_->setWordWrap(true);
    rangeNote_->setVisible(false);
    variantBox_ = new QComboBox(this);
    for (const std::string& name : once::variantNames()) {
        const once::Variant v = once::parseVariant(name);
        variantBox_->addItem(variantTitle(v), QString::fromStdString(name));
        variantBox_->setItemData(variantBox_->count() - 1, variantDescription(v), Qt::ToolTipRole);
    }
    variantBox_->setAccessibleName(tr("Variant"));
    staleNote_ = new QLabel(this);
    staleNote_->setWordWrap(true);
    staleNote_->setVisible(false);

    auto* budgetRow = new QHBoxLayout;
    budgetRow->addWidget(slider_, 1);
    budgetRow->addWidget(spin_);

    groups_ = new QLabel(this);
    coverage_ = new QLabel(this);
    llmTokens_ = new QLabel(this);
    ratio_ = new QLabel(this);
    time_ = new QLabel(this);
    features_ = new QLabel(QStringLiteral("—"), this);
    features_->setWordWrap(true);
    for (QLabel* l : {groups_, coverage_, llmTokens_, ratio_, time_, features_}) {
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }

    auto* form = new QFormLayout(this);
    form->addRow(tr("&Method:"), methodBox_);
    form->addRow(notice_);
    form->addRow(tr("&Budget B:"), budgetRow);
    form->addRow(budgetNote_);
    form->addRow(rangeNote_);
    form->addRow(tr("&Variant:"), variantBox_);
    form->addRow(staleNote_);
    form->addRow(tr("Groups M:"), groups_);
    form->addRow(tr("Coverage:"), coverage_);
    form->addRow(tr("Tokens to the LLM:"), llmTokens_);
    form->addRow(tr("Compression:"), ratio_);
    form->addRow(tr("Time:"), time_);
    form->addRow(tr("Features:"), features_);
    // Labels' buddies make the &-mnemonics reach the controls.
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(budgetRow))) {
        label->setBuddy(slider_);
    }
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(variantBox_))) {
        label->setBuddy(variantBox_);
    }
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(methodBox_))) {
        label->setBuddy(methodBox_);
    }

    connect(slider_, &QSlider::valueChanged, this, [this](int position) {
        if (!updating_) {
            applyBudget(scale_.valueAt(position), true);
        }
    });
    connect(spin_, &QSpinBox::valueChanged, this, [this](int value) {
        if (!updating_) {
            applyBudget(value, false);
        }
    });
    // The note about a clamped number stays until the budget is edited again.
    connect(slider_, &QSlider::sliderPressed, budgetNote_, &QLabel::hide);
    if (auto* edit = spin_->findChild<QLineEdit*>()) {
        connect(edit, &QLineEdit::textEdited, budgetNote_, &QLabel::hide);
    }
    connect(variantBox_, &QComboBox::currentIndexChanged, this, [this] {
        // The box's tooltip describes the chosen variant.
        variantBox_->setToolTip(variantDescription(variant()));
        updateStale();
        if (!updating_) {
            emit variantChanged(variant());
        }
    });
    variantBox_->setToolTip(variantDescription(variant()));
    connect(methodBox_, &QComboBox::currentIndexChanged, this, [this] {
        updateControls();
        if (!updating_) {
            emit methodChanged(method());
        }
    });
    setMaximumBudget(0);
    showResult(nullptr, 0);
}

void BudgetPanel::setMaximumBudget(std::int64_t maximum) {
    setBudgetRange(1, maximum, QString());
}

void BudgetPanel::setBudgetRange(std::int64_t minimum, std::int64_t maximum, const QString& rule) {
    scale_.maximum = std::max<std::int64_t>(1, maximum);
    minimum_ = std::clamp<std::int64_t>(minimum, 1, scale_.maximum);
    rule_ = rule;
    updating_ = true;
    spin_->setRange(
        static_cast<int>(std::min<std::int64_t>(minimum_, std::numeric_limits<int>::max())),
        static_cast<int>(std::min<std::int64_t>(scale_.maximum, std::numeric_limits<int>::max())));
    spin_->setToolTip(tr("Token budget B, from %1 to %2; a number outside is set to the nearest "
                         "end")
                          .arg(spin_->minimum())
                          .arg(spin_->maximum()));
    // The log scale keeps 1 … maximum (positions stay comparable between methods); a method's
    // smallest budget only moves the slider's lower end.
    slider_->setRange(minimumPosition(), LogScale::kSteps);
    budgetNote_->hide();
    updating_ = false;
    budgetUsable_ = maximum > 0;
    rangeNote_->setText(budgetUsable_ ? rule : QString());
    rangeNote_->setVisible(!rangeNote_->text().isEmpty());
    updateControls();
    setBudget(std::clamp(budget_, minimum_, scale_.maximum));
}

int BudgetPanel::minimumPosition() const {
    int position = scale_.positionOf(minimum_);
    while (position < LogScale::kSteps && scale_.valueAt(position) < minimum_) {
        ++position;
    }
    return position;
}

QString BudgetPanel::rangeNote() const {
    return rangeNote_->isHidden() ? QString() : rangeNote_->text();
}

void BudgetPanel::setMethod(const QString& method) {
    const int index = methodBox_->findData(method);
    if (index < 0) {
        return;
    }
    updating_ = true;
    methodBox_->setCurrentIndex(index);
    updating_ = false;
    updateControls();
}

QString BudgetPanel::method() const {
    const QString name = methodBox_->currentData().toString();
    return name.isEmpty() ? methods::preferred() : name;
}

void BudgetPanel::setInputs(bool hasVideo, bool hasCodebook) {
    hasVideo_ = hasVideo;
    hasCodebook_ = hasCodebook;
    updateControls();
}

QString BudgetPanel::budgetNote() const {
    return budgetNote_->isHidden() ? QString() : budgetNote_->text();
}

QString BudgetPanel::notice() const {
    return notice_->isHidden() ? QString() : notice_->text();
}

void BudgetPanel::updateControls() {
    const bool codebookMethod = methods::needsCodebook(method());
    slider_->setEnabled(budgetUsable_);
    spin_->setEnabled(budgetUsable_);
    variantBox_->setEnabled(methods::hasVariants(method()) && budgetUsable_);
    QString tip = codebookMethod ? tr("Token budget B on a log scale up to K")
                                 : tr("Token budget B on a log scale up to N (the video's tokens)");
    if (!rule_.isEmpty()) {
        tip += QLatin1Char('\n') + rule_;
    }
    slider_->setToolTip(tip);
    QString text;
    if (codebookMethod && !hasCodebook_ && hasVideo_) {
        text =
            tr("ONCE needs a codebook: open one (File ▸ Open Codebook…) or train one in the "
               "Trainer. The peer methods above work on the video alone.");
    }
    notice_->setText(text);
    notice_->setVisible(!text.isEmpty());
}

void BudgetPanel::setBudget(std::int64_t budget) {
    budget_ = std::clamp<std::int64_t>(budget, minimum_, scale_.maximum);
    updating_ = true;
    slider_->setValue(scale_.positionOf(budget_));
    spin_->setValue(static_cast<int>(budget_));
    updating_ = false;
    updateStale();
}

void BudgetPanel::applyBudget(std::int64_t budget, bool fromSlider) {
    budget = std::clamp<std::int64_t>(budget, minimum_, scale_.maximum);
    updating_ = true;
    if (fromSlider) {
        spin_->setValue(static_cast<int>(budget));
    } else {
        slider_->setValue(scale_.positionOf(budget));
    }
    updating_ = false;
    if (budget != budget_) {
        budget_ = budget;
        updateStale();
        emit budgetChanged(budget_);
    }
}

void BudgetPanel::setVariant(once::Variant variant) {
    updating_ = true;
    variantBox_->setCurrentIndex(
        variantBox_->findData(QString::fromStdString(once::variantName(variant))));
    updating_ = false;
}

once::Variant BudgetPanel::variant() const {
    const QString name = variantBox_->currentData().toString();
    return name.isEmpty() ? once::Variant::Full : once::parseVariant(name.toStdString());
}

void BudgetPanel::setFeatureSource(const QString& text) {
    features_->setText(text.isEmpty() ? QStringLiteral("—") : text);
}

void BudgetPanel::setComputing(bool computing) {
    computing_ = computing;
    updateStale();
}

QString BudgetPanel::staleNote() const {
    return staleNote_->isHidden() ? QString() : staleNote_->text();
}

void BudgetPanel::updateStale() {
    stale_ = shownBudget_ > 0 && (shownBudget_ != budget_ ||
                                  (methods::hasVariants(method()) && shownVariant_ != variant()));
    for (QLabel* l : {groups_, coverage_, llmTokens_, ratio_, time_}) {
        l->setEnabled(!stale_);  // greyed while they describe another setting
    }
    QString text;
    if (stale_) {
        text = computing_ ? tr("Updating… (the numbers below are for B = %1)").arg(shownBudget_)
                          : tr("The numbers below are for B = %1: the compression for the "
                               "current setting was cancelled or failed.")
                                .arg(shownBudget_);
    }
    staleNote_->setText(text);
    staleNote_->setVisible(!text.isEmpty());
}

QString BudgetPanel::timeText() const {
    return time_->text();
}

void BudgetPanel::showResult(const once::CompressionResult* r, std::int64_t llmTokens,
                             const QString& machine) {
    shownBudget_ = r ? r->budget : 0;
    shownVariant_ = r ? r->variant : once::Variant::Full;
    updateStale();
    if (!r) {
        for (QLabel* l : {groups_, coverage_, llmTokens_, ratio_, time_}) {
            l->setText(QStringLiteral("–"));
        }
        return;
    }
    // A method with an assignment counts codewords and times its stages apart.
    const bool assigns = methods::hasAssignment(QString::fromStdString(r->method));
    if (assigns) {
        groups_->setText(tr("%1 of %2 used codewords").arg(r->numOutputs).arg(r->usedCodewords));
    } else {
        groups_->setText(
            tr("%n output token(s) (budget %1)", "", int(r->numOutputs)).arg(r->budget));
    }
    coverage_->setText(tr("%1 % of %2 tokens")
                           .arg(100.0 * r->coverage, 0, 'f', r->coverage < 1 ? 2 : 0)
                           .arg(r->numTokens));
    llmTokens_->setText(QString::number(llmTokens));
    ratio_->setText(
        tr("%1 → %2 tokens (%3×)")
            .arg(r->numTokens)
            .arg(r->numOutputs)
            .arg(r->numOutputs > 0 ? static_cast<double>(r->numTokens) / r->numOutputs : 0.0, 0,
                 'f', 1));
    const auto& s = r->seconds;
    const QString time = assigns ? tr("%1 ms (select %2, reassign %3, pool %4)")
                                       .arg((s.select + s.reassign + s.pool) * 1e3, 0, 'f', 2)
                                       .arg(s.select * 1e3, 0, 'f', 2)
                                       .arg(s.reassign * 1e3, 0, 'f', 2)
                                       .arg(s.pool * 1e3, 0, 'f', 2)
                                 : tr("%1 ms (prepared once per video in %2 ms)")
                                       .arg((s.select + s.reassign + s.pool) * 1e3, 0, 'f', 2)
                                       .arg(s.assign * 1e3, 0, 'f', 1);
    // A server's compression (issue 29): its time is that machine's, not this one's.
    time_->setText(machine.isEmpty() ? time : tr("%1, measured on %2").arg(time, machine));
}

QString BudgetPanel::readout(const QString& key) const {
    if (key == QLatin1String("M")) {
        return groups_->text();
    }
    if (key == QLatin1String("coverage")) {
        return coverage_->text();
    }
    if (key == QLatin1String("llm")) {
        return llmTokens_->text();
    }
    if (key == QLatin1String("time")) {
        return time_->text();
    }
    if (key == QLatin1String("features")) {
        return features_->text();
    }
    return ratio_->text();
}

}  // namespace once::studio
