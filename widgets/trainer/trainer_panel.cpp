#include "trainer/trainer_panel.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QToolButton>
#include <QVBoxLayout>

#include "charts/chart_legend.h"
#include "models/backbone.h"
#include "models/visual_encoder.h"
#include "tasks/background_task.h"
#include "tasks/task_status.h"
#include "trainer/trainer_options_form.h"
#include "trainer/training_history.h"
#include "trainer/training_job.h"

namespace once::studio {
namespace {
enum Stage { kStageA = 0, kStageB = 1 };

// "epoch 1 loss 0.52 rec 0.4 usage 0.01 tau 0.99 lr 0.001" → value after `key`, or NaN.
double detailValue(const QString& detail, const QString& key) {
    const QStringList words = detail.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (int i = 0; i + 1 < words.size(); ++i) {
        if (words[i] == key) {
            bool ok = false;
            const double v = words[i + 1].toDouble(&ok);
            return ok ? v : std::nan("");
        }
    }
    return std::nan("");
}

struct CurveStyle {
    QString name;
    QPen pen;
    QCPScatterStyle::ScatterShape marker;
    double markerSize;
};

// Empties `plot` and adds its two curves, `left` on the left axis and `right` on the right;
// markers too, since a line through one point draws nothing.
std::pair<QCPGraph*, QCPGraph*> startCurves(QCustomPlot* plot, const QFont& font,
                                            const CurveStyle& left, const CurveStyle& right) {
    plot->clearGraphs();
    plot->clearItems();
    // Steps and epochs are whole numbers: ticks at integer multiples only (issue 30).
    auto whole = QSharedPointer<QCPAxisTickerFixed>::create();
    whole->setTickStep(1.0);
    whole->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot->xAxis->setTicker(whole);
    plot->legend->setVisible(true);
    plot->legend->setFont(font);
    auto add = [plot](QCPAxis* axis, const CurveStyle& style) {
        auto* graph = plot->addGraph(plot->xAxis, axis);
        graph->setName(style.name);
        graph->setPen(style.pen);
        graph->setScatterStyle(QCPScatterStyle(style.marker, style.markerSize));
        return graph;
    };
    return {add(plot->yAxis, left), add(plot->yAxis2, right)};
}
}  // namespace

TrainerPanel::TrainerPanel(QWidget* parent)
    : QWidget(parent),
      task_(new BackgroundTask(this)),
      progressA_(new QtProgress(this)),
      progressB_(new QtProgress(this)) {
    options_ = new TrainerOptionsForm(this);
    backbone_ = new QComboBox(this);
    for (const std::string& name : once::visualEncoderNames()) {
        backbone_->addItem(QString::fromStdString(name), QString::fromStdString(name));
    }
    corpus_ = new QLineEdit(this);
    corpus_->setPlaceholderText(tr("corpus.jsonl or a folder of videos"));
    cache_ = new QLineEdit(this);
    cache_->setPlaceholderText(tr("folder for the Stage-A cache"));
    output_ = new QLineEdit(this);
    output_->setPlaceholderText(tr("codebook.safetensors"));
    connect(corpus_, &QLineEdit::textChanged, this, [this] {
        if (!task_->isRunning()) {
            clearRunDisplay();
        }
        // isModified(): typed by the user (setText(), a browse dialog or a drop clears it).
        suggestPathsFromCorpus(corpus_->isModified());
        updateButtons();
    });
    connect(corpus_, &QLineEdit::editingFinished, this, [this] { suggestPathsFromCorpus(false); });
    connect(cache_, &QLineEdit::textChanged, this, &TrainerPanel::updateButtons);

    auto* inputs = new QFormLayout;
    inputs->addRow(tr("&Corpus:"), createPathRow(corpus_, false, false,
                                                 tr("Corpus manifest (*.jsonl);;All files (*)")));
    inputs->addRow(tr("&Backbone:"), backbone_);
    inputs->addRow(tr("Stage-A c&ache:"), createPathRow(cache_, true, false, QString()));
    inputs->addRow(tr("&Output codebook:"),
                   createPathRow(output_, false, true, tr("Codebook (*.safetensors)")));

    start_ = new QPushButton(tr("&Train"), this);
    cancel_ = new QPushButton(tr("&Cancel"), this);
    open_ = new QPushButton(tr("Open in &Main View"), this);
    open_->setToolTip(tr("Load the finished codebook into the overlay and the charts"));
    connect(start_, &QPushButton::clicked, this, &TrainerPanel::start);
    connect(cancel_, &QPushButton::clicked, this, &TrainerPanel::cancel);
    connect(open_, &QPushButton::clicked, this, [this] { emit openCodebookRequested(finished_); });
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(start_);
    buttons->addWidget(cancel_);
    buttons->addStretch(1);
    buttons->addWidget(open_);

    barA_ = new QProgressBar(this);
    barB_ = new QProgressBar(this);
    etaA_ = new QLabel(this);
    etaB_ = new QLabel(this);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* progress = new QFormLayout;
    auto* rowA = new QHBoxLayout;
    rowA->addWidget(barA_, 1);
    rowA->addWidget(etaA_);
    auto* rowB = new QHBoxLayout;
    rowB->addWidget(barB_, 1);
    rowB->addWidget(etaB_);
    progress->addRow(tr("Stage A:"), rowA);
    progress->addRow(tr("Stage B:"), rowB);

    curves_ = new QCustomPlot(this);
    curves_->setMinimumHeight(160);
    placeLegendBelow(curves_);
    resetCurves();

    // One column: the dock scrolls the whole panel. A scroll area of its own for the form was
    // squeezed to ~70 px between the chart and the buttons at 1366 × 768 (issue 30).
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(inputs);
    layout->addWidget(options_);
    layout->addLayout(buttons);
    layout->addLayout(progress);
    layout->addWidget(status_);
    layout->addWidget(curves_, 2);

    connect(progressA_, &QtProgress::progressed, this,
            [this](const ProgressUpdate& u) { onStageProgress(kStageA, u); });
    connect(progressB_, &QtProgress::progressed, this,
            [this](const ProgressUpdate& u) { onStageProgress(kStageB, u); });
    connect(task_, &BackgroundTask::cancelled, this, [this] {
        markStopped(tr("cancelled"));
        status_->setText(tr("Cancelled. Train again with the same cache folder to resume."));
    });
    connect(task_, &BackgroundTask::failed, this, [this](const QString& message) {
        markStopped(tr("failed"));
        status_->setText(tr("Failed: %1").arg(message));
    });
    connect(task_, &BackgroundTask::finished, this, &TrainerPanel::updateButtons);
    updateButtons();
}

TrainerPanel::~TrainerPanel() {
    shutdown();
}

void TrainerPanel::shutdown() {
    task_->cancelAndWait();
}

QString TrainerPanel::statusText() const {
    return status_->text();
}

int TrainerPanel::lossPoints() const {
    return curves_->graphCount() > 0 ? curves_->graph(0)->dataCount() : 0;
}

QString TrainerPanel::etaText(int stage) const {
    return (stage == kStageA ? etaA_ : etaB_)->text();
}

void TrainerPanel::clearRunDisplay() {
    for (QProgressBar* bar : {barA_, barB_}) {
        bar->setRange(0, 1000);
        bar->setValue(0);
        bar->resetFormat();
    }
    etaA_->clear();
    etaB_->clear();
    status_->clear();
    finished_.clear();
    step_ = 0;
    resetCurves();
    updateButtons();
}

void TrainerPanel::markStopped(const QString& why) {
    etaA_->clear();
    etaB_->clear();
    for (QProgressBar* bar : {barA_, barB_}) {
        if (bar->maximum() == 0) {  // busy indicator: no fraction to keep
            bar->setRange(0, 1000);
            bar->setValue(0);
        }
        //: A progress bar after its run stopped, e.g. "Stage A: cancelled at 56%".
        bar->setFormat(tr("%1 at %p%").arg(why));
    }
}

bool TrainerPanel::showCodebookHistory(const std::map<std::string, std::string>& metadata,
                                       const QString& source) {
    return showHistory(TrainingHistory::fromMetadata(metadata), source);
}

bool TrainerPanel::showHistory(const TrainingHistory& history, const QString& source) {
    if (history.empty() || task_->isRunning()) {
        return false;
    }
    // Per epoch, from the file: the live step curve is thinned (a fast Stage B may send no
    // point at all), the recorded history is complete.
    const auto [loss, criterion] =
        startCurves(curves_, font(),
                    {tr("Mean Stage-B loss per epoch"), QPen(QColor(40, 100, 180), 1.5),
                     QCPScatterStyle::ssDisc, 6},
                    {tr("Selection criterion (weighted cosine error)"),
                     QPen(QColor(200, 80, 40), 1.5, Qt::DashLine), QCPScatterStyle::ssSquare, 6});
    for (const TrainingHistory::Epoch& e : history.epochs) {
        if (e.meanLoss >= 0) {
            loss->addData(e.epoch, e.meanLoss);
        }
        criterion->addData(e.epoch, e.criterion);
    }
    if (history.selectedEpoch >= 0) {
        auto* line = new QCPItemStraightLine(curves_);
        line->point1->setCoords(history.selectedEpoch, 0);
        line->point2->setCoords(history.selectedEpoch, 1);
        line->setPen(QPen(QColor(60, 150, 60), 1.2, Qt::DotLine));
    }
    curves_->xAxis->setLabel(tr("Stage-B epoch (0: initialiser)"));
    curves_->yAxis->setLabel(history.hasLoss() ? tr("Loss") : tr("Loss (not recorded)"));
    curves_->yAxis2->setVisible(true);
    curves_->yAxis2->setLabel(tr("Criterion"));
    curves_->rescaleAxes();
    // Room around single points so their markers are not cut by the axes.
    curves_->xAxis->setRange(curves_->xAxis->range().lower - 0.5,
                             curves_->xAxis->range().upper + 0.5);
    for (QCPAxis* axis : {curves_->yAxis, curves_->yAxis2}) {
        const QCPRange r = axis->range();
        const double pad = std::max(r.size() * 0.1, std::abs(r.upper) * 0.05 + 1e-6);
        axis->setRange(r.lower - pad, r.upper + pad);
    }
    curves_->setToolTip(history.selectedEpoch >= 0
                            ? tr("Stage-B history recorded in %1; epoch %2 (dotted) was selected.")
                                  .arg(source)
                                  .arg(history.selectedEpoch)
                            : tr("Stage-B history recorded in %1.").arg(source));
    curves_->replot();
    return true;
}

void TrainerPanel::setPipelineSettings(const PipelineSettings& settings, const QString& modelDir) {
    pipeline_ = settings;
    modelDir_ = modelDir;
    const int i = backbone_->findData(settings.backbone);
    if (i >= 0 && !task_->isRunning()) {
        backbone_->setCurrentIndex(i);
    }
}

void TrainerPanel::suggestPathsFromCorpus(bool typing) {
    // Suggest the cache and the output beside the corpus once the corpus exists: while typing,
    // only a complete file name (every folder on the way to it exists too, so a folder waits
    // for Enter or the focus leaving); a chosen folder at once. A field the user filled is
    // kept; one holding the last suggestion follows the corpus (issue 16: the fields were filled
    // from the first character typed, "//once_stage_a_cache", and then never updated).
    const QString text = corpus_->text().trimmed();
    if (text.isEmpty()) {
        return;
    }
    const QFileInfo f(text);
    if (!f.exists() || (typing && !f.isFile())) {
        return;
    }
    // Beside the corpus, never inside a folder corpus: the next scan would take the cache's
    // shards and the codebook for corpus input (issue 30). A folder's outputs are named after
    // it in its parent; a manifest's go beside it (its entries are listed, not scanned).
    const QFileInfo clean(QDir::cleanPath(f.absoluteFilePath()));  // "clips/" is "clips"
    const QDir base = clean.absoluteDir();
    const QString stem = clean.isDir() ? clean.fileName() + QLatin1Char('_') : QString();
    auto suggest = [](QLineEdit* edit, QString& last, const QString& value) {
        if (edit->text().isEmpty() || edit->text() == last) {
            last = value;
            edit->setText(value);
        }
    };
    suggest(cache_, suggestedCache_,
            QDir::cleanPath(base.filePath(stem + QStringLiteral("once_stage_a_cache"))));
    suggest(output_, suggestedOutput_,
            QDir::cleanPath(base.filePath(stem + QStringLiteral("codebook.safetensors"))));
}

QWidget* TrainerPanel::createPathRow(QLineEdit* edit, bool folder, bool save,
                                     const QString& filter) {
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    auto* browse = new QToolButton(row);
    browse->setText(tr("…"));
    browse->setToolTip(tr("Browse"));
    layout->addWidget(browse);
    if (!folder && !save) {
        // The corpus may be a manifest file or a folder: offer both.
        auto* browseFolder = new QToolButton(row);
        browseFolder->setText(tr("Folder…"));
        layout->addWidget(browseFolder);
        connect(browseFolder, &QToolButton::clicked, this, [this, edit] {
            const QString dir =
                QFileDialog::getExistingDirectory(this, tr("Corpus Folder"), edit->text());
            if (!dir.isEmpty()) {
                edit->setText(dir);
            }
        });
    }
    connect(browse, &QToolButton::clicked, this, [this, edit, folder, save, filter] {
        QString path;
        if (folder) {
            path = QFileDialog::getExistingDirectory(this, tr("Choose Folder"), edit->text());
        } else if (save) {
            path = QFileDialog::getSaveFileName(this, tr("Save Codebook As"), edit->text(), filter);
        } else {
            path = QFileDialog::getOpenFileName(this, tr("Choose File"), edit->text(), filter);
        }
        if (!path.isEmpty()) {
            edit->setText(path);
        }
    });
    return row;
}

void TrainerPanel::updateButtons() {
    const bool running = task_->isRunning();
    const bool canStart = !running && !corpus_->text().isEmpty();
    // Enable first and hand the focus over: a focus widget that is disabled passes the focus on
    // along the chain, and the dock's scroll area scrolls to where it lands (issue 30: the dock
    // jumped back to the form on Train, Cancel and Resume).
    start_->setEnabled(start_->isEnabled() || canStart);
    cancel_->setEnabled(cancel_->isEnabled() || running);
    if (start_->hasFocus() && !canStart && running) {
        cancel_->setFocus(Qt::OtherFocusReason);
    } else if (cancel_->hasFocus() && !running && canStart) {
        start_->setFocus(Qt::OtherFocusReason);
    }
    start_->setEnabled(canStart);
    cancel_->setEnabled(running);
    // A finished run's cache is complete: training again is not resuming it (issue 30).
    const bool finishedHere =
        !finished_.isEmpty() && QDir::cleanPath(finishedCache_) == QDir::cleanPath(cache_->text());
    start_->setText(!running && !finishedHere && hasResumableCache(cache_->text())
                        ? tr("&Resume")
                        : tr("&Train"));
    open_->setEnabled(!running && !finished_.isEmpty() && QFileInfo::exists(finished_));
}

void TrainerPanel::resetCurves() {
    curves_->setToolTip(QString());
    startCurves(
        curves_, font(), {tr("Loss"), QPen(QColor(40, 100, 180), 1.5), QCPScatterStyle::ssDisc, 4},
        {tr("Code-usage term"), QPen(QColor(200, 80, 40), 1.5), QCPScatterStyle::ssCircle, 4});
    curves_->xAxis->setLabel(tr("Stage-B step"));
    curves_->yAxis->setLabel(tr("Loss"));
    curves_->yAxis2->setVisible(true);
    curves_->yAxis2->setLabel(tr("Code usage"));
    // A new run starts on fresh axes, not the last run's ranges (issue 30).
    for (QCPAxis* axis : {curves_->xAxis, curves_->yAxis, curves_->yAxis2}) {
        axis->setRange(0, 1);
    }
    curves_->replot();
}

void TrainerPanel::start() {
    if (task_->isRunning()) {
        return;
    }
    TrainingRequest r;
    r.corpus = corpus_->text().trimmed();
    r.cacheDir = cache_->text().trimmed();
    r.output = output_->text().trimmed();
    r.modelDir = modelDir_;
    r.pipeline = pipeline_;
    r.pipeline.backbone = backbone_->currentData().toString();
    // A sampling left at the studio backbone's default becomes the trainer backbone's (the
    // paper samples Qwen3.5 at fps:2:4:256 and LLaVA-OneVision at uniform:32).
    if (r.pipeline.backbone != pipeline_.backbone &&
        pipeline_.sampling.toStdString() ==
            once::defaultSampling(pipeline_.backbone.toStdString())) {
        r.pipeline.sampling =
            QString::fromStdString(once::defaultSampling(r.pipeline.backbone.toStdString()));
    }
    r.sketch = options_->sketchOptions();
    r.fit = options_->fitConfig();
    r.storeDtype = options_->storeDtype();
    const bool resuming = hasResumableCache(r.cacheDir);
    clearRunDisplay();
    status_->setText(resuming ? tr("Resuming from the Stage-A cache…") : tr("Training…"));
    QtProgress* pa = progressA_;
    QtProgress* pb = progressB_;
    task_->start(
        tr("Training a codebook"),
        [this, r, pa, pb](once::Progress& progress) -> std::function<void()> {
            // One adapter per stage, both tied to the task's cancel token.
            once::Progress stageA = pa->makeProgress(progress.token());
            once::Progress stageB = pb->makeProgress(progress.token());
            const TrainingOutcome out = runTraining(r, stageA, stageB);
            return [this, out, r] {
                finished_ = out.codebook;
                finishedCache_ = r.cacheDir;
                for (QProgressBar* bar : {barA_, barB_}) {
                    bar->setRange(0, 1000);
                    bar->setValue(1000);
                    bar->resetFormat();
                }
                etaA_->clear();
                etaB_->clear();
                // The history the file records (the task no longer counts as running here).
                showHistory(TrainingHistory::fromJson(out.historyJson, out.selectedEpoch),
                            QFileInfo(out.codebook).fileName());
                status_->setText(tr("Finished: %1 (%2 codewords × %3, epoch %4 selected; %5 of %6 "
                                    "videos sketched, %7 failed).")
                                     .arg(out.codebook)
                                     .arg(out.codewords)
                                     .arg(out.dim)
                                     .arg(out.selectedEpoch)
                                     .arg(out.stageA.done)
                                     .arg(out.stageA.videos)
                                     .arg(out.stageA.failed));
            };
        });
    updateButtons();
}

void TrainerPanel::cancel() {
    task_->cancel();
    status_->setText(tr("Cancelling…"));
}

void TrainerPanel::onStageProgress(int stage, const ProgressUpdate& u) {
    if (!task_->isRunning()) {
        return;  // queued before a cancel: the run's numbers are no longer current
    }
    if (stage == kStageB) {
        etaA_->clear();  // Stage A is over once Stage B reports
    }
    QProgressBar* bar = stage == kStageA ? barA_ : barB_;
    QLabel* eta = stage == kStageA ? etaA_ : etaB_;
    const double f = u.fraction();
    if (f >= 0) {
        bar->setRange(0, 1000);
        bar->setValue(static_cast<int>(f * 1000));
    } else {
        bar->setRange(0, 0);
    }
    bar->setFormat(u.stage + QStringLiteral(" %p%"));
    eta->setText(u.etaSeconds >= 0 ? tr("%1 left").arg(TaskStatus::formatDuration(u.etaSeconds))
                                   : QString());
    if (stage != kStageB || u.detail.isEmpty()) {
        return;
    }
    const double loss = std::isnan(detailValue(u.detail, QStringLiteral("loss")))
                            ? detailValue(u.detail, QStringLiteral("objective"))
                            : detailValue(u.detail, QStringLiteral("loss"));
    const double usage = detailValue(u.detail, QStringLiteral("usage"));
    step_ = u.done;
    if (!std::isnan(loss)) {
        curves_->graph(0)->addData(step_, loss);
    }
    if (!std::isnan(usage)) {
        curves_->graph(1)->addData(step_, usage);
    }
    curves_->rescaleAxes();
    curves_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace once::studio
