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
#include "session/studio_session.h"

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

BudgetPanel::BudgetPanel(QWidget* parent) : QWidget(parent) {
    methodBox_ = new QComboBox(this);
    for (const QString& name : methods::all()) {
        methodBox_->addItem(methods::title(name), name);
        QString tip;
        try {
            const once::CompressorInfo& info = once::compressorInfo(name.toStdString());
            tip = QString::fromStdString(info.summary);
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
    slider_->setToolTip(tr("Token budget B on a log scale from 1 to K"));
    auto* spin = new ClampingSpinBox(this);
    spin_ = spin;
    spin_->setRange(1, 1);
    spin_->setAccessibleName(tr("Token budget"));
    spin_->setKeyboardTracking(false);
    budgetNote_ = new QLabel(this);
    budgetNote_->setWordWrap(true);
    budgetNote_->setVisible(false);
    spin->onClamped = [this](qint64 typed, int clampedTo) {
        const bool onceMethod = methods::needsCodebook(method());
        budgetNote_->setText(
            typed < clampedTo
                ? tr("B = %1 is below the smallest budget: set to %2.").arg(typed).arg(clampedTo)
                : (onceMethod ? tr("B = %1 is more than K = %2, the codebook's size: set to %2.")
                              : tr("B = %1 is more than N = %2, the video's tokens: set to %2."))
                      .arg(typed)
                      .arg(clampedTo));
        budgetNote_->setVisible(true);
    };
    variantBox_ = new QComboBox(this);
    for (const std::string& name : once::variantNames()) {
        variantBox_->addItem(variantTitle(once::parseVariant(name)), QString::fromStdString(name));
    }
    variantBox_->setAccessibleName(tr("Variant"));

    auto* budgetRow = new QHBoxLayout;
    budgetRow->addWidget(slider_, 1);
    budgetRow->addWidget(spin_);

    groups_ = new QLabel(this);
    coverage_ = new QLabel(this);
    llmTokens_ = new QLabel(this);
    ratio_ = new QLabel(this);
    time_ = new QLabel(this);
    for (QLabel* l : {groups_, coverage_, llmTokens_, ratio_, time_}) {
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }

    auto* form = new QFormLayout(this);
    form->addRow(tr("&Method:"), methodBox_);
    form->addRow(notice_);
    form->addRow(tr("&Budget B:"), budgetRow);
    form->addRow(budgetNote_);
    form->addRow(tr("&Variant:"), variantBox_);
    form->addRow(tr("Groups M:"), groups_);
    form->addRow(tr("Coverage:"), coverage_);
    form->addRow(tr("Tokens to the LLM:"), llmTokens_);
    form->addRow(tr("Compression:"), ratio_);
    form->addRow(tr("Time:"), time_);
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
        if (!updating_) {
            emit variantChanged(variant());
        }
    });
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
    scale_.maximum = std::max<std::int64_t>(1, maximum);
    updating_ = true;
    spin_->setRange(1, static_cast<int>(std::min<std::int64_t>(scale_.maximum,
                                                               std::numeric_limits<int>::max())));
    spin_->setToolTip(
        tr("Token budget B, from 1 to %1; a larger number is set to %1").arg(spin_->maximum()));
    budgetNote_->hide();
    updating_ = false;
    budgetUsable_ = maximum > 0;
    updateControls();
    setBudget(std::min(budget_, scale_.maximum));
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
    const bool onceMethod = methods::needsCodebook(method());
    slider_->setEnabled(budgetUsable_);
    spin_->setEnabled(budgetUsable_);
    variantBox_->setEnabled(methods::hasVariants(method()) && budgetUsable_);
    slider_->setToolTip(onceMethod
                            ? tr("Token budget B on a log scale from 1 to K")
                            : tr("Token budget B on a log scale from 1 to N (the video's tokens)"));
    QString text;
    if (onceMethod && !hasCodebook_ && hasVideo_) {
        text =
            tr("ONCE needs a codebook: open one (File ▸ Open Codebook…) or train one in the "
               "Trainer. The peer methods above work on the video alone.");
    }
    notice_->setText(text);
    notice_->setVisible(!text.isEmpty());
}

void BudgetPanel::setBudget(std::int64_t budget) {
    budget_ = std::clamp<std::int64_t>(budget, 1, scale_.maximum);
    updating_ = true;
    slider_->setValue(scale_.positionOf(budget_));
    spin_->setValue(static_cast<int>(budget_));
    updating_ = false;
}

void BudgetPanel::applyBudget(std::int64_t budget, bool fromSlider) {
    budget = std::clamp<std::int64_t>(budget, 1, scale_.maximum);
    updating_ = true;
    if (fromSlider) {
        spin_->setValue(static_cast<int>(budget));
    } else {
        slider_->setValue(scale_.positionOf(budget));
    }
    updating_ = false;
    if (budget != budget_) {
        budget_ = budget;
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

void BudgetPanel::showResult(const once::CompressionResult* r, std::int64_t llmTokens) {
    if (!r) {
        for (QLabel* l : {groups_, coverage_, llmTokens_, ratio_, time_}) {
            l->setText(QStringLiteral("–"));
        }
        return;
    }
    const bool onceMethod = methods::needsCodebook(QString::fromStdString(r->method));
    if (onceMethod) {
        groups_->setText(tr("%1 of %2 used codewords").arg(r->numOutputs).arg(r->usedCodewords));
    } else {
        groups_->setText(tr("%1 output tokens (budget %2)").arg(r->numOutputs).arg(r->budget));
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
    if (!onceMethod) {
        time_->setText(tr("%1 ms (prepared once per video in %2 ms)")
                           .arg((s.select + s.reassign + s.pool) * 1e3, 0, 'f', 2)
                           .arg(s.assign * 1e3, 0, 'f', 1));
        return;
    }
    time_->setText(tr("%1 ms (select %2, reassign %3, pool %4)")
                       .arg((s.select + s.reassign + s.pool) * 1e3, 0, 'f', 2)
                       .arg(s.select * 1e3, 0, 'f', 2)
                       .arg(s.reassign * 1e3, 0, 'f', 2)
                       .arg(s.pool * 1e3, 0, 'f', 2));
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
    return ratio_->text();
}

}  // namespace once::studio
