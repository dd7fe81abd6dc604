#include "compare/ab_answers.h"

#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "pipeline/answer_session.h"
#include "question/answer_statistics.h"
#include "session/answer_target.h"
#include "session/methods.h"
#include "session/remote_connection.h"
#include "session/studio_session.h"
#include "tasks/background_task.h"

namespace once::studio {
namespace {

/// The question panel's default answer length, so both answer alike unless changed.
constexpr int kDefaultMaxTokens = 64;

QLabel* textLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

}  // namespace

AbAnswers::AbAnswers(StudioSession* session, QWidget* parent)
    : QWidget(parent), session_(session), task_(new BackgroundTask(this)) {
    question_ = new QLineEdit(this);
    question_->setPlaceholderText(tr("A question about the video, asked under A and under B"));
    question_->setAccessibleName(tr("Question for both sides"));
    maxTokens_ = new QSpinBox(this);
    maxTokens_->setRange(1, 4096);
    maxTokens_->setValue(kDefaultMaxTokens);
    maxTokens_->setPrefix(tr("max "));
    maxTokens_->setAccessibleName(tr("Most tokens of each answer"));
    ask_ = new QPushButton(tr("Ask &Both"), this);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setEnabled(false);
    where_ = new QLabel(this);
    where_->setWordWrap(true);
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(question_, 1);
    row->addWidget(maxTokens_);
    row->addWidget(ask_);
    row->addWidget(cancel_);
    grid->addLayout(row, 0, 0, 1, 2);
    grid->addWidget(where_, 1, 0, 1, 2);
    for (int s = 0; s < 2; ++s) {
        sides_[static_cast<std::size_t>(s)].answer = textLabel(this);
        sides_[static_cast<std::size_t>(s)].latency = textLabel(this);
        grid->addWidget(sides_[static_cast<std::size_t>(s)].answer, 2, s);
        grid->addWidget(sides_[static_cast<std::size_t>(s)].latency, 3, s);
        grid->setColumnStretch(s, 1);
    }

    connect(ask_, &QPushButton::clicked, this, &AbAnswers::askBoth);
    connect(question_, &QLineEdit::returnPressed, this, &AbAnswers::askBoth);
    connect(cancel_, &QPushButton::clicked, task_, &BackgroundTask::cancel);
    connect(task_, &BackgroundTask::started, this, &AbAnswers::refreshAvailability);
    connect(task_, &BackgroundTask::finished, this, &AbAnswers::refreshAvailability);
    connect(task_, &BackgroundTask::failed, this, [this](const QString& message) {
        clearSide(0, message);
        clearSide(1, message);
    });
    connect(task_, &BackgroundTask::cancelled, this, [this] {
        for (int s = 0; s < 2; ++s) {
            clearSide(s, tr("Cancelled."));
        }
    });
    // What the answers were about is gone: a new video, codebook or model answers differently.
    for (auto signal : {&StudioSession::videoChanged, &StudioSession::codebookChanged,
                        &StudioSession::modelChanged}) {
        connect(session_, signal, this, [this] {
            task_->cancel();
            clearSide(0);
            clearSide(1);
            refreshAvailability();
        });
    }
    connect(session_->remote(), &RemoteConnection::stateChanged, this,
            &AbAnswers::refreshAvailability);
    refreshAvailability();
}

AbAnswers::~AbAnswers() {
    task_->cancelAndWait();
}

void AbAnswers::setSide(int side, const QString& method, std::int64_t budget) {
    SideWidgets& s = sides_[static_cast<std::size_t>(side)];
    s.now = {method, budget};
    if (s.report && !(s.now == s.asked)) {
        clearSide(side);  // answered under other settings
    }
}

void AbAnswers::offerQuestion(const QString& question) {
    if (!question_->isModified()) {
        question_->setText(question);  // keeps isModified() false: the next offer replaces it
    }
}

void AbAnswers::refreshAvailability() {
    const bool can = AnswerTarget::available(*session_);
    const bool running = task_->isRunning();
    ask_->setEnabled(can && !running);
    cancel_->setEnabled(running);
    const QString why = AnswerTarget::unavailableReason(*session_);
    if (session_->remote()->isConnected()) {
        where_->setText(tr("Both answers come from %1 (remote), with its model and codebook.")
                            .arg(session_->remote()->machine()));
    } else {
        where_->setText(session_->model() ? tr("Both answers come from %1 on this machine.")
                                                .arg(QFileInfo(session_->model()->path).fileName())
                                          : QString());
    }
    ask_->setToolTip(can ? tr("Answer the question under A's settings, then under B's") : why);
    if (!can) {
        where_->setText(why);
    }
}

bool AbAnswers::askBoth() {
    const QString question = question_->text().trimmed();
    if (question.isEmpty() || task_->isRunning() || !AnswerTarget::available(*session_)) {
        return false;
    }
    // The question panel's compressed column, under each side's method and budget: a side whose
    // method cannot answer (no codebook here) fails alone and says why.
    std::vector<AnswerRequest> requests;
    for (SideWidgets& s : sides_) {
        s.asked = s.now;
        AnswerRequest r;
        r.options.maxNewTokens = maxTokens_->value();
        r.options.budget = s.now.budget;
        r.options.method = s.now.method.toStdString();
        r.options.params = methods::params(s.now.method, session_->variant());
        r.mayFail = true;
        requests.push_back(std::move(r));
    }
    for (int s = 0; s < 2; ++s) {
        clearSide(s, tr("Answering…"));
    }
    const AnswerTarget target(*session_);
    const std::string text = question.toStdString();
    const std::uint64_t generation = session_->codebookGeneration();
    task_->start(tr("Answering under A and B"),
                 [=, this](once::Progress& progress) -> BackgroundTask::Deliver {
                     std::vector<AnswerResult> results = target.ask(text, requests, progress);
                     return [this, results, generation] {
                         if (generation != session_->codebookGeneration()) {
                             return;  // another video or codebook: cleared already
                         }
                         for (int s = 0; s < 2; ++s) {
                             const AnswerResult& r = results[static_cast<std::size_t>(s)];
                             showSide(s, r.report, r.error);
                         }
                     };
                 });
    return true;
}

void AbAnswers::clearSide(int side, const QString& why) {
    SideWidgets& s = sides_[static_cast<std::size_t>(side)];
    s.report.reset();
    s.answer->setText(why);
    s.latency->clear();
}

void AbAnswers::showSide(int side, const std::shared_ptr<const once::AskReport>& report,
                         const QString& error) {
    SideWidgets& s = sides_[static_cast<std::size_t>(side)];
    if (!(s.now == s.asked)) {
        clearSide(side);  // the side changed while it was answered
        return;
    }
    if (!report) {
        clearSide(side, error);
        return;
    }
    s.report = report;
    s.answer->setText(QString::fromStdString(report->answer));
    // The length of the answer, then the question panel's latency rows for this column: each
    // stage's time (cached ones marked) and the total this question ran.
    QStringList parts{tr("%n output token(s)", "", static_cast<int>(report->tokenIds.size()))};
    for (const StatisticRow& row : latencyStatistics(nullptr, report.get())) {
        parts << QStringLiteral("%1 %2").arg(row.name, row.compressed);
    }
    s.latency->setText(parts.join(QStringLiteral(" · ")));
}

QString AbAnswers::answerText(int side) const {
    return sides_[static_cast<std::size_t>(side)].answer->text();
}

QString AbAnswers::latencyText(int side) const {
    return sides_[static_cast<std::size_t>(side)].latency->text();
}

}  // namespace once::studio
