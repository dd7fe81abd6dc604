#include "compare/ab_compare_view.h"

#include <ATen/ATen.h>

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include "compare/ab_answers.h"
#include "compare/difference_view.h"
#include "compress/compression.h"
#include "compress/prepared_compressor.h"
#include "overlay/frame_overlay_view.h"
#include "overlay/group_overlay.h"
#include "session/methods.h"
#include "session/studio_session.h"
#include "tasks/background_task.h"
#include "tasks/latest_request.h"

namespace once::studio {
namespace {

/// A side's compressor: the session's prepared one, else prepared now on the worker.
struct SideJob {
    QString method;
    std::int64_t budget = 0;
    std::shared_ptr<once::PreparedCompressor> prepared;  ///< null: prepare `spec`
    once::CompressorSpec spec;
    std::shared_ptr<const once::Codebook> codebook;
};

QString legendSwatch(std::uint8_t state, const QString& text) {
    return QStringLiteral("<span style=\"background-color:%1\">&nbsp;&nbsp;&nbsp;</span>&nbsp;%2")
        .arg(DifferenceView::stateColour(state).name(), text.toHtmlEscaped());
}

}  // namespace

AbCompareView::AbCompareView(StudioSession* session, GroupOverlay* frames, QWidget* parent)
    : QWidget(parent),
      session_(session),
      frames_(frames),
      runner_(new LatestRequestRunner(this)),
      answers_(new AbAnswers(session, this)) {
    auto* grid = new QGridLayout(this);
    grid->addWidget(buildSide(A, tr("A")), 0, 0);
    grid->addWidget(buildSide(B, tr("B")), 0, 1);
    difference_ = new DifferenceView(sides_[A].overlay, this);
    differenceLabel_ = new QLabel(this);
    differenceLabel_->setWordWrap(true);
    differenceLabel_->setTextFormat(Qt::RichText);
    auto* diffBox = new QVBoxLayout;
    diffBox->addWidget(new QLabel(tr("<b>Difference</b> (B compared with A)"), this));
    diffBox->addWidget(difference_, 1);
    diffBox->addWidget(differenceLabel_);
    // Three columns: the view lives in the wide, low bottom dock area.
    grid->addLayout(diffBox, 0, 2);
    grid->addWidget(answers_, 1, 0, 1, 2);
    grid->setRowStretch(0, 1);
    for (int c = 0; c < 3; ++c) {
        grid->setColumnStretch(c, 1);
    }

    connect(session_, &StudioSession::videoChanged, this, &AbCompareView::onVideo);
    connect(session_, &StudioSession::codebookChanged, this, &AbCompareView::onVideo);
    connect(frames_, &GroupOverlay::currentFrameChanged, this, [this](int t) {
        for (SideWidgets& side : sides_) {
            side.overlay->setCurrentFrame(t);
        }
    });
    connect(runner_, &LatestRequestRunner::failed, this,
            [this](const QString& message) { clearResults(message); });
    onVideo();
}

AbCompareView::~AbCompareView() = default;  // the runner and the answers cancel and wait

BackgroundTask* AbCompareView::task() const {
    return runner_->task();
}

QWidget* AbCompareView::buildSide(Side s, const QString& title) {
    SideWidgets& side = sides_[s];
    auto* box = new QWidget(this);
    side.method = new QComboBox(box);
    side.method->setAccessibleName(tr("Method of side %1").arg(title));
    side.budget = new QSpinBox(box);
    side.budget->setAccessibleName(tr("Budget of side %1").arg(title));
    side.budget->setKeyboardTracking(false);
    side.overlay = new GroupOverlay(box);
    side.view = new FrameOverlayView(side.overlay, box);
    side.stats = new QLabel(box);
    side.stats->setWordWrap(true);
    // One row of settings: the bottom dock is low, the frame needs the height.
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(QStringLiteral("<b>%1</b>").arg(title), box));
    row->addWidget(side.method, 1);
    auto* budgetLabel = new QLabel(tr("&Budget:"), box);
    budgetLabel->setBuddy(side.budget);
    row->addWidget(budgetLabel);
    row->addWidget(side.budget);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(side.view, 1);
    layout->addWidget(side.stats);
    connect(side.method, &QComboBox::currentIndexChanged, this, [this, s] {
        refreshChoices(s);
        sideChanged(s);
    });
    connect(side.budget, &QSpinBox::valueChanged, this, [this, s] { sideChanged(s); });
    return box;
}

