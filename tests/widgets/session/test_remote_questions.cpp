// The studio as a client of `once serve` (issue 29): a real server on a loopback port with the
// serve suites' tiny LLaVA-OneVision (serve/serve_process.h), driven through the studio's own
// widgets — the Connect to Server dialog (a wrong key is shown there, the right one connects,
// the key is written to the settings only when asked), the question panel (its answers equal
// the server's and a local AnswerSession's on the same inputs, the overlay's groups are the
// server's kept groups, the times say which machine measured them) — and a server killed in the
// middle of an answer: the error is shown, the session stays, and after Disconnect the studio
// answers on this machine again. The A/B view's answers go to the server as the panel's do.
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QtTest>
#include <csignal>

#include "../studio_test_data.h"
#include "codebook/codebook.h"
#include "compare/ab_answers.h"
#include "pipeline/answer_session.h"
#include "question/connect_server_dialog.h"
#include "question/question_panel.h"
#include "remote_fixture.h"
#include "serve/remote_client.h"
#include "serve/serve_process.h"
#include "session/methods.h"
#include "session/remote_connection.h"
#include "session/studio_session.h"
#include "support/test_support.h"
#include "tasks/background_task.h"

using namespace once::studio;

namespace {
const char* kKey = "the-studio-client-test-key";
const char* kQuestion = "What is in the video?";
constexpr std::int64_t kBudget = 6;
constexpr int kMaxTokens = 64;  // the question panel's default
}  // namespace

class TestRemoteQuestions : public QObject {
    Q_OBJECT
    std::string dir_;
    once::test::TinyServeModel model_;
    std::unique_ptr<once::test::ServeProcess> server_;
    std::unique_ptr<once::AnswerSession> local_;

    std::unique_ptr<once::test::ServeProcess> startServer() {
        return std::make_unique<once::test::ServeProcess>(
            model_.args() + QStringList{"--codebook", QString::fromStdString(model_.codebook),
                                        "--api-key-file", QString::fromStdString(dir_ + "/key")});
    }

    /// Connects `session` through the dialog with `key`; returns the dialog's status line.
    static QString connectWith(StudioSession& session, const QString& url, const QString& key,
                               bool remember) {
        ConnectServerDialog dialog(session.remote());
        dialog.urlEdit()->setText(url);
        dialog.keyEdit()->setText(key);
        dialog.rememberKeyBox()->setChecked(remember);
        QSignalSpy done(session.remote()->checkTask(), &BackgroundTask::finished);
        QTest::mouseClick(dialog.connectButton(), Qt::LeftButton);
        if (!done.wait(60000)) {
            return QStringLiteral("(no answer)");
        }
        QCoreApplication::processEvents();
        return dialog.status();
    }

    /// Asks through the panel and waits; the outcome's reports are caught from the controller.
    static bool askAndWait(QuestionPanel& panel, QuestionController::Outcome* outcome,
                           const QString& question = QString::fromLatin1(kQuestion)) {
        auto c =
            QObject::connect(panel.controller(), &QuestionController::answered,
                             [outcome](const QuestionController::Outcome& o) { *outcome = o; });
        QSignalSpy finished(panel.task(), &BackgroundTask::finished);
        panel.questionEdit()->setText(question);
        QTest::mouseClick(panel.askButton(), Qt::LeftButton);
        const bool ok = finished.wait(300000);
        QObject::disconnect(c);
        return ok;
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // the settings go to a test location
        QSettings().clear();
        dir_ = once::test::tempDir();
        model_ = once::test::makeTinyServeModel(dir_);
        QVERIFY2(model_.error.isEmpty(), qPrintable(model_.error));
        once::test::writeText(dir_ + "/key", std::string(kKey) + "\n");
        server_ = startServer();
        QVERIFY2(!server_->url().isEmpty(), qPrintable(server_->error()));
        once::AnswerSessionOptions so;
        so.modelDir = model_.model;
        so.codebook = model_.codebook;
        so.sampling = "uniform:4";
        so.poolStride = 2;
        so.dtype = "float32";
        local_ = std::make_unique<once::AnswerSession>(so);
        local_->loadVideo(model_.clip);
    }

