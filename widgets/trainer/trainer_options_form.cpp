#include "trainer/trainer_options_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QValidator>
#include <limits>

namespace once::studio {
namespace {
QSpinBox* intBox(QWidget* parent, int lo, int hi) {
    auto* b = new QSpinBox(parent);
    b->setRange(lo, hi);
    b->setGroupSeparatorShown(true);
    return b;
}
QDoubleSpinBox* realBox(QWidget* parent, double lo, double hi, int decimals, double step) {
    auto* b = new QDoubleSpinBox(parent);
    b->setRange(lo, hi);
    b->setDecimals(decimals);
    b->setSingleStep(step);
    return b;
}
QComboBox* choiceBox(QWidget* parent, const QStringList& values) {
    auto* b = new QComboBox(parent);
    for (const QString& v : values) {
        b->addItem(v, v);
    }
    return b;
}
void select(QComboBox* b, const std::string& value) {
    const int i = b->findData(QString::fromStdString(value));
    b->setCurrentIndex(std::max(0, i));
}
std::string choice(const QComboBox* b) {
    return b->currentData().toString().toStdString();
}
constexpr int kMaxInt = std::numeric_limits<int>::max();

// Accepts the decimal values of a std::uint64_t (seeds), nothing larger.
class Uint64Validator final : public QValidator {
  public:
    using QValidator::QValidator;
    State validate(QString& input, int&) const override {
        if (input.isEmpty()) {
            return Intermediate;
        }
        for (const QChar c : input) {
            if (!c.isDigit()) {
                return Invalid;
            }
        }
        bool ok = false;
        input.toULongLong(&ok);
        return ok ? Acceptable : Invalid;
    }
};
QLineEdit* seedEdit(QWidget* parent) {
    auto* e = new QLineEdit(parent);
    e->setValidator(new Uint64Validator(e));
    return e;
}
void setSeed(QLineEdit* e, std::uint64_t seed) {
    e->setText(QString::number(seed));
}
/// The seed typed in; an empty field (the validator allows nothing else) is the default 42.
std::uint64_t seedOf(const QLineEdit* e) {
    bool ok = false;
    const std::uint64_t v = e->text().toULongLong(&ok);
    return ok ? v : 42;
}
}  // namespace

TrainerOptionsForm::TrainerOptionsForm(QWidget* parent) : QWidget(parent) {
    auto* a = new QGroupBox(tr("Stage A: corpus sketch"), this);
    bins_ = intBox(a, 1, 64);
    tokensPerRep_ = realBox(a, 1, 1e6, 1, 16);
    mMin_ = intBox(a, 1, 1 << 20);
    mMax_ = intBox(a, 1, 1 << 20);
    sketchIterations_ = intBox(a, 1, 1000);
    sketchSeed_ = seedEdit(a);
    cap_ = intBox(a, 0, kMaxInt);
    cap_->setSpecialValueText(tr("no cap"));
    shardRows_ = intBox(a, 1, kMaxInt);
    skipErrors_ = new QCheckBox(tr("Record unreadable videos as failed and go on"), a);
    auto* af = new QFormLayout(a);
    af->addRow(tr("Timeline bins L:"), bins_);
    af->addRow(tr("Tokens per representative R:"), tokensPerRep_);
    af->addRow(tr("Smallest sketch m_min:"), mMin_);
    af->addRow(tr("Largest sketch m_max:"), mMax_);
    af->addRow(tr("Lloyd rounds per bin:"), sketchIterations_);
    af->addRow(tr("Seed:"), sketchSeed_);
    af->addRow(tr("Representative cap:"), cap_);
    af->addRow(tr("Rows per shard:"), shardRows_);
    af->addRow(QString(), skipErrors_);

    auto* b = new QGroupBox(tr("Stage B: codebook fit"), this);
    codewords_ = intBox(b, 1, 1 << 20);
    method_ = choiceBox(b, {QStringLiteral("sinkhorn"), QStringLiteral("hard-lloyd")});
    weights_ = choiceBox(b, {QStringLiteral("source-count"), QStringLiteral("uniform")});
    alpha_ = realBox(b, 0, 10, 3, 0.1);
    init_ = choiceBox(b, {QStringLiteral("refined"), QStringLiteral("sampled")});
    candidates_ = intBox(b, 1, kMaxInt);
    initIterations_ = intBox(b, 0, 1000);
    batch_ = intBox(b, 1, kMaxInt);
    epsilon_ = realBox(b, 1e-4, 10, 4, 0.01);
    sinkhornIterations_ = intBox(b, 1, 1000);
    lr_ = realBox(b, 1e-7, 10, 6, 1e-4);
    weightDecay_ = realBox(b, 0, 10, 5, 1e-3);
    beta1_ = realBox(b, 0, 0.999999, 6, 0.01);
    beta2_ = realBox(b, 0, 0.999999, 6, 0.001);
    adamEps_ = realBox(b, 1e-12, 1, 12, 1e-9);
    gradClip_ = realBox(b, 0, 1e6, 3, 0.1);
    gradClip_->setSpecialValueText(tr("off"));
    commitment_ = realBox(b, 0, 100, 4, 0.05);
    usage_ = realBox(b, 0, 100, 4, 0.005);
    tauStart_ = realBox(b, 1e-4, 100, 4, 0.1);
    tauMin_ = realBox(b, 1e-6, 100, 5, 0.005);
    tauDecay_ = realBox(b, 0.5, 1, 5, 0.0005);
    epochs_ = intBox(b, 0, 10000);
    patience_ = intBox(b, 1, 10000);
    lloydIterations_ = intBox(b, 0, 10000);
    fitSeed_ = seedEdit(b);
    storeDtype_ = choiceBox(b, {QStringLiteral("F32"), QStringLiteral("BF16")});
    auto* bf = new QFormLayout(b);
    bf->addRow(tr("Codewords K:"), codewords_);
    bf->addRow(tr("Method:"), method_);
    bf->addRow(tr("Representative weights:"), weights_);
    bf->addRow(tr("Long-tail exponent α:"), alpha_);
    bf->addRow(tr("Initialisation:"), init_);
    bf->addRow(tr("Initialisation candidates:"), candidates_);
    bf->addRow(tr("Initial Lloyd refinements:"), initIterations_);
    bf->addRow(tr("Mini-batch:"), batch_);
    bf->addRow(tr("Sinkhorn ε:"), epsilon_);
    bf->addRow(tr("Sinkhorn normalisation steps:"), sinkhornIterations_);
    bf->addRow(tr("Learning rate:"), lr_);
    bf->addRow(tr("Weight decay:"), weightDecay_);
    bf->addRow(tr("AdamW β1:"), beta1_);
    bf->addRow(tr("AdamW β2:"), beta2_);
    bf->addRow(tr("AdamW ε:"), adamEps_);
    bf->addRow(tr("Gradient-norm clip:"), gradClip_);
    bf->addRow(tr("Commitment weight:"), commitment_);
    bf->addRow(tr("Code-usage weight:"), usage_);
    bf->addRow(tr("Temperature start:"), tauStart_);
    bf->addRow(tr("Temperature floor:"), tauMin_);
    bf->addRow(tr("Temperature decay:"), tauDecay_);
    bf->addRow(tr("Epochs at most:"), epochs_);
    bf->addRow(tr("Patience:"), patience_);
    bf->addRow(tr("Hard-Lloyd rounds:"), lloydIterations_);
    bf->addRow(tr("Seed:"), fitSeed_);
    bf->addRow(tr("Stored dtype:"), storeDtype_);

    auto* defaults = new QPushButton(tr("Restore &Defaults"), this);
    defaults->setToolTip(
        tr("The paper's settings (LLaVA-OneVision column of its configuration "
           "table)"));
    connect(defaults, &QPushButton::clicked, this, &TrainerOptionsForm::restoreDefaults);
    auto* columns = new QHBoxLayout;
    columns->addWidget(a, 1, Qt::AlignTop);
    columns->addWidget(b, 1, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(columns);
    layout->addWidget(defaults, 0, Qt::AlignLeft);
    restoreDefaults();
}

void TrainerOptionsForm::restoreDefaults() {
    setSketchOptions(once::SketchCacheOptions{});
    setFitConfig(once::FitConfig{});
    storeDtype_->setCurrentIndex(0);
}

void TrainerOptionsForm::setSketchOptions(const once::SketchCacheOptions& o) {
    bins_->setValue(o.sketch.bins);
    tokensPerRep_->setValue(o.sketch.tokensPerRep);
    mMin_->setValue(static_cast<int>(o.sketch.mMin));
    mMax_->setValue(static_cast<int>(o.sketch.mMax));
    sketchIterations_->setValue(o.sketch.iterations);
    setSeed(sketchSeed_, o.sketch.seed);
    cap_->setValue(static_cast<int>(o.cap));
    shardRows_->setValue(static_cast<int>(o.shardRows));
    skipErrors_->setChecked(o.skipErrors);
}

once::SketchCacheOptions TrainerOptionsForm::sketchOptions() const {
    once::SketchCacheOptions o;
    o.sketch.bins = bins_->value();
    o.sketch.tokensPerRep = tokensPerRep_->value();
    o.sketch.mMin = mMin_->value();
    o.sketch.mMax = mMax_->value();
    o.sketch.iterations = sketchIterations_->value();
    o.sketch.seed = seedOf(sketchSeed_);
    o.cap = cap_->value();
    o.shardRows = shardRows_->value();
    o.skipErrors = skipErrors_->isChecked();
    return o;
}

void TrainerOptionsForm::setFitConfig(const once::FitConfig& c) {
    codewords_->setValue(static_cast<int>(c.codewords));
    select(method_, c.method);
    select(weights_, c.weights);
    alpha_->setValue(c.alpha);
    select(init_, c.init);
    candidates_->setValue(static_cast<int>(c.candidates));
    initIterations_->setValue(c.initIterations);
    batch_->setValue(static_cast<int>(c.batch));
    epsilon_->setValue(c.epsilon);
    sinkhornIterations_->setValue(c.sinkhornIterations);
    lr_->setValue(c.lr);
    weightDecay_->setValue(c.weightDecay);
    beta1_->setValue(c.beta1);
    beta2_->setValue(c.beta2);
    adamEps_->setValue(c.adamEps);
    gradClip_->setValue(c.gradClip);
    commitment_->setValue(c.commitment);
    usage_->setValue(c.usage);
    tauStart_->setValue(c.tauStart);
    tauMin_->setValue(c.tauMin);
    tauDecay_->setValue(c.tauDecay);
    epochs_->setValue(c.epochs);
    patience_->setValue(c.patience);
    lloydIterations_->setValue(c.lloydIterations);
    setSeed(fitSeed_, c.seed);
}

once::FitConfig TrainerOptionsForm::fitConfig() const {
    once::FitConfig c;
    c.codewords = codewords_->value();
    c.method = choice(method_);
    c.weights = choice(weights_);
    c.alpha = alpha_->value();
    c.init = choice(init_);
    c.candidates = candidates_->value();
    c.initIterations = initIterations_->value();
    c.batch = batch_->value();
    c.epsilon = epsilon_->value();
    c.sinkhornIterations = sinkhornIterations_->value();
    c.lr = lr_->value();
    c.weightDecay = weightDecay_->value();
    c.beta1 = beta1_->value();
    c.beta2 = beta2_->value();
    c.adamEps = adamEps_->value();
    c.gradClip = gradClip_->value();
    c.commitment = commitment_->value();
    c.usage = usage_->value();
    c.tauStart = tauStart_->value();
    c.tauMin = tauMin_->value();
    c.tauDecay = tauDecay_->value();
    c.epochs = epochs_->value();
    c.patience = patience_->value();
    c.lloydIterations = lloydIterations_->value();
    c.seed = seedOf(fitSeed_);
    return c;
}

QString TrainerOptionsForm::storeDtype() const {
    return storeDtype_->currentData().toString();
}

}  // namespace once::studio
