// The studio's budgets, overlay and budget sweep on a `once serve` (issue 29: "questions, budgets
// and the overlay then use the remote engine"): a real server on a loopback port with the serve
// suites' tiny LLaVA-OneVision, the budget panel's control moved by hand. While connected, every
// new budget is compressed by the server (its /metrics request counter grows) and the overlay
// draws the server's groups with "measured on host:port"; the sweep is timed there and says so.
// A server stopped mid-session is reported, the studio goes back to this machine and the session
// stays; a full server (--max-concurrent 1, one request held) is "server busy, retry in N s",
// compressed here meanwhile, and asked again at the next budget.
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>
#include <atomic>
#include <thread>

#include "../studio_test_data.h"
#include "budget/budget_panel.h"
#include "compress/compression.h"
#include "overlay/group_overlay.h"
#include "remote_fixture.h"
#include "serve/remote_client.h"
#include "session/compression_controller.h"
#include "session/methods.h"
#include "session/remote_connection.h"
#include "session/session_binder.h"
#include "support/test_support.h"
#include "tasks/background_task.h"

using namespace once::studio;

namespace {
constexpr std::int64_t kBudget = 6;
const char* kCompressed = "once_http_requests_total{route=\"/v1/once/compress\",code=\"200\"} ";

/// Compressions the server answered (its /metrics counter; 0 before the first).
int compressionsServed(const once::test::ServeProcess& server) {
    const std::string m = once::test::curl(server.url() + "/metrics", {}).body;
    const auto at = m.find(kCompressed);
    return at == std::string::npos ? 0 : std::stoi(m.substr(at + std::strlen(kCompressed)));
}

/// Waits until the server has no request in flight (a cancelled answer frees its slot when the
/// server notices the client left, which on a loaded machine takes a moment).
bool serverIdle(const once::test::ServeProcess& server) {
    for (int i = 0; i < 600; ++i) {
        const std::string m = once::test::curl(server.url() + "/metrics", {}).body;
        if (m.find("\nonce_requests_in_flight 0\n") != std::string::npos) {
            return true;
        }
        QTest::qWait(100);
    }
    return false;
}

/// Waits until the session is idle with a result at `budget` computed on `machine` ("" here).
bool waitForResultOn(StudioSession& session, std::int64_t budget, const QString& machine) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 120000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        const auto r = session.result();
        if (!session.isBusy() && r && r->budget == budget && session.resultMachine() == machine) {
            return true;
        }
        QTest::qWait(10);
    }
    return false;
}

std::vector<std::int64_t> longs(const at::Tensor& t) {
    const at::Tensor c = t.to(at::kLong).contiguous();
    return {c.data_ptr<std::int64_t>(), c.data_ptr<std::int64_t>() + c.numel()};
}
}  // namespace

class TestRemoteCompression : public QObject {
    Q_OBJECT
    std::string dir_;
    once::test::TinyServeModel model_;

    std::unique_ptr<once::test::ServeProcess> startServer(const QStringList& extra = {}) {
        return std::make_unique<once::test::ServeProcess>(
            model_.args() + QStringList{"--codebook", QString::fromStdString(model_.codebook)} +
            extra);
    }

    /// The studio of these tests: the session, and the budget panel and overlay bound to it.
    struct Studio {
        StudioSession session;
        BudgetPanel panel;
        GroupOverlay overlay;
        SessionBinder binder{&session, &overlay, &panel};
    };

    /// Opens the inputs, waits for this machine's result, then connects to `server`.
    static bool openAndConnect(Studio& s, const once::test::TinyServeModel& m,
                               const once::test::ServeProcess& server) {
        once::studio::test::openRemoteInputs(s.session, m, kBudget);
        if (!waitForResultOn(s.session, kBudget, {})) {
            return false;
        }
        QSignalSpy done(s.session.remote()->checkTask(), &BackgroundTask::finished);
        s.session.remote()->connectTo(server.url(), {});
        return done.wait(60000) && s.session.remote()->isConnected();
    }

    /// The server's own compression at `budget`, as the studio asks for it.
    once::serve::RemoteCompression serverGroups(const once::test::ServeProcess& server,
                                                const StudioSession& session, std::int64_t budget) {
        once::serve::RemoteEndpoint e;
        e.url = server.url().toStdString();
        once::AskOptions o;
        o.budget = budget;
        o.method = session.method().toStdString();
        o.params = methods::params(session.method(), session.variant());
        return once::serve::remoteCompress(e, model_.clip, o, "uniform:4", {});
    }

  private slots:
    void initTestCase() {
        dir_ = once::test::tempDir();
        model_ = once::test::makeTinyServeModel(dir_);
        QVERIFY2(model_.error.isEmpty(), qPrintable(model_.error));
    }