    void theDialogShowsAWrongKeyAndConnectsWithTheRightOne() {
        StudioSession session;
        ConnectServerDialog dialog(session.remote());
        dialog.rememberKeyBox()->setChecked(true);
        // Before the key is stored, the dialog names the file it would be stored in.
        QVERIFY(dialog.keyWarning()->isVisibleTo(&dialog));
        QVERIFY2(dialog.keyWarning()->text().contains(RemoteConnection::settingsFile()),
                 qPrintable(dialog.keyWarning()->text()));
        QVERIFY(dialog.keyWarning()->text().contains(QLatin1String("plain text")));
        dialog.rememberKeyBox()->setChecked(false);
        QVERIFY(!dialog.keyWarning()->isVisibleTo(&dialog));

        const QString wrong =
            connectWith(session, server_->url(), QStringLiteral("not-the-key-0123456789"), false);
        QVERIFY2(wrong.contains(QLatin1String("401")), qPrintable(wrong));
        QVERIFY(!session.remote()->isConnected());
        const QString gone = connectWith(session, QStringLiteral("http://127.0.0.1:1"),
                                         QString::fromLatin1(kKey), false);
        QVERIFY2(gone.contains(QLatin1String("cannot reach")), qPrintable(gone));
        QVERIFY(!session.remote()->isConnected());

        // The right key, not remembered: the URL is kept, the key is not written anywhere.
        const QString ok = connectWith(session, server_->url(), QString::fromLatin1(kKey), false);
        QVERIFY2(session.remote()->isConnected(), qPrintable(ok));
        QCOMPARE(session.remote()->machine(), server_->url().mid(7));
        QCOMPARE(session.remote()->model(), QStringLiteral("model"));
        QCOMPARE(RemoteConnection::remembered().url, server_->url());
        QVERIFY(!RemoteConnection::remembered().keyRemembered);
        // Remembered when ticked, and the next dialog starts with it.
        session.remote()->disconnectFromServer();
        QVERIFY(!session.remote()->isConnected());
        connectWith(session, server_->url(), QString::fromLatin1(kKey), true);
        QVERIFY(session.remote()->isConnected());
        QCOMPARE(RemoteConnection::remembered().apiKey, QString::fromLatin1(kKey));
        ConnectServerDialog next(session.remote());
        QCOMPARE(next.keyEdit()->text(), QString::fromLatin1(kKey));
        QVERIFY(next.rememberKeyBox()->isChecked());
        // Unticking it removes the stored key.
        connectWith(session, server_->url(), QString::fromLatin1(kKey), false);
        QVERIFY(!RemoteConnection::remembered().keyRemembered);
        QVERIFY(!QSettings().contains(QStringLiteral("server/apiKey")));
    }

