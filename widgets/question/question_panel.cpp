#include "question/question_panel.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "codebook/codebook.h"
#include "compress/compression.h"
#include "pipeline/session.h"
#include "session/answer_pipeline.h"
#include "session/studio_session.h"
#include "session/video_data.h"
#include "tasks/background_task.h"
#include "util/error.h"

namespace once::studio {
namespace {
enum Column { kDense = 0, kOnce = 1 };
}

QuestionPanel::QuestionPanel(StudioSession* session, QWidget* parent)
    : QWidget(parent), session_(session), task_(new BackgroundTask(this)) {
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
            session_->openVideo(v.source);
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
    maxTokens_->setSuffix(tr(" tokens"));

    denseTitle_ = new QLabel(tr("<b>Dense</b>"), this);
    onceTitle_ = new QLabel(QStringLiteral("<b>ONCE</b>"), this);
    dense_ = new QTextBrowser(this);
    once_ = new QTextBrowser(this);
    stats_ = new QTableWidget(0, 2, this);
    stats_->setHorizontalHeaderLabels(
        {tr("Dense"), StudioSession::methodTitle(QStringLiteral("once"))});
    stats_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    stats_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    stats_->setMinimumHeight(120);

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
    layout->addWidget(stats_, 1);

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
        showProblem(tr("The question could not be answered: %1").arg(message), false);
    });
    for (auto signal : {&StudioSession::modelChanged, &StudioSession::videoChanged,
                        &StudioSession::codebookChanged, &StudioSession::methodChanged}) {
        connect(session_, signal, this, &QuestionPanel::refreshAvailability);
        connect(session_, signal, this, [this] {
            if (!task_->isRunning()) {
                clearProblem();  // the cause may be gone; the next question tells
            }
        });
    }
    connect(session_, &StudioSession::methodChanged, this, [this] {
        if (!task_->isRunning()) {
            // The compressed column answers with the method of the budget panel.
            const QString title = StudioSession::methodTitle(session_->method());
            onceTitle_->setText(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
            stats_->setHorizontalHeaderLabels({tr("Dense"), title});
        }
    });
    refreshAvailability();
}

QuestionPanel::~QuestionPanel() {
    shutdown();
}

void QuestionPanel::shutdown() {
    task_->cancelAndWait();
}

bool QuestionPanel::canAnswer() const {
    return session_->model().has_value() && !session_->video().isEmpty();
}

QString QuestionPanel::unavailableReason() const {
    if (!session_->model()) {
        return tr(
            "Answering needs a model folder (File ▸ Open Model Folder…), such as a "
            "LLaVA-OneVision checkpoint. The demo encoder has no language model, so it "
            "cannot answer; the overlay, the budget slider and the charts work without "
            "one.");
    }
    if (session_->video().isEmpty()) {
        return tr("Open a video to ask about it.");
    }
    return {};
}

