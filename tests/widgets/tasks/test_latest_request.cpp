// "The latest request wins" (widgets/tasks/latest_request.h), the mechanism of the views that
// recompute on every change: a request while one runs cancels it and runs once it has ended, only
// the newest of those that came meanwhile runs, and a superseded request delivers nothing — no
// result and no failure — even when its work ignores the cancel and ends with a result.
#include <QSignalSpy>
#include <QtTest>
#include <atomic>
#include <chrono>
#include <thread>

#include "tasks/background_task.h"
#include "tasks/latest_request.h"
#include "util/error.h"

using namespace once::studio;

namespace {

/// Work that records `id` as delivered, after `gate` opens (when given); `checkCancel`: it stops
/// at the cancel (a cancel point each millisecond), else it ignores it.
BackgroundTask::Work job(int id, std::vector<int>& delivered, std::atomic<bool>* gate = nullptr,
                         bool checkCancel = true) {
    return [id, &delivered, gate, checkCancel](once::Progress& progress) {
        while (gate && !*gate) {
            if (checkCancel) {
                progress.update(0);  // throws once::Cancelled once cancelled
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return BackgroundTask::Deliver([id, &delivered] { delivered.push_back(id); });
    };
}

bool waitIdle(LatestRequestRunner& runner) {
    for (int i = 0; i < 100 && runner.isBusy(); ++i) {
        if (!runner.task()->wait(10000)) {
            return false;
        }
    }
    return !runner.isBusy();
}

}  // namespace

class TestLatestRequest : public QObject {
    Q_OBJECT
  private slots:
    void runsAtOnceWhenIdle() {
        LatestRequestRunner runner;
        std::vector<int> delivered;
        runner.run(QStringLiteral("one"), job(1, delivered));
        QVERIFY(runner.task()->isRunning());
        QVERIFY(waitIdle(runner));
        QCOMPARE(delivered, std::vector<int>{1});
    }

    void theNewestOfTheWaitingRequestsRunsAndTheRunningOneIsCancelled() {
        LatestRequestRunner runner;
        QSignalSpy started(runner.task(), &BackgroundTask::started);
        QSignalSpy cancelled(runner.task(), &BackgroundTask::cancelled);
        std::vector<int> delivered;
        std::atomic<bool> never{false};
        runner.run(QStringLiteral("1"), job(1, delivered, &never));
        runner.run(QStringLiteral("2"), job(2, delivered));
        runner.run(QStringLiteral("3"), job(3, delivered));
        QVERIFY(runner.isBusy());
        QVERIFY(waitIdle(runner));
        QCOMPARE(delivered, std::vector<int>{3});  // 1 cancelled, 2 replaced before it started
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(started.count(), 2);
        QCOMPARE(started.last().at(0).toString(), QStringLiteral("3"));
    }

    void aSupersededResultIsNeverDelivered() {
        // The running work ignores the cancel and returns a result: it is dropped.
        LatestRequestRunner runner;
        std::vector<int> delivered;
        std::atomic<bool> gate{false};
        runner.run(QStringLiteral("old"), job(1, delivered, &gate, false));
        runner.run(QStringLiteral("new"), job(2, delivered));
        gate = true;
        QVERIFY(waitIdle(runner));
        QCOMPARE(delivered, std::vector<int>{2});
    }

    void aResultEndedBeforeTheCancelIsDroppedToo() {
        // The work has ended (its outcome waits in the event queue) when the next request comes.
        LatestRequestRunner runner;
        std::vector<int> delivered;
        runner.run(QStringLiteral("old"), job(1, delivered));
        // No events processed: the work is done by now, its outcome queued, the task running.
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        QVERIFY(runner.task()->isRunning());
        runner.run(QStringLiteral("new"), job(2, delivered));
        QVERIFY(waitIdle(runner));
        QCOMPARE(delivered, std::vector<int>{2});
    }

    void onlyTheNewestRequestsFailureIsReported() {
        LatestRequestRunner runner;
        QSignalSpy failed(&runner, &LatestRequestRunner::failed);
        std::atomic<bool> gate{false};
        runner.run(QStringLiteral("old"), [&gate](once::Progress&) -> BackgroundTask::Deliver {
            while (!gate) {
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            once::fail("the old request's error", "stale");
        });
        runner.run(QStringLiteral("new"), [](once::Progress&) -> BackgroundTask::Deliver {
            once::fail("the newest request's error", "newest");
        });
        gate = true;
        QVERIFY(waitIdle(runner));
        QCOMPARE(failed.count(), 1);
        QVERIFY2(failed.first().at(0).toString().contains(QStringLiteral("newest")),
                 qPrintable(failed.first().at(0).toString()));
    }

    void cancelDropsTheRunningAndTheWaitingRequest() {
        LatestRequestRunner runner;
        std::vector<int> delivered;
        std::atomic<bool> gate{false};
        runner.run(QStringLiteral("1"), job(1, delivered, &gate, false));
        runner.run(QStringLiteral("2"), job(2, delivered));
        runner.cancel();
        gate = true;
        QVERIFY(waitIdle(runner));
        QVERIFY(delivered.empty());
        // Usable again afterwards.
        runner.run(QStringLiteral("3"), job(3, delivered));
        QVERIFY(waitIdle(runner));
        QCOMPARE(delivered, std::vector<int>{3});
    }

    void destroyingWhileRunningDeliversNothing() {
        std::vector<int> delivered;
        std::atomic<bool> gate{false};
        {
            LatestRequestRunner runner;
            runner.run(QStringLiteral("1"), job(1, delivered, &gate));
            runner.run(QStringLiteral("2"), job(2, delivered));
        }
        QVERIFY(delivered.empty());
    }
};

QTEST_MAIN(TestLatestRequest)
#include "test_latest_request.moc"
