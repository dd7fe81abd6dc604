#include "settings_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QThread>
#include <QVBoxLayout>
#include <memory>

#include "models/backbone.h"
#include "models/visual_encoder.h"
#include "util/device.h"
#include "video/sampling_rule.h"

namespace once::studio {
namespace {
void selectData(QComboBox* box, const QVariant& value) {
    const int i = box->findData(value);
    box->setCurrentIndex(i >= 0 ? i : 0);
}
}  // namespace

bool SettingsDialog::cudaAvailable() {
    return once::cudaDeviceAvailable();  // loads LibTorch's CUDA half on first use
}

SettingsDialog::SettingsDialog(const PipelineSettings& p, const QString& language, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Settings"));
    backbone_ = new QComboBox(this);
    backbone_->setObjectName(QStringLiteral("backbone"));
    for (const std::string& name : once::visualEncoderNames()) {
        backbone_->addItem(QString::fromStdString(name), QString::fromStdString(name));
    }
    if (backbone_->findData(p.backbone) < 0) {
        backbone_->addItem(p.backbone, p.backbone);
    }
    selectData(backbone_, p.backbone);

    device_ = new QComboBox(this);
    device_->addItem(tr("CPU"), QStringLiteral("cpu"));
    device_->addItem(tr("CUDA GPU"), QStringLiteral("cuda"));
    device_->addItem(tr("Automatic (GPU when present)"), QStringLiteral("auto"));
    if (!cudaAvailable()) {
        // Listed but disabled, so users learn that CUDA exists and why it is unavailable.
        if (auto* model = qobject_cast<QStandardItemModel*>(device_->model())) {
            model->item(1)->setEnabled(false);
            model->item(1)->setToolTip(tr("No CUDA device or no CUDA build of LibTorch"));
        }
    }
    selectData(device_, p.device);

    dtype_ = new QComboBox(this);
    dtype_->addItem(tr("float32"), QStringLiteral("float32"));
    dtype_->addItem(tr("float16"), QStringLiteral("float16"));
    dtype_->addItem(tr("bfloat16"), QStringLiteral("bfloat16"));
    selectData(dtype_, p.dtype);

    threads_ = new QSpinBox(this);
    threads_->setRange(0, std::max(1, QThread::idealThreadCount()));
    threads_->setSpecialValueText(tr("Automatic"));
    threads_->setValue(p.threads);

    sampling_ = new QLineEdit(p.sampling, this);
    sampling_->setObjectName(QStringLiteral("sampling"));
    sampling_->setToolTip(
        tr("uniform:N (N evenly spaced frames), fps:F or fps:F:MIN:MAX, with an "
           "optional window @START-END in seconds"));
    samplingError_ = new QLabel(this);
    samplingError_->setWordWrap(true);
    samplingError_->setStyleSheet(QStringLiteral("color: #b00020"));
    samplingError_->setVisible(false);
    samplingError_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    samplingError_->setObjectName(QStringLiteral("samplingError"));
    connect(sampling_, &QLineEdit::textEdited, this, [this] {
        if (samplingError_->isVisible()) {
            samplingError_->clear();
            samplingError_->setVisible(false);
            adjustSize();
        }
    });

    pooling_ = new QComboBox(this);
    pooling_->setObjectName(QStringLiteral("patchGrid"));
    pooling_->addItem(tr("All patches (27×27, the paper)"), 1);
    pooling_->addItem(tr("2×2 pooled (14×14, reference code default)"), 2);
    selectData(pooling_, p.poolStride);

    // The frame sampling and the patch grid follow the backbone: a sampling left at the old
    // backbone's default becomes the new one's (uniform:32 for LLaVA-OneVision, fps:2:4:256 for
    // Qwen3.5: the paper's settings); Qwen3.5 merges 2×2 patches itself.
    auto previous = std::make_shared<QString>(p.backbone);
    auto followBackbone = [this, previous] {
        const QString now = backbone_->currentData().toString();
        const QString oldDefault =
            QString::fromStdString(once::defaultSampling(previous->toStdString()));
        if (sampling_->text().trimmed() == oldDefault) {
            sampling_->setText(QString::fromStdString(once::defaultSampling(now.toStdString())));
        }
        // Whether the backbone pools its patch grid is its registration's (models/backbone.h).
        bool merges = false;
        QString title;
        for (const once::BackboneInfo& b : once::backboneInfos()) {
            if (QString::fromStdString(b.name) == now) {
                merges = !b.poolsPatchGrid;
                title = QString::fromStdString(b.title);
            }
        }
        pooling_->setEnabled(!merges);
        pooling_->setToolTip(merges ? tr("The %1 vision tower merges patches itself; this setting "
                                         "applies to backbones that pool the patch grid")
                                          .arg(title)
                                    : QString());
        *previous = now;
    };
    connect(backbone_, &QComboBox::currentIndexChanged, this, followBackbone);
    followBackbone();

    language_ = new QComboBox(this);
    language_->addItem(tr("System language"), QString());
    language_->addItem(QStringLiteral("English"), QStringLiteral("en"));
    language_->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));
    selectData(language_, language);

    auto* form = new QFormLayout;
    form->addRow(tr("&Backbone:"), backbone_);
    form->addRow(tr("&Device:"), device_);
    form->addRow(tr("D&ata type:"), dtype_);
    form->addRow(tr("&Threads:"), threads_);
    form->addRow(tr("&Frame sampling:"), sampling_);
    form->addRow(QString(), samplingError_);
    form->addRow(tr("&Patch grid:"), pooling_);
    form->addRow(tr("&Language:"), language_);
    form->addRow(QString(),
                 new QLabel(tr("A new language applies when ONCE Studio restarts."), this));
    auto* buttons =
        new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, Qt::Horizontal, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    // The dialog grows with a wrapped error line instead of squeezing it (issue 16: the
    // sampling error was cut off); word-wrapped labels need the height-for-width layout.
    layout->setSizeConstraint(QLayout::SetMinimumSize);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
}

PipelineSettings SettingsDialog::pipeline() const {
    PipelineSettings p;
    p.backbone = backbone_->currentData().toString();
    p.device = device_->currentData().toString();
    p.dtype = dtype_->currentData().toString();
    p.threads = threads_->value();
    p.sampling = sampling_->text().trimmed();
    p.poolStride = pooling_->currentData().toInt();
    return p;
}

QString SettingsDialog::language() const {
    return language_->currentData().toString();
}

void SettingsDialog::accept() {
    try {
        once::SamplingRule::parse(sampling_->text().trimmed().toStdString());
    } catch (const std::exception& e) {
        // The core's message names the rule and what it expected (in English: it is shared
        // with the CLI); the studio's explanation around it is translated.
        samplingError_->setText(
            tr("This frame sampling rule is not valid, so the settings were not applied. "
               "Examples: uniform:32, fps:1, fps:2:8:64@0-30.\n%1")
                .arg(QString::fromUtf8(e.what())));
        samplingError_->setVisible(true);
        layout()->activate();
        adjustSize();
        sampling_->setFocus();
        sampling_->selectAll();
        return;
    }
    QDialog::accept();
}

}  // namespace once::studio