void QuestionPanel::refreshAvailability() {
    const bool can = canAnswer();
    QString text = unavailableReason();
    const bool onceMethod = session_->method() == QLatin1String("once");
    if (can && onceMethod && session_->codebookFile().isEmpty()) {
        text = tr("No codebook file is loaded: only the Dense answer is available.");
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
    const QString question = question_->text().trimmed();
    if (!canAnswer() || question.isEmpty() || task_->isRunning()) {
        return;
    }
    const PipelineKey key = session_->pipelineKey();
    auto pipeline = session_->answerPipeline();
    const std::int64_t budget = session_->budget();
    // The method of the budget panel: ONCE (with its variant; needs the codebook as a file,
    // which the pipeline loads itself) or a peer, which needs no codebook.
    const QString method = session_->method();
    const bool onceMethod = method == QLatin1String("once");
    std::map<std::string, std::string> params;
    if (onceMethod) {
        params["variant"] = once::variantName(session_->variant());
    }
    const QString title = StudioSession::methodTitle(method).toHtmlEscaped();
    const bool compressed = !onceMethod || !key.codebook.isEmpty();
    const bool compare = compare_->isChecked() || !compressed;
    const int maxTokens = maxTokens_->value();

    clearProblem();
    dense_->clear();
    once_->clear();
    stats_->setRowCount(0);
    denseTitle_->setText(compare ? tr("<b>Dense</b>") : tr("<b>Dense</b>: not asked"));
    onceTitle_->setText(compressed ? tr("<b>%1</b>, B = %2").arg(title).arg(budget)
                                   : tr("<b>%1</b>: no codebook file").arg(title));
    stats_->setHorizontalHeaderLabels({tr("Dense"), StudioSession::methodTitle(method)});
    // Streamed pieces arrive on the worker; queue them to this (GUI) thread.
    auto streamTo = [this](int column) {
        return [this, column](const std::string& piece) {
            const QString text = QString::fromStdString(piece);
            QMetaObject::invokeMethod(
                this, [this, column, text] { appendText(column, text); }, Qt::QueuedConnection);
        };
    };
    auto denseStream = streamTo(kDense);
    auto onceStream = streamTo(kOnce);
    task_->start(tr("Answering"), [=, this](once::Progress& progress) -> std::function<void()> {
        auto lease = pipeline->acquire(key, &progress);
        auto dense = std::make_shared<once::AskReport>();
        auto onceReport = std::make_shared<once::AskReport>();
        if (compare) {
            once::AskOptions a;
            a.maxNewTokens = maxTokens;
            a.onText = denseStream;
            *dense = lease.session().ask(question.toStdString(), a, &progress);
        }
        // The compressed column may fail where Dense did not (a codebook for another
        // backbone): keep the Dense answer and say why the other column is empty.
        QString compressedError;
        bool backboneMismatch = false;
        if (compressed) {
            once::AskOptions a;
            a.budget = budget;
            a.method = method.toStdString();
            a.params = params;
            a.maxNewTokens = maxTokens;
            a.onText = onceStream;
            try {
                *onceReport = lease.session().ask(question.toStdString(), a, &progress);
            } catch (const once::OnceError& e) {
                compressedError = QString::fromStdString(e.what());
                backboneMismatch = e.where().field == "backbone";
            }
        }
        const bool compressedOk = compressed && compressedError.isEmpty();
        return [=, this] {
            showReports(compare ? dense.get() : nullptr, compressedOk ? onceReport.get() : nullptr,
                        title);
            if (!compressedError.isEmpty()) {
                once_->setPlainText(tr("No %1 answer: %2")
                                        .arg(StudioSession::methodTitle(method), compressedError));
                onceTitle_->setText(tr("<b>%1</b>: failed").arg(title));
                showProblem(tr("The %1 answer failed: %2")
                                .arg(StudioSession::methodTitle(method), compressedError),
                            backboneMismatch);
            }
        };
    });
}

void QuestionPanel::showReports(const once::AskReport* dense, const once::AskReport* compressed,
                                const QString& title) {
    // The final answers replace the streamed text (identical unless pieces were merged).
    if (dense) {
        dense_->setPlainText(QString::fromStdString(dense->answer));
        denseTitle_->setText(
            tr("<b>Dense</b>, %1 visual tokens").arg(dense->contentTokens + dense->layoutTokens));
    }
    if (compressed) {
        once_->setPlainText(QString::fromStdString(compressed->answer));
        onceTitle_->setText(tr("<b>%1</b>, B = %2, %3 visual tokens")
                                .arg(title)
                                .arg(compressed->budget)
                                .arg(compressed->contentTokens + compressed->layoutTokens));
    }
    QStringList rows;
    QList<QStringList> cells;
    auto add = [&](const QString& name, const std::function<QString(const once::AskReport&)>& f) {
        rows << name;
        cells << QStringList{dense ? f(*dense) : QString(),
                             compressed ? f(*compressed) : QString()};
    };
    // One row per pipeline stage, in the order the pipeline ran them.
    std::vector<std::string> stages;
    for (const once::AskReport* r : {dense, compressed}) {
        for (const auto& s : r ? r->stages : std::vector<once::StageReport>{}) {
            if (std::find(stages.begin(), stages.end(), s.name) == stages.end()) {
                stages.push_back(s.name);
            }
        }
    }
    for (const std::string& stage : stages) {
        add(tr("%1 time").arg(QString::fromStdString(stage)), [stage](const once::AskReport& r) {
            for (const auto& s : r.stages) {
                if (s.name == stage) {
                    return s.cached ? tr("%1 ms (cached)").arg(s.seconds * 1e3, 0, 'f', 1)
                                    : tr("%1 ms").arg(s.seconds * 1e3, 0, 'f', 1);
                }
            }
            return QString();
        });
    }
    add(tr("Total time"), [](const once::AskReport& r) {
        double total = 0;
        for (const auto& s : r.stages) {
            total += s.seconds;
        }
        return tr("%1 ms").arg(total * 1e3, 0, 'f', 1);
    });
    add(tr("Visual tokens (content + layout)"), [](const once::AskReport& r) {
        return QStringLiteral("%1 + %2").arg(r.contentTokens).arg(r.layoutTokens);
    });
    add(tr("Source tokens N"),
        [](const once::AskReport& r) { return QString::number(r.sourceTokens); });
    add(tr("LLM input length"),
        [](const once::AskReport& r) { return QString::number(r.promptTokens); });
    add(tr("Generated tokens"),
        [](const once::AskReport& r) { return QString::number(r.tokenIds.size()); });
    add(tr("Prefill TFLOPs"),
        [](const once::AskReport& r) { return QString::number(r.prefillFlops / 1e12, 'f', 4); });
    stats_->setRowCount(static_cast<int>(rows.size()));
    stats_->setVerticalHeaderLabels(rows);
    for (int i = 0; i < rows.size(); ++i) {
        for (int c = 0; c < 2; ++c) {
            stats_->setItem(i, c, new QTableWidgetItem(cells[i][c]));
        }
    }
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