    void questionsGoToTheServerAndTheOverlayDrawsItsGroups() {
        StudioSession session;
        QuestionPanel panel(&session);
        QSignalSpy errors(&session, &StudioSession::errorOccurred);
        once::studio::test::openRemoteInputs(session, model_, kBudget);
        QVERIFY(once::studio::test::waitForResult(session, session.method(), kBudget));
        QVERIFY2(errors.isEmpty(),
                 errors.isEmpty() ? "" : qPrintable(errors.first().at(1).toString()));
        QVERIFY(connectWith(session, server_->url(), QString::fromLatin1(kKey), false)
                    .contains(QLatin1String("Connected")));
        QVERIFY(panel.canAnswer());

        const auto before = session.result();  // this machine's compression of the budget
        QSignalSpy pieces(panel.controller(), &QuestionController::textArrived);
        QuestionController::Outcome outcome;
        QVERIFY(askAndWait(panel, &outcome));
        QVERIFY2(panel.problem().isEmpty(), qPrintable(panel.problem()));
        QVERIFY(outcome.dense && outcome.compressed);
        QCOMPARE(outcome.plan.machine, server_->url().mid(7));
        QVERIFY(pieces.size() >= 2);  // streamed, both columns

        // The same request of the server, and of a local AnswerSession on the same inputs.
        once::AskOptions o;
        o.maxNewTokens = kMaxTokens;
        const once::AskReport denseLocal = local_->ask(kQuestion, o);
        o.budget = kBudget;
        o.method = session.method().toStdString();
        o.params = methods::params(session.method(), session.variant());
        const once::AskReport compressedLocal = local_->ask(kQuestion, o);
        once::serve::RemoteEndpoint e;
        e.url = server_->url().toStdString();
        e.apiKey = kKey;
        const once::serve::RemoteAnswer server =
            once::serve::askRemote(e, model_.clip, kQuestion, o, "uniform:4", {});
        QCOMPARE(outcome.compressed->tokenIds, server.report.tokenIds);
        QCOMPARE(outcome.compressed->tokenIds, compressedLocal.tokenIds);
        QCOMPARE(outcome.dense->tokenIds, denseLocal.tokenIds);
        QCOMPARE(panel.onceAnswer(), QString::fromStdString(compressedLocal.answer));
        QCOMPARE(panel.denseAnswer(), QString::fromStdString(denseLocal.answer));
        QCOMPARE(outcome.compressed->groupOfToken, server.report.groupOfToken);

        // The overlay draws the server's kept groups.
        const auto result = session.result();
        QVERIFY(result);
        QVERIFY(result != before);
        QVERIFY(!result->residual.defined());  // the server sends groups, not residuals
        const at::Tensor g = result->groupOfToken.contiguous();
        QCOMPARE(std::vector<std::int64_t>(g.data_ptr<std::int64_t>(),
                                           g.data_ptr<std::int64_t>() + g.numel()),
                 server.report.groupOfToken);
        const at::Tensor ids = result->codewordIds.contiguous();
        QCOMPARE(std::vector<std::int64_t>(ids.data_ptr<std::int64_t>(),
                                           ids.data_ptr<std::int64_t>() + ids.numel()),
                 server.report.codewordIds);
        QVERIFY2(panel.measuredOn().contains(server_->url().mid(7) + QStringLiteral(" (remote)")),
                 qPrintable(panel.measuredOn()));
        // The server's stages, not this machine's dtype.
        QVERIFY(!panel.statistic(QStringLiteral("prefill time"), 1).isEmpty());
        QVERIFY(panel.statistic(QStringLiteral("Compute dtype"), 1).isEmpty());
    }

    void noModelFolderIsNeededToAskAServer() {
        StudioSession session;
        QuestionPanel panel(&session);
        session.openVideo(QString::fromStdString(model_.clip));  // the demo encoder shows it
        QVERIFY(once::studio::test::waitIdle(session, 120000, false));
        QVERIFY(!session.model());
        QVERIFY(!panel.canAnswer());
        connectWith(session, server_->url(), QString::fromLatin1(kKey), false);
        QVERIFY(session.remote()->isConnected());
        QVERIFY2(panel.canAnswer(), qPrintable(panel.unavailableReason()));
        QuestionController::Outcome outcome;
        QVERIFY(askAndWait(panel, &outcome));
        QVERIFY2(panel.problem().isEmpty(), qPrintable(panel.problem()));
        QVERIFY(outcome.dense);
        once::AskOptions o;
        o.maxNewTokens = kMaxTokens;
        QCOMPARE(outcome.dense->tokenIds, local_->ask(kQuestion, o).tokenIds);
        // The demo encoder's grid is not the server's: the panel says why no groups are drawn.
        QVERIFY(outcome.groupsNotShown);
        QVERIFY2(panel.measuredOn().contains(QLatin1String("another token grid")),
                 qPrintable(panel.measuredOn()));
        session.remote()->disconnectFromServer();
        QVERIFY(!panel.canAnswer());
    }

