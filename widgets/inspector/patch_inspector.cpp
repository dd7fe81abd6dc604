#include "inspector/patch_inspector.h"

#include <ATen/ATen.h>

#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "compress/compression.h"
#include "overlay/group_overlay.h"
#include "session/studio_session.h"
#include "tasks/background_task.h"
#include "tasks/latest_request.h"

namespace once::studio {
namespace {

QString number(float v) {
    return std::isnan(v) ? QStringLiteral("—") : QString::number(static_cast<double>(v), 'f', 4);
}

QLabel* valueLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

}  // namespace

PatchInspector::PatchInspector(StudioSession* session, GroupOverlay* overlay, QWidget* parent)
    : QWidget(parent),
      session_(session),
      overlay_(overlay),
      runner_(new LatestRequestRunner(this)) {
    heading_ = new QLabel(this);
    heading_->setWordWrap(true);
    group_ = valueLabel(this);
    codeword_ = valueLabel(this);
    residual_ = valueLabel(this);
    output_ = valueLabel(this);
    count_ = new QSpinBox(this);
    count_->setRange(1, once::TokenInspectionLimits::kMaxNearest);
    count_->setValue(kDefaultNearest);
    count_->setAccessibleName(tr("Nearest codewords listed"));
    table_ = new QTableWidget(0, 4, this);
    table_->setHorizontalHeaderLabels(
        {tr("Rank"), tr("Codeword"), tr("Cosine"), tr("In this result")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setToolTip(tr("Double-click a codeword to highlight its patches in every frame."));

    auto* form = new QFormLayout;
    form->addRow(tr("Output token:"), group_);
    form->addRow(tr("Group codeword:"), codeword_);
    form->addRow(tr("Residual:"), residual_);
    form->addRow(tr("Cosine to its output token:"), output_);
    form->addRow(tr("&Nearest codewords:"), count_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addLayout(form);
    layout->addWidget(table_, 1);

    connect(overlay_, &GroupOverlay::inspectedTokenChanged, this, &PatchInspector::refresh);
    connect(session_, &StudioSession::resultChanged, this, &PatchInspector::refresh);
    connect(session_, &StudioSession::codebookChanged, this, &PatchInspector::refresh);
    connect(count_, &QSpinBox::valueChanged, this, &PatchInspector::refresh);
    connect(runner_, &LatestRequestRunner::failed, this,
            [this](const QString& message) { showMessage(message); });
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        if (row >= 0 && row < static_cast<int>(shown_.nearest.size())) {
            const std::int64_t id = shown_.nearest[static_cast<std::size_t>(row)].id;
            overlay_->highlightCodeword(id);
            emit codewordRequested(id);
        }
    });
    refresh();
}

PatchInspector::~PatchInspector() = default;  // the runner cancels and waits

BackgroundTask* PatchInspector::task() const {
    return runner_->task();
}

bool PatchInspector::isSelectedCodeword(std::int64_t codeword) const {
    return std::binary_search(selected_.begin(), selected_.end(), codeword);
}

QString PatchInspector::detailText() const {
    return QStringList{group_->text(), codeword_->text(), residual_->text(), output_->text()}.join(
        QLatin1Char('\n'));
}

void PatchInspector::refresh() {
    const int token = overlay_->inspectedToken();
    const auto result = session_->result();
    const at::Tensor features = session_->video().features;
    if (token < 0) {
        showMessage(tr("Click a patch in the frame to inspect it."));
        return;
    }
    if (!result) {
        showMessage(tr("No compression on screen yet: the patch is inspected when it arrives."));
        return;
    }
    if (!features.defined()) {
        showMessage(tr("The features of this video are not on this machine."));
        return;
    }
    const auto codebook = session_->codebook();
    const int k = count_->value();
    runner_->run(tr("Inspecting a patch"), [=, this](once::Progress&) -> BackgroundTask::Deliver {
        // A codebook of other features is core's error to name (shown in place of the list).
        once::TokenInspection inspection =
            once::inspectToken(features.to(at::kCPU), codebook.get(), *result, token, k);
        std::vector<std::int64_t> selected;
        if (result->codewordIds.defined()) {
            const at::Tensor ids = result->codewordIds.to(at::kLong).contiguous();
            selected.assign(ids.data_ptr<std::int64_t>(),
                            ids.data_ptr<std::int64_t>() + ids.numel());
            std::sort(selected.begin(), selected.end());
        }
        const std::int64_t outputs = result->numOutputs;
        return [this, inspection, selected, outputs] {
            showInspection(inspection, selected, outputs);
        };
    });
}

void PatchInspector::showMessage(const QString& text) {
    runner_->cancel();  // an inspection still being computed would replace the message
    shown_ = {};
    selected_.clear();
    heading_->setText(text);
    for (QLabel* label : {group_, codeword_, residual_, output_}) {
        label->clear();
    }
    table_->setRowCount(0);
    emit updated();
}

void PatchInspector::showInspection(const once::TokenInspection& inspection,
                                    const std::vector<std::int64_t>& selected,
                                    std::int64_t outputs) {
    shown_ = inspection;
    selected_ = selected;
    const int p = std::max(1, overlay_->patchesPerFrame());
    const int token = static_cast<int>(inspection.token);
    const int patch = token % p, gw = std::max(1, overlay_->gridW());
    // Frames and output tokens counted from 1 as the frame view and the hover count them; row and
    // column from 0 as the status bar gives them.
    heading_->setText(tr("Frame %1 · row %2, column %3 · token %4")
                          .arg(token / p + 1)
                          .arg(patch / gw)
                          .arg(patch % gw)
                          .arg(token));
    if (inspection.outputRow >= 0) {
        group_->setText(tr("%1 of %2, pooled from a group of %n token(s)", "",
                           static_cast<int>(inspection.groupSize))
                            .arg(inspection.outputRow + 1)
                            .arg(outputs));
    } else {
        group_->setText(tr("none: the token was dropped and feeds no output token"));
    }
    const std::int64_t kHat = inspection.nearest.empty() ? -1 : inspection.nearest.front().id;
    if (inspection.groupCodeword < 0) {
        codeword_->setText(
            inspection.outputRow >= 0
                ? tr("none: this method groups tokens without codewords")
                : tr("none (its nearest codeword k̂ = %1 was not selected)").arg(kHat));
    } else if (inspection.groupCodewordRank == 0) {
        codeword_->setText(tr("%1, its nearest codeword k̂ (cosine %2)")
                               .arg(inspection.groupCodeword)
                               .arg(number(inspection.cosineToGroupCodeword)));
    } else {
        codeword_->setText(tr("%1, rank %2 of its codewords (cosine %3): reassigned, its nearest "
                              "k̂ = %4 was not among the selected")
                               .arg(inspection.groupCodeword)
                               .arg(inspection.groupCodewordRank + 1)
                               .arg(number(inspection.cosineToGroupCodeword))
                               .arg(kHat));
    }
    residual_->setText(std::isnan(inspection.residual)
                           ? tr("— (this method has no codebook)")
                           : tr("%1 (1 − cos to its codeword)").arg(number(inspection.residual)));
    output_->setText(number(inspection.cosineToOutput));

    table_->setRowCount(static_cast<int>(inspection.nearest.size()));
    for (int i = 0; i < table_->rowCount(); ++i) {
        const once::NearestCodeword& c = inspection.nearest[static_cast<std::size_t>(i)];
        QStringList note;
        if (c.id == inspection.groupCodeword) {
            note << tr("its group");
        } else if (isSelectedCodeword(c.id)) {
            note << tr("selected");
        }
        const QStringList cells{QString::number(i + 1), QString::number(c.id), number(c.cosine),
                                note.join(QStringLiteral(", "))};
        for (int col = 0; col < cells.size(); ++col) {
            auto* item = new QTableWidgetItem(cells[col]);
            if (col == 1) {
                item->setForeground(GroupOverlay::codewordColour(c.id).darker(130));
            }
            table_->setItem(i, col, item);
        }
    }
    table_->resizeColumnsToContents();
    emit updated();
}

}  // namespace once::studio