void AbCompareView::onVideo() {
    for (int s = 0; s < 2; ++s) {
        SideWidgets& side = sides_[static_cast<std::size_t>(s)];
        side.overlay->setVideo(session_->video());
        side.overlay->setCurrentFrame(frames_->currentFrame());
        const QSignalBlocker blockMethod(side.method);
        const QString keep = side.method->currentData().toString();
        side.method->clear();
        for (const QString& m : methods::all()) {
            side.method->addItem(methods::title(m), m);
        }
        // First use: A is what the session shows, B the same method at half its budget.
        const QString method = keep.isEmpty() ? session_->method() : keep;
        side.method->setCurrentIndex(std::max(0, side.method->findData(method)));
        refreshChoices(static_cast<Side>(s));
    }
    if (sides_[A].result == nullptr && sides_[B].result == nullptr) {
        const QSignalBlocker blockA(sides_[A].budget), blockB(sides_[B].budget);
        sides_[A].budget->setValue(static_cast<int>(session_->budget()));
        sides_[B].budget->setValue(
            static_cast<int>(std::max<std::int64_t>(1, session_->budget() / 2)));
    }
    clearResults({});
    for (const Side s : {A, B}) {
        answers_->setSide(s, sides_[s].method->currentData().toString(), sides_[s].budget->value());
    }
    stale_ = true;
    compare();
}

void AbCompareView::sideChanged(Side s) {
    answers_->setSide(s, sides_[s].method->currentData().toString(), sides_[s].budget->value());
    stale_ = true;
    compare();
}

void AbCompareView::refreshChoices(Side s) {
    SideWidgets& side = sides_[s];
    const bool codebook = session_->codebook() != nullptr;
    if (auto* model = qobject_cast<QStandardItemModel*>(side.method->model())) {
        for (int i = 0; i < side.method->count(); ++i) {
            model->item(i)->setEnabled(
                codebook || !methods::needsCodebook(side.method->itemData(i).toString()));
        }
    }
    const once::BudgetRange range = session_->budgetRange(side.method->currentData().toString());
    const QSignalBlocker block(side.budget);
    side.budget->setRange(static_cast<int>(std::max<std::int64_t>(1, range.min)),
                          static_cast<int>(std::max<std::int64_t>(1, range.max)));
}

void AbCompareView::setSide(Side s, const QString& method, std::int64_t budget) {
    SideWidgets& side = sides_[s];
    {
        const QSignalBlocker blockMethod(side.method), blockBudget(side.budget);
        side.method->setCurrentIndex(std::max(0, side.method->findData(method)));
        refreshChoices(s);
        side.budget->setValue(static_cast<int>(budget));
    }
    sideChanged(s);
}

void AbCompareView::setActive(bool active) {
    active_ = active;
    compare();
}

void AbCompareView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    compare();
}

void AbCompareView::clearResults(const QString& why) {
    for (SideWidgets& side : sides_) {
        side.result.reset();
        side.overlay->setResult(nullptr);
        side.stats->setText(why);
    }
    diff_ = {};
    difference_->setStates({});
    differenceLabel_->setText(why);
}

