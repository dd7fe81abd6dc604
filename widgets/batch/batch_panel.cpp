#include "batch/batch_panel.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include "charts/chart_export.h"
#include "charts/efficiency_panel.h"
#include "common/export_folder.h"
#include "compress/compression.h"
#include "eval/efficiency_bench.h"
#include "io/file_kind.h"
#include "session/answer_pipeline.h"
#include "session/methods.h"
#include "session/studio_session.h"
#include "tasks/background_task.h"

namespace once::studio {
namespace {

constexpr const char* kDense = "dense";

/// "16, 64 256" → {16, 64, 256}; empty when a part is not a positive integer.
std::vector<std::int64_t> parseBudgets(const QString& text) {
    std::vector<std::int64_t> out;
    for (const QString& part :
         text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qlonglong b = part.toLongLong(&ok);
        if (!ok || b < 1) {
            return {};
        }
        out.push_back(b);
    }
    return out;
}

}  // namespace

BatchPanel::BatchPanel(StudioSession* session, QWidget* parent)
    : QWidget(parent), session_(session), task_(new BackgroundTask(this)) {
    folder_ = new QLineEdit(this);
    folder_->setPlaceholderText(tr("A folder of videos"));
    auto* browse = new QPushButton(tr("&Browse…"), this);
    found_ = new QLabel(this);
    methods_ = new QListWidget(this);
    methods_->setMaximumHeight(110);
    auto* dense = new QListWidgetItem(tr("Dense (no compression)"), methods_);
    dense->setData(Qt::UserRole, QString::fromLatin1(kDense));
    dense->setCheckState(Qt::Checked);
    for (const QString& m : methods::all()) {
        auto* item = new QListWidgetItem(methods::title(m), methods_);
        item->setData(Qt::UserRole, m);
        item->setCheckState(m == methods::preferred() ? Qt::Checked : Qt::Unchecked);
    }
    budgets_ = new QLineEdit(QStringLiteral("16, 64"), this);
    reps_ = new QSpinBox(this);
    reps_->setRange(1, 100);
    warmup_ = new QSpinBox(this);
    warmup_->setRange(0, 10);
    newTokens_ = new QSpinBox(this);
    newTokens_->setRange(1, 4096);
    newTokens_->setValue(16);
    run_ = new QPushButton(tr("&Run Batch"), this);
    cancel_ = new QPushButton(tr("Cancel"), this);
    export_ = new QPushButton(tr("&Export Report…"), this);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    table_ = new QTableWidget(0, 7, this);
    table_->setHorizontalHeaderLabels({tr("Method"), tr("Budget"), tr("Visual tokens"),
                                       tr("Compression (ms)"), tr("TTFT (ms)"),
                                       tr("End to end (ms)"), tr("Speed-up")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setStretchLastSection(true);

    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(folder_, 1);
    folderRow->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("&Videos:"), folderRow);
    form->addRow(QString(), found_);
    form->addRow(tr("&Methods:"), methods_);
    form->addRow(tr("B&udgets:"), budgets_);
    auto* numbers = new QHBoxLayout;
    numbers->addWidget(new QLabel(tr("Repetitions:"), this));
    numbers->addWidget(reps_);
    numbers->addWidget(new QLabel(tr("Warm-up:"), this));
    numbers->addWidget(warmup_);
    numbers->addWidget(new QLabel(tr("New tokens:"), this));
    numbers->addWidget(newTokens_);
    numbers->addStretch(1);
    form->addRow(QString(), numbers);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    buttons->addWidget(export_);
    buttons->addStretch(1);
    auto* left = new QVBoxLayout;
    left->addLayout(form);
    left->addLayout(buttons);
    left->addWidget(status_);
    left->addStretch(1);
    auto* layout = new QHBoxLayout(this);
    layout->addLayout(left, 2);
    layout->addWidget(table_, 3);

    connect(browse, &QPushButton::clicked, this, &BatchPanel::chooseFolder);
    connect(folder_, &QLineEdit::textChanged, this, &BatchPanel::refresh);
    connect(budgets_, &QLineEdit::textChanged, this, &BatchPanel::refresh);
    connect(methods_, &QListWidget::itemChanged, this, &BatchPanel::refresh);
    connect(session_, &StudioSession::modelChanged, this, &BatchPanel::refresh);
    connect(session_, &StudioSession::codebookChanged, this, &BatchPanel::refresh);
    connect(run_, &QPushButton::clicked, this, &BatchPanel::run);
    connect(cancel_, &QPushButton::clicked, task_, &BackgroundTask::cancel);
    connect(export_, &QPushButton::clicked, this, &BatchPanel::exportInteractive);
    connect(task_, &BackgroundTask::started, this, &BatchPanel::refresh);
    connect(task_, &BackgroundTask::finished, this, &BatchPanel::refresh);
    connect(task_, &BackgroundTask::failed, this, [this](const QString& message) {
        status_->setText(tr("The batch failed: %1").arg(message));
    });
    connect(task_, &BackgroundTask::cancelled, this,
            [this] { status_->setText(tr("The batch was cancelled; nothing was measured.")); });
    refresh();
}

BatchPanel::~BatchPanel() {
    task_->cancelAndWait();
}

QStringList BatchPanel::videos() const {
    const QString folder = folder_->text().trimmed();
    QStringList out;
    if (folder.isEmpty() || !QFileInfo(folder).isDir()) {
        return out;
    }
    for (const QFileInfo& f : QDir(folder).entryInfoList(QDir::Files, QDir::Name)) {
        if (once::hasVideoExtension(f.fileName().toStdString())) {
            out << f.absoluteFilePath();
        }
    }
    return out;
}

QString BatchPanel::blocker() const {
    if (!session_->model()) {
        return tr(
            "Open a model folder first (File ▸ Open Model Folder…): the batch measures "
            "prefill and decoding with its language model.");
    }
    if (videos().isEmpty()) {
        return tr("Choose a folder that holds videos.");
    }
    bool any = false;
    for (int i = 0; i < methods_->count(); ++i) {
        const QListWidgetItem* item = methods_->item(i);
        if (item->checkState() != Qt::Checked) {
            continue;
        }
        any = true;
        const QString m = item->data(Qt::UserRole).toString();
        if (m != QLatin1String(kDense) && methods::needsCodebook(m) &&
            session_->codebookFile().isEmpty()) {
            return tr("%1 needs a codebook file: open one (File ▸ Open Codebook…).")
                .arg(methods::title(m));
        }
    }
    if (!any) {
        return tr("Choose at least one method.");
    }
    if (parseBudgets(budgets_->text()).empty()) {
        return tr("Budgets are positive whole numbers, e.g. \"16, 64, 256\".");
    }
    return {};
}

void BatchPanel::refresh() {
    const int n = static_cast<int>(videos().size());
    found_->setText(tr("%n video(s) found", "", n));
    const bool running = task_->isRunning();
    const QString why = blocker();
    run_->setEnabled(!running && why.isEmpty());
    cancel_->setEnabled(running);
    export_->setEnabled(!running && bench_.has_value());
    if (!running) {
        status_->setText(why.isEmpty() && !bench_ ? tr("Ready to run.") : why);
    }
}

bool BatchPanel::run() {
    if (!blocker().isEmpty() || task_->isRunning()) {
        return false;
    }
    once::EfficiencyBenchOptions o;
    o.session = answerSessionOptions({session_->model()->path, session_->pipelineSettings()});
    o.session.codebook = session_->codebookFile().toStdString();
    for (const QString& v : videos()) {
        o.videos.push_back(v.toStdString());
    }
    for (int i = 0; i < methods_->count(); ++i) {
        if (methods_->item(i)->checkState() == Qt::Checked) {
            const QString m = methods_->item(i)->data(Qt::UserRole).toString();
            once::EfficiencyBenchMethod method;
            method.name = m.toStdString();
            // The bench names a row by its method and the parameters given: the paper's rule
            // (variant full) goes as the plain name, as `once bench --methods once` gives it.
            if (m != QLatin1String(kDense) && methods::hasVariants(m) &&
                session_->variant() != once::Variant::Full) {
                method.params = methods::params(m, session_->variant());
            }
            o.methods.push_back(method);
        }
    }
    o.budgets = parseBudgets(budgets_->text());
    o.reps = reps_->value();
    o.warmup = warmup_->value();
    o.newTokens = newTokens_->value();
    status_->setText(tr("Running %n video(s)…", "", static_cast<int>(o.videos.size())));
    return task_->start(tr("Batch over %n video(s)", "", static_cast<int>(o.videos.size())),
                        [o, this](once::Progress& progress) -> BackgroundTask::Deliver {
                            once::EfficiencyBench bench = once::runEfficiencyBench(o, &progress);
                            return [this, bench = std::move(bench)] {
                                bench_ = bench;
                                showBench();
                                emit benchFinished(*bench_);
                            };
                        });
}

void BatchPanel::showBench() {
    table_->setRowCount(static_cast<int>(bench_->rows.size()));
    for (int r = 0; r < table_->rowCount(); ++r) {
        const once::EfficiencyBenchRow& row = bench_->rows[static_cast<std::size_t>(r)];
        const QString method = QString::fromStdString(row.method);
        const QStringList cells{
            method == QLatin1String(kDense) ? tr("Dense") : methods::title(method),
            row.budget > 0 ? QString::number(row.budget) : QStringLiteral("—"),
            QString::number(row.visualTokens, 'f', 0),
            QString::number(row.compressionMs, 'f', 2),
            QString::number(row.ttftMs, 'f', 1),
            QString::number(row.e2eMs, 'f', 1),
            QStringLiteral("%1×").arg(row.e2eSpeedup, 0, 'f', 2)};
        for (int c = 0; c < cells.size(); ++c) {
            table_->setItem(r, c, new QTableWidgetItem(cells[c]));
        }
    }
    table_->resizeColumnsToContents();
    status_->setText(tr("Measured %n video(s) on %1; the speed-up panel is in Charts ▸ Budget vs "
                        "latency.",
                        "", static_cast<int>(bench_->videos.size()))
                         .arg(QString::fromStdString(bench_->machine.device)));
}

bool BatchPanel::exportReport(const QString& folder, QString* error) const {
    if (!bench_) {
        if (error != nullptr) {
            *error = tr("Nothing measured yet.");
        }
        return false;
    }
    const QDir dir(folder);
    try {
        once::saveEfficiencyBench(*bench_, dir.filePath(QStringLiteral("bench.json")).toStdString(),
                                  dir.filePath(QStringLiteral("bench")).toStdString());
    } catch (const std::exception& e) {
        if (error != nullptr) {
            *error = QString::fromStdString(e.what());
        }
        return false;
    }
    QCustomPlot plot;
    plot.resize(900, 560);
    drawEfficiencyPanel(&plot, *bench_);
    return exportCustomPlot(&plot, dir.filePath(QStringLiteral("bench_speedup.png")), error,
                            tr("End-to-end speed-up over Dense"));
}

void BatchPanel::chooseFolder() {
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Folder of Videos"),
        folder_->text().isEmpty() ? QDir::homePath() : folder_->text());
    if (!dir.isEmpty()) {
        folder_->setText(dir);
    }
}

void BatchPanel::exportInteractive() {
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("Export the Batch Report into a Folder"),
                                          exportFolder(QStandardPaths::DocumentsLocation));
    if (dir.isEmpty()) {
        return;
    }
    rememberExportFolder(dir);
    QString error;
    if (!exportReport(dir, &error)) {
        QMessageBox::warning(this, tr("Export failed"), error);
    }
}

}  // namespace once::studio