    void budgetsOverlayAndSweepComeFromTheServer() {
        auto server = startServer();
        QVERIFY2(!server->url().isEmpty(), qPrintable(server->error()));
        const QString machine = server->url().mid(7);
        Studio s;
        QSignalSpy errors(&s.session, &StudioSession::errorOccurred);
        QVERIFY(openAndConnect(s, model_, *server));
        // Connecting recompresses the budget on screen there.
        QVERIFY(waitForResultOn(s.session, kBudget, machine));
        const int before = compressionsServed(*server);
        QVERIFY(before >= 1);

        // The budget control moved by hand, twice in a row: the newest budget wins.
        s.panel.spinBox()->setValue(9);
        s.panel.spinBox()->setValue(12);
        QVERIFY(waitForResultOn(s.session, 12, machine));
        QVERIFY2(errors.isEmpty(),
                 errors.isEmpty() ? "" : qPrintable(errors.first().at(1).toString()));
        QVERIFY(compressionsServed(*server) > before);
        const auto result = s.session.result();
        QVERIFY(!result->residual.defined());  // the server sends groups, not residuals
        const once::serve::RemoteCompression want = serverGroups(*server, s.session, 12);
        QCOMPARE(longs(result->groupOfToken), longs(want.result->groupOfToken));
        QCOMPARE(longs(result->codewordIds), longs(want.result->codewordIds));
        // The overlay draws exactly those groups.
        const std::vector<std::int64_t> groups = longs(want.result->groupOfToken);
        QVERIFY(s.overlay.hasResult());
        for (std::size_t i = 0; i < groups.size(); ++i) {
            QCOMPARE(std::int64_t(s.overlay.groupOfToken(int(i))), groups[i]);
        }
        QVERIFY2(s.panel.timeText().contains(QStringLiteral("measured on ") + machine),
                 qPrintable(s.panel.timeText()));

        // The budget sweep is timed by the server, and says so.
        QVERIFY(s.session.canMeasureSweep());
        const int beforeSweep = compressionsServed(*server);
        QSignalSpy swept(s.session.sweepTask(), &BackgroundTask::finished);
        s.session.compression()->runBudgetSweep();
        QVERIFY(swept.wait(120000));
        QVERIFY(s.session.sweep());
        const once::BudgetSweep& sweep = *s.session.sweep();
        QCOMPARE(QString::fromStdString(sweep.machine), machine);
        QVERIFY(!sweep.points.empty());
        QVERIFY(sweep.points.front().prefillMs < 0);  // not measured on a server
        QVERIFY(compressionsServed(*server) >=
                beforeSweep + int(sweep.points.size()) * 3);  // 3 runs per budget

        // Disconnected: the next budget is this machine's again.
        s.session.remote()->disconnectFromServer();
        s.panel.spinBox()->setValue(7);
        QVERIFY(waitForResultOn(s.session, 7, {}));
        QVERIFY(s.session.result()->residual.defined());
        QVERIFY2(!s.panel.timeText().contains(QStringLiteral("measured on")),
                 qPrintable(s.panel.timeText()));
    }

    void aServerStoppedMidSessionFallsBackHere() {
        auto doomed = startServer();
        QVERIFY2(!doomed->url().isEmpty(), qPrintable(doomed->error()));
        const QString machine = doomed->url().mid(7);
        Studio s;
        QVERIFY(openAndConnect(s, model_, *doomed));
        QVERIFY(waitForResultOn(s.session, kBudget, machine));
        QSignalSpy errors(&s.session, &StudioSession::errorOccurred);
        doomed->stop();
        s.panel.spinBox()->setValue(10);
        // Said, then compressed here; the connection is dropped and the session stays.
        QVERIFY(waitForResultOn(s.session, 10, {}));
        QCOMPARE(errors.size(), 1);
        const QString message = errors.first().at(1).toString();
        QVERIFY2(message.contains(QLatin1String("cannot reach")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("this machine")), qPrintable(message));
        QVERIFY(!s.session.remote()->isConnected());
        QVERIFY(!s.session.video().isEmpty());
        QVERIFY(s.session.codebook());
        QVERIFY(s.session.model());
        QVERIFY(s.session.result()->residual.defined());  // this machine's compression
    }

    void aBusyServerSaysSoAndIsAskedAgain() {
        auto busy = startServer({"--max-concurrent", "1"});
        QVERIFY2(!busy->url().isEmpty(), qPrintable(busy->error()));
        const QString machine = busy->url().mid(7);
        Studio s;
        QVERIFY(openAndConnect(s, model_, *busy));
        QVERIFY(waitForResultOn(s.session, kBudget, machine));
        // A long answer holds the server's only slot.
        once::serve::RemoteEndpoint e;
        e.url = busy->url().toStdString();
        once::CancelToken hold;
        std::atomic<bool> streaming{false};
        std::thread held([&] {
            once::AskOptions o;
            o.maxNewTokens = 4000;
            o.onText = [&](const std::string&) { streaming = true; };
            try {
                once::serve::askRemote(e, model_.clip, "Describe the video in great detail.", o,
                                       "uniform:4", hold);
            } catch (const std::exception&) {
            }
        });
        for (int i = 0; i < 600 && !streaming; ++i) {
            QTest::qWait(100);
        }
        QVERIFY(streaming);
        QSignalSpy notices(&s.session, &StudioSession::notice);
        QSignalSpy errors(&s.session, &StudioSession::errorOccurred);
        s.panel.spinBox()->setValue(11);
        const bool here = waitForResultOn(s.session, 11, {});
        hold.cancel();
        held.join();
        QVERIFY(here);
        QVERIFY(errors.isEmpty());  // busy is not an error box
        QVERIFY(!notices.isEmpty());
        const QString notice = notices.last().at(0).toString();
        QVERIFY2(notice.contains(QLatin1String("server busy, retry in 1 s")), qPrintable(notice));
        QVERIFY(s.session.remote()->isConnected());  // the session goes on, connected
        // The held answer is cancelled: once the server has freed its slot, the next budget is
        // the server's again.
        QVERIFY(serverIdle(*busy));
        s.panel.spinBox()->setValue(13);
        QVERIFY(waitForResultOn(s.session, 13, machine));
    }
};

QTEST_MAIN(TestRemoteCompression)
#include "test_remote_compression.moc"