void AbCompareView::compare() {
    if (!stale_ || !active_ || !isVisible() || session_->video().isEmpty()) {
        return;
    }
    stale_ = false;
    std::array<SideJob, 2> jobs;
    for (int s = 0; s < 2; ++s) {
        SideJob& job = jobs[static_cast<std::size_t>(s)];
        const SideWidgets& side = sides_[static_cast<std::size_t>(s)];
        job.method = side.method->currentData().toString();
        job.budget = side.budget->value();
        if (methods::needsCodebook(job.method) && !session_->codebook()) {
            runner_->cancel();  // a comparison still running must not replace the message
            clearResults(tr("%1 needs a codebook: open one (File ▸ Open Codebook…).")
                             .arg(methods::title(job.method)));
            return;
        }
        job.prepared = session_->preparedCompressor(job.method);
        job.codebook = methods::needsCodebook(job.method) ? session_->codebook() : nullptr;
        job.spec.method = job.method.toStdString();
        job.spec.params = methods::params(job.method, session_->variant());
        job.spec.assign.device = session_->pipelineSettings().device.toStdString();
    }
    const once::EncodedVideo video = session_->video();
    const std::uint64_t generation = session_->codebookGeneration();
    runner_->run(
        tr("Comparing %1 and %2")
            .arg(methods::title(jobs[0].method), methods::title(jobs[1].method)),
        [=, this](once::Progress& progress) -> BackgroundTask::Deliver {
            std::array<std::shared_ptr<once::PreparedCompressor>, 2> compressors;
            std::array<std::shared_ptr<const once::CompressionResult>, 2> results;
            std::array<bool, 2> preparedNow{false, false};
            for (std::size_t s = 0; s < 2; ++s) {
                compressors[s] = jobs[s].prepared;
                if (!compressors[s] && s == 1 && jobs[1].method == jobs[0].method) {
                    compressors[s] = compressors[0];  // one method at two budgets: prepared once
                }
                if (!compressors[s]) {
                    compressors[s] = once::PreparedCompressor::prepare(
                        jobs[s].spec, jobs[s].codebook, video, &progress);
                    preparedNow[s] = true;
                }
                results[s] = compressors[s]->compress(jobs[s].budget);
            }
            once::GroupDifference diff =
                once::compareGroupings(results[0]->groupOfToken, results[1]->groupOfToken);
            return [=, this, diff = std::move(diff)]() mutable {
                if (generation != session_->codebookGeneration()) {
                    return;  // another video came meanwhile: onVideo() compares again
                }
                for (std::size_t s = 0; s < 2; ++s) {
                    if (preparedNow[s]) {
                        session_->installPrepared(compressors[s]);
                    }
                    SideWidgets& side = sides_[s];
                    side.result = results[s];
                    side.overlay->setResult(results[s], compressors[s]->assignment());
                    const auto& t = results[s]->seconds;
                    side.stats->setText(
                        tr("%1 at B = %2: %3 output tokens of %4 · compressed in %5 ms%6")
                            .arg(methods::title(jobs[s].method))
                            .arg(results[s]->budget)
                            .arg(results[s]->numOutputs)
                            .arg(results[s]->numTokens)
                            .arg(t.total() * 1000, 0, 'f', 2)
                            .arg(preparedNow[s] ? tr(" (prepared now in %1 ms)")
                                                      .arg(compressors[s]->prepareMs(), 0, 'f', 1)
                                                : QString()));
                }
                diff_ = std::move(diff);
                difference_->setStates(diff_.state);
                differenceLabel_->setText(
                    tr("%1 % of the tokens grouped on both sides kept their group.")
                        .arg(diff_.keptShare() * 100, 0, 'f', 1) +
                    QStringLiteral("<br>") +
                    QStringList{legendSwatch(once::GroupDifference::Moved,
                                             tr("moved: %1").arg(diff_.moved)),
                                legendSwatch(once::GroupDifference::DroppedInA,
                                             tr("dropped by A only: %1").arg(diff_.droppedInA)),
                                legendSwatch(once::GroupDifference::DroppedInB,
                                             tr("dropped by B only: %1").arg(diff_.droppedInB)),
                                legendSwatch(once::GroupDifference::DroppedInBoth,
                                             tr("by both: %1").arg(diff_.droppedInBoth))}
                        .join(QStringLiteral(" &nbsp; ")));
            };
        });
}

QString AbCompareView::statsText(Side s) const {
    return sides_[s].stats->text();
}

QString AbCompareView::differenceText() const {
    return differenceLabel_->text();
}

}  // namespace once::studio
