#include "question/question_panel.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include "charts/chart_data.h"
#include "charts/chart_export.h"
#include "common/export_folder.h"
#include "pipeline/answer_session.h"
#include "question/answer_statistics.h"
#include "session/answer_target.h"
#include "session/methods.h"
#include "session/model_folder.h"
#include "session/question_controller.h"
#include "session/remote_connection.h"
#include "session/studio_session.h"
#include "session/video_data.h"
#include "tasks/background_task.h"

namespace once::studio {
namespace {
constexpr int kDense = QuestionController::kDense;
}

QuestionPanel::QuestionPanel(StudioSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      controller_(new QuestionController(*session, this)),
      task_(controller_->task()) {
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    note_->setFrameShape(QFrame::StyledPanel);
    note_->setMargin(6);
    // Failures stay here until the inputs change: the task's finished signal refreshes note_,
    // which once hid the message of a failed compressed answer (issue 16).
    problemBar_ = new QFrame(this);
    problemBar_->setFrameShape(QFrame::StyledPanel);
    problemBar_->setObjectName(QStringLiteral("questionProblemBar"));
    problem_ = new QLabel(problemBar_);
    problem_->setWordWrap(true);
    problem_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problem_->setStyleSheet(QStringLiteral("color: #b00020;"));
    openCodebook_ = new QPushButton(tr("Open a Matching &Codebook…"), problemBar_);
    openCodebook_->setToolTip(tr("A codebook trained on features of this model's encoder"));
    reencode_ = new QPushButton(tr("&Re-encode the Video with the Model's Encoder"), problemBar_);
    reencode_->setToolTip(
        tr("The overlay, the charts and the Trainer then use the model's features; a codebook "
           "for them is still needed for the compressed answer."));
    auto* problemLayout = new QVBoxLayout(problemBar_);
    problemLayout->setContentsMargins(6, 6, 6, 6);
    problemLayout->addWidget(problem_);
    auto* fixRow = new QHBoxLayout;
    fixRow->addWidget(openCodebook_);
    fixRow->addWidget(reencode_);
    fixRow->addStretch(1);
    problemLayout->addLayout(fixRow);
    problemBar_->setVisible(false);
    connect(openCodebook_, &QPushButton::clicked, this, &QuestionPanel::openCodebookRequested);
    connect(reencode_, &QPushButton::clicked, this, [this] {
        const VideoData& v = session_->video();
        if (!v.isEmpty() && !v.fromFeatureFile) {
            session_->openVideo(v.path);
        }
    });

    question_ = new QLineEdit(this);
    question_->setPlaceholderText(
        tr("Ask about the video, e.g. “What happens after the door "
           "opens?”"));
    question_->setAccessibleName(tr("Question"));
    ask_ = new QPushButton(tr("&Ask"), this);
    ask_->setDefault(true);
    stop_ = new QPushButton(tr("&Stop"), this);
    stop_->setEnabled(false);
    compare_ = new QCheckBox(tr("Compare with &Dense"), this);
    compare_->setChecked(true);
    compare_->setToolTip(tr("Also answer from all visual tokens, as the reference"));
    maxTokens_ = new QSpinBox(this);
    maxTokens_->setRange(1, 4096);
    maxTokens_->setValue(64);
    maxTokens_->setPrefix(tr("max "));
    // Plural forms from the catalogue ("max 1 token", "max 64 tokens").
    auto tokenSuffix = [this](int n) { maxTokens_->setSuffix(tr(" token(s)", "", n)); };
    tokenSuffix(maxTokens_->value());
    connect(maxTokens_, &QSpinBox::valueChanged, this, tokenSuffix);

    denseTitle_ = new QLabel(tr("<b>Dense</b>"), this);
    onceTitle_ = new QLabel(QStringLiteral("<b>ONCE</b>"), this);
    dense_ = new QTextBrowser(this);
    once_ = new QTextBrowser(this);
    stats_ = new QTableWidget(0, 2, this);
    stats_->setHorizontalHeaderLabels({tr("Dense"), methods::title(methods::preferred())});
    stats_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    stats_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    stats_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    stats_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    stats_->setObjectName(QStringLiteral("statisticsTable"));
    measuredOn_ = new QLabel(this);
    measuredOn_->setObjectName(QStringLiteral("measuredOn"));

    auto makeButton = [this](const QString& text, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        return b;
    };
    copyAnswers_ = makeButton(tr("Copy Answers"), tr("Copy the question and both answers"));
    saveAnswers_ = makeButton(tr("Save Answers…"),
                              tr("Save the question, both answers and the statistics as text"));
    copyTable_ = makeButton(tr("Copy Table"), tr("Copy the statistics as tab-separated text"));
    exportTable_ = makeButton(tr("Export Table…"), tr("Save the statistics as CSV"));
    connect(copyAnswers_, &QToolButton::clicked, this,
            [this] { QApplication::clipboard()->setText(answersText()); });
    connect(copyTable_, &QToolButton::clicked, this, [this] {
        const CsvTable t = statisticsCsv();
        QStringList lines{t.header.join(QLatin1Char('\t'))};
        for (const QStringList& row : t.rows) {
            lines << row.join(QLatin1Char('\t'));
        }
        QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    });
    auto saveAs = [this](const QString& title, const QString& name, const QString& filter,
                         bool (QuestionPanel::*save)(const QString&, QString*) const) {
        const QString path = QFileDialog::getSaveFileName(
            this, title, exportPath(name, QStandardPaths::DocumentsLocation), filter);
        rememberExportFile(path);
        QString error;
        if (!path.isEmpty() && !(this->*save)(path, &error)) {
            QMessageBox::warning(this, tr("Export failed"), error);
        }
    };
    connect(saveAnswers_, &QToolButton::clicked, this, [saveAs] {
        saveAs(tr("Save Answers"), QStringLiteral("answers.txt"), tr("Text (*.txt)"),
               &QuestionPanel::saveAnswers);
    });
    connect(exportTable_, &QToolButton::clicked, this, [saveAs] {
        saveAs(tr("Export Statistics"), QStringLiteral("statistics.csv"), tr("CSV table (*.csv)"),
               &QuestionPanel::exportStatistics);
    });
    auto* exportRow = new QHBoxLayout;
    exportRow->addWidget(copyAnswers_);
    exportRow->addWidget(saveAnswers_);
    exportRow->addStretch(1);
    exportRow->addWidget(copyTable_);
    exportRow->addWidget(exportTable_);

    auto* askRow = new QHBoxLayout;
    askRow->addWidget(question_, 1);
    askRow->addWidget(maxTokens_);
    askRow->addWidget(compare_);
    askRow->addWidget(ask_);
    askRow->addWidget(stop_);
    auto* answers = new QGridLayout;
    answers->addWidget(denseTitle_, 0, 0);
    answers->addWidget(onceTitle_, 0, 1);
    answers->addWidget(dense_, 1, 0);
    answers->addWidget(once_, 1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(note_);
    layout->addWidget(problemBar_);
    layout->addLayout(askRow);
    layout->addLayout(answers, 2);
    layout->addLayout(exportRow);
    layout->addWidget(measuredOn_);
    layout->addWidget(stats_);

    connect(ask_, &QPushButton::clicked, this, &QuestionPanel::askQuestion);
    connect(question_, &QLineEdit::returnPressed, this, &QuestionPanel::askQuestion);
    connect(stop_, &QPushButton::clicked, task_, &BackgroundTask::cancel);
    connect(task_, &BackgroundTask::started, this, [this] {
        stop_->setEnabled(true);
        ask_->setEnabled(false);
    });
    connect(task_, &BackgroundTask::finished, this, [this] {
        stop_->setEnabled(false);
        refreshAvailability();
    });
    connect(task_, &BackgroundTask::failed, this, [this](const QString& message) {
        QString text = tr("The question could not be answered: %1").arg(message);
        if (!machine_.isEmpty()) {
            // The session is intact: say what the user can do next.
            text += QLatin1Char(' ') +
                    tr("The video, codebook and answers stay; ask again, reconnect (File ▸ "
                       "Connect to Server…) or disconnect to answer on this machine.");
        }
        showProblem(text, false);
    });
    connect(session_->remote(), &RemoteConnection::stateChanged, this,
            &QuestionPanel::refreshAvailability);
    for (auto signal : {&StudioSession::modelChanged, &StudioSession::videoChanged,
                        &StudioSession::codebookChanged, &StudioSession::methodChanged}) {
        connect(session_, signal, this, &QuestionPanel::refreshAvailability);
        connect(session_, signal, this, [this] {
            if (!task_->isRunning()) {
                clearProblem();  // the cause may be gone; the next question tells
                if (compressedFailed_) {
                    // Nor does the failed column keep the old error (issue 30: it stayed after
                    // the video was re-encoded with the model's encoder).
                    compressedFailed_ = false;
                    once_->clear();
                    onceTitle_->setText(
                        QStringLiteral("<b>%1</b>")
                            .arg(methods::title(session_->method()).toHtmlEscaped()));
                    updateExportButtons();
                }
            }
        });
    }
    connect(session_, &StudioSession::methodChanged, this, [this] {
        if (!task_->isRunning()) {
            // The compressed column answers with the method of the budget panel.
            const QString title = methods::title(session_->method());
            onceTitle_->setText(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
            stats_->setHorizontalHeaderLabels({tr("Dense"), title});
        }
    });
    connect(controller_, &QuestionController::asked, this, &QuestionPanel::onAsked);
    connect(controller_, &QuestionController::textArrived, this, &QuestionPanel::appendText);
    connect(controller_, &QuestionController::answered, this, &QuestionPanel::onAnswered);
    fillStatistics(nullptr, nullptr);  // the rows and their tooltips before the first question
    refreshAvailability();
}

BackgroundTask* QuestionPanel::task() const {
    return task_;
}

QuestionPanel::~QuestionPanel() {
    shutdown();
}

void QuestionPanel::shutdown() {
    controller_->shutdown();
}

bool QuestionPanel::canAnswer() const {
    return controller_->canAsk();
}

QString QuestionPanel::unavailableReason() const {
    return AnswerTarget::unavailableReason(*session_);
}

void QuestionPanel::refreshAvailability() {
    const bool can = canAnswer();
    QString text = unavailableReason();
    if (can && controller_->isRemote()) {
        text = tr("Questions go to %1 (remote): the server answers with its model and codebook.")
                   .arg(session_->remote()->machine());
    } else if (can && methods::needsCodebook(session_->method()) && !session_->codebook()) {
        text = tr("No codebook is loaded: only the Dense answer is available.");
    }

    note_->setText(text);
    note_->setVisible(!text.isEmpty());
    ask_->setEnabled(can && !task_->isRunning());
    question_->setEnabled(can);
}

void QuestionPanel::showProblem(const QString& message, bool backboneMismatch) {
    problem_->setText(message);
    openCodebook_->setVisible(backboneMismatch);
    // Re-encoding helps only where the studio's features come from another encoder than the
    // model's (the demo encoder, say) and from a video, not a feature file.
    const VideoData& v = session_->video();
    reencode_->setVisible(backboneMismatch && !v.isEmpty() && !v.fromFeatureFile &&
                          QString::fromStdString(v.backbone) !=
                              session_->pipelineSettings().backbone);
    problemBar_->setVisible(true);
    emit problemOccurred(message);
}

void QuestionPanel::clearProblem() {
    problem_->clear();
    problemBar_->setVisible(false);
}

QString QuestionPanel::problem() const {
    return problem_->text();
}

QString QuestionPanel::measuredOn() const {
    return measuredOn_->text();
}

QString QuestionPanel::denseAnswer() const {
    return dense_->toPlainText();
}
QString QuestionPanel::onceAnswer() const {
    return once_->toPlainText();
}

void QuestionPanel::appendText(int column, const QString& piece) {
    QTextBrowser* target = column == kDense ? dense_ : once_;
    target->moveCursor(QTextCursor::End);
    target->insertPlainText(piece);
}

void QuestionPanel::askQuestion() {
    controller_->ask(question_->text().trimmed(), maxTokens_->value(), compare_->isChecked());
}

void QuestionPanel::onAsked(const QuestionController::Plan& plan) {
    clearProblem();
    dense_->clear();
    once_->clear();
    compressedFailed_ = false;
    askedQuestion_ = question_->text().trimmed();
    machine_ = plan.machine;
    measuredOn_->clear();
    fillStatistics(nullptr, nullptr);
    const QString title = methods::title(plan.method).toHtmlEscaped();
    denseTitle_->setText(plan.dense ? tr("<b>Dense</b>") : tr("<b>Dense</b>: not asked"));
    onceTitle_->setText(plan.compressed ? tr("<b>%1</b>, B = %2").arg(title).arg(plan.budget)
                                        : tr("<b>%1</b>: no codebook").arg(title));
    stats_->setHorizontalHeaderLabels({tr("Dense"), methods::title(plan.method)});
}

void QuestionPanel::onAnswered(const QuestionController::Outcome& outcome) {
    const QString method = methods::title(outcome.plan.method);
    const QString title = method.toHtmlEscaped();
    showReports(outcome.dense.get(), outcome.compressed.get(), title);
    measuredOn_->setText(outcome.plan.machine.isEmpty()
                             ? tr("Times measured on this machine.")
                             : tr("Times measured on %1 (remote).").arg(outcome.plan.machine));
    if (outcome.groupsNotShown) {
        measuredOn_->setText(measuredOn_->text() + QLatin1Char(' ') +
                             tr("The server's kept groups are for another token grid than the "
                                "video here (open the server's model folder here to see them "
                                "on the frames)."));
    }
    if (!outcome.compressedError.isEmpty()) {
        compressedFailed_ = true;
        once_->setPlainText(tr("No %1 answer: %2").arg(method, outcome.compressedError));
        onceTitle_->setText(tr("<b>%1</b>: failed").arg(title));
        showProblem(tr("The %1 answer failed: %2").arg(method, outcome.compressedError),
                    outcome.backboneMismatch);
    }
}

void QuestionPanel::restoreAnswers(const QString& question, const QString& dense,
                                   const QString& compressed) {
    if (task_->isRunning()) {
        return;  // a question being answered now wins
    }
    question_->setText(question);
    askedQuestion_ = question;
    machine_.clear();
    measuredOn_->clear();
    fillStatistics(nullptr, nullptr);
    dense_->setPlainText(dense);
    once_->setPlainText(compressed);
    denseTitle_->setText(tr("<b>Dense</b> (from the saved session)"));
    onceTitle_->setText(tr("<b>Compressed</b> (from the saved session)"));
    updateExportButtons();
}

void QuestionPanel::showAnswerReports(const once::AskReport* dense,
                                      const once::AskReport* compressed,
                                      const QString& methodTitle) {
    stats_->setHorizontalHeaderLabels({tr("Dense"), methodTitle});
    showReports(dense, compressed, methodTitle.toHtmlEscaped());
}

void QuestionPanel::showReports(const once::AskReport* dense, const once::AskReport* compressed,
                                const QString& title) {
    // The final answers replace the streamed text (identical unless pieces were merged).
    if (dense) {
        dense_->setPlainText(QString::fromStdString(dense->answer));
        const auto visual = static_cast<int>(dense->contentTokens + dense->layoutTokens);
        denseTitle_->setText(tr("<b>Dense</b>, %n visual token(s)", "", visual));
    }
    if (compressed) {
        once_->setPlainText(QString::fromStdString(compressed->answer));
        const auto visual = static_cast<int>(compressed->contentTokens + compressed->layoutTokens);
        onceTitle_->setText(tr("<b>%1</b>, B = %2, %n visual token(s)", "", visual)
                                .arg(title)
                                .arg(compressed->budget));
    }
    fillStatistics(dense, compressed);
}

void QuestionPanel::fillStatistics(const once::AskReport* dense,
                                   const once::AskReport* compressed) {
    // The compute dtype is this machine's settings: a server's answer says nothing of it.
    const QList<StatisticRow> rows = answerStatistics(
        dense, compressed, machine_.isEmpty() ? &session_->pipelineSettings() : nullptr);
    stats_->setRowCount(static_cast<int>(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        auto* header = new QTableWidgetItem(rows[i].name);
        header->setToolTip(rows[i].tooltip);
        stats_->setVerticalHeaderItem(i, header);
        const QString cells[2] = {rows[i].dense, rows[i].compressed};
        for (int c = 0; c < 2; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(rows[i].tooltip);
            stats_->setItem(i, c, item);
        }
    }
    // Every row shows: the table is as high as its rows (issue 16: three rows showed when
    // docked, in a table scrolling inside a scrolling dock). The dock scrolls instead.
    stats_->resizeRowsToContents();
    int height = stats_->horizontalHeader()->sizeHint().height() + 2 * stats_->frameWidth();
    for (int i = 0; i < stats_->rowCount(); ++i) {
        height += stats_->rowHeight(i);
    }
    if (stats_->horizontalScrollBar()->isVisible()) {
        height += stats_->horizontalScrollBar()->sizeHint().height();
    }
    stats_->setFixedHeight(height);
    updateExportButtons();
}

void QuestionPanel::updateExportButtons() {
    const bool answered = !dense_->toPlainText().isEmpty() || !once_->toPlainText().isEmpty();
    bool measured = false;
    for (int i = 0; i < stats_->rowCount() && !measured; ++i) {
        for (int c = 0; c < 2; ++c) {
            measured = measured || (stats_->item(i, c) && !stats_->item(i, c)->text().isEmpty());
        }
    }
    copyAnswers_->setEnabled(answered);
    saveAnswers_->setEnabled(answered);
    copyTable_->setEnabled(measured);
    exportTable_->setEnabled(measured);
}

QString QuestionPanel::answersText() const {
    auto plain = [](const QLabel* title) {
        QTextDocument d;
        d.setHtml(title->text());
        return d.toPlainText();
    };
    QString text;
    if (!askedQuestion_.isEmpty()) {
        text += tr("Question: %1").arg(askedQuestion_) + QStringLiteral("\n\n");
    }
    text += plain(denseTitle_) + QLatin1Char('\n') + dense_->toPlainText() + QStringLiteral("\n\n");
    text += plain(onceTitle_) + QLatin1Char('\n') + once_->toPlainText() + QLatin1Char('\n');
    return text;
}

CsvTable QuestionPanel::statisticsCsv() const {
    CsvTable t;
    t.header = {
        tr("statistic"),
        stats_->horizontalHeaderItem(0) ? stats_->horizontalHeaderItem(0)->text() : tr("Dense"),
        stats_->horizontalHeaderItem(1) ? stats_->horizontalHeaderItem(1)->text() : QString()};
    for (int i = 0; i < stats_->rowCount(); ++i) {
        QStringList row{stats_->verticalHeaderItem(i) ? stats_->verticalHeaderItem(i)->text()
                                                      : QString()};
        for (int c = 0; c < 2; ++c) {
            row << (stats_->item(i, c) ? stats_->item(i, c)->text() : QString());
        }
        t.rows << row;
    }
    return t;
}

bool QuestionPanel::saveAnswers(const QString& path, QString* error) const {
    QString text = answersText() + QLatin1Char('\n');
    const CsvTable t = statisticsCsv();
    for (const QStringList& row : t.rows) {
        text += row.join(QStringLiteral("\t")) + QLatin1Char('\n');
    }
    return writeTextFile(path, text, error);
}

bool QuestionPanel::exportStatistics(const QString& path, QString* error) const {
    return writeTextFile(path, statisticsCsv().toCsv(), error);
}

QString QuestionPanel::statistic(const QString& row, int column) const {
    for (int i = 0; i < stats_->rowCount(); ++i) {
        if (stats_->verticalHeaderItem(i) && stats_->verticalHeaderItem(i)->text() == row) {
            return stats_->item(i, column) ? stats_->item(i, column)->text() : QString();
        }
    }
    return {};
}

}  // namespace once::studio