    void theAbAnswersGoToTheServerToo() {
        StudioSession session;
        AbAnswers answers(&session);
        session.openVideo(QString::fromStdString(model_.clip));  // no model folder here
        QVERIFY(once::studio::test::waitIdle(session, 120000, false));
        QVERIFY(!answers.askButton()->isEnabled());
        connectWith(session, server_->url(), QString::fromLatin1(kKey), false);
        QVERIFY(session.remote()->isConnected());
        QVERIFY2(answers.askButton()->isEnabled(), qPrintable(answers.askButton()->toolTip()));
        const QString method = session.method();
        const std::array<std::int64_t, 2> budgets{kBudget, kBudget / 2};
        for (int s = 0; s < 2; ++s) {
            answers.setSide(s, method, budgets[static_cast<std::size_t>(s)]);
        }
        answers.questionEdit()->setText(QString::fromLatin1(kQuestion));
        QCOMPARE(answers.maxTokensBox()->value(), kMaxTokens);
        QSignalSpy finished(answers.task(), &BackgroundTask::finished);
        QSignalSpy failed(answers.task(), &BackgroundTask::failed);
        QTest::mouseClick(answers.askButton(), Qt::LeftButton);
        QVERIFY(finished.wait(300000));
        QVERIFY2(failed.isEmpty(),
                 failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        // Each side is the server's answer for its budget, which a local AnswerSession with the
        // server's codebook gives too (this machine has no model folder to answer with).
        for (int s = 0; s < 2; ++s) {
            once::AskOptions o;
            o.maxNewTokens = kMaxTokens;
            o.budget = budgets[static_cast<std::size_t>(s)];
            o.method = method.toStdString();
            o.params = methods::params(method, session.variant());
            const once::AskReport local = local_->ask(kQuestion, o);
            QVERIFY2(answers.report(s), qPrintable(answers.answerText(s)));
            QCOMPARE(answers.report(s)->tokenIds, local.tokenIds);
            QCOMPARE(answers.answerText(s), QString::fromStdString(local.answer));
            QVERIFY(!answers.latencyText(s).isEmpty());
        }
        session.remote()->disconnectFromServer();
        QVERIFY(!answers.askButton()->isEnabled());
    }

    void aServerKilledMidAnswerLosesNothing() {
        auto doomed = startServer();
        QVERIFY2(!doomed->url().isEmpty(), qPrintable(doomed->error()));
        StudioSession session;
        QuestionPanel panel(&session);
        once::studio::test::openRemoteInputs(session, model_, kBudget);
        QVERIFY(once::studio::test::waitForResult(session, session.method(), kBudget));
        QVERIFY(connectWith(session, doomed->url(), QString::fromLatin1(kKey), false)
                    .contains(QLatin1String("Connected")));
        QuestionController::Outcome first;
        QVERIFY(askAndWait(panel, &first));
        QVERIFY(first.dense && first.compressed);

        // The server dies while it streams the next answer.
        const qint64 pid = doomed->pid();
        auto c = connect(panel.controller(), &QuestionController::textArrived, this,
                         [pid] { ::kill(static_cast<pid_t>(pid), SIGKILL); });
        QSignalSpy failed(panel.task(), &BackgroundTask::failed);
        QSignalSpy problems(&panel, &QuestionPanel::problemOccurred);
        QuestionController::Outcome second;
        QVERIFY(askAndWait(panel, &second, QStringLiteral("Describe the video in great detail.")));
        disconnect(c);
        QCOMPARE(failed.size(), 1);
        QVERIFY2(panel.problem().contains(QLatin1String("could not be answered")),
                 qPrintable(panel.problem()));
        QVERIFY2(panel.problem().contains(QString::fromStdString(doomed->url().toStdString())),
                 qPrintable(panel.problem()));
        QCOMPARE(problems.size(), 1);  // the main window's status bar logs it
        // The session is intact: video, codebook, model folder, the groups on screen.
        QVERIFY(!session.video().isEmpty());
        QVERIFY(session.codebook());
        QVERIFY(session.model());
        QVERIFY(session.result());
        QVERIFY(panel.askButton()->isEnabled());
        QCOMPARE(panel.askedQuestion(), QStringLiteral("Describe the video in great detail."));

        // Back to this machine: the same question answered locally, as a local session does.
        session.remote()->disconnectFromServer();
        QVERIFY(panel.canAnswer());
        QuestionController::Outcome local;
        QVERIFY(askAndWait(panel, &local));
        QVERIFY2(panel.problem().isEmpty(), qPrintable(panel.problem()));
        QVERIFY(local.dense && local.compressed);
        QVERIFY(local.plan.machine.isEmpty());
        QVERIFY2(panel.measuredOn().contains(QLatin1String("this machine")),
                 qPrintable(panel.measuredOn()));
        QCOMPARE(local.dense->tokenIds, first.dense->tokenIds);
        QCOMPARE(local.compressed->tokenIds, first.compressed->tokenIds);
    }
};

QTEST_MAIN(TestRemoteQuestions)
#include "test_remote_questions.moc"
