// The worker plumbing every long job of the studio uses: results delivered on the GUI thread,
// errors as complete messages, cancellation through once::CancelToken, progress thinned out and
// queued to the GUI thread, and a clean join when the owner goes away mid-work.
#include <QSignalSpy>
#include <QThread>
#include <QtTest>
#include <atomic>
#include <thread>

#include "tasks/background_task.h"
#include "tasks/qt_progress.h"
#include "util/error.h"

using namespace once::studio;

class TestBackgroundTask : public QObject {
    Q_OBJECT
  private slots:
    void deliversOnTheGuiThread() {
        BackgroundTask task;
        QSignalSpy succeeded(&task, &BackgroundTask::succeeded);
        QSignalSpy finished(&task, &BackgroundTask::finished);
        QThread* workerThread = nullptr;
        QThread* deliverThread = nullptr;
        int value = 0;
        QVERIFY(task.start(QStringLiteral("compute"), [&](once::Progress&) {
            workerThread = QThread::currentThread();
            const int result = 6 * 7;
            return std::function<void()>([&, result] {
                deliverThread = QThread::currentThread();
                value = result;
            });
        }));
        QVERIFY(task.isRunning());
        QVERIFY(finished.wait(10000));
        QCOMPARE(succeeded.count(), 1);
        QCOMPARE(value, 42);
        QVERIFY(workerThread != QThread::currentThread());
        QCOMPARE(deliverThread, QThread::currentThread());
        QVERIFY(!task.isRunning());
    }

    void refusesASecondJobWhileRunning() {
        BackgroundTask task;
        std::atomic<bool> release{false};
        QVERIFY(task.start(QStringLiteral("slow"), [&](once::Progress&) {
            while (!release) {
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            return std::function<void()>();
        }));
        QVERIFY(!task.start(QStringLiteral("second"),
                            [](once::Progress&) { return std::function<void()>(); }));
        release = true;
        QVERIFY(task.wait(10000));
        QVERIFY(!task.isRunning());
    }

    void reportsOnceErrorsWithTheirWholeMessage() {
        BackgroundTask task;
        QSignalSpy failed(&task, &BackgroundTask::failed);
        task.start(QStringLiteral("fail"), [](once::Progress&) -> std::function<void()> {
            once::fail("bad codebook", "/tmp/x.safetensors", "codebook", "rank 2", "rank 3");
        });
        QVERIFY(failed.wait(10000));
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(QLatin1String("bad codebook")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("/tmp/x.safetensors")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("rank 3")), qPrintable(message));
    }

    void cancelsAtTheNextProgressUpdate() {
        BackgroundTask task;
        QSignalSpy cancelled(&task, &BackgroundTask::cancelled);
        QSignalSpy succeeded(&task, &BackgroundTask::succeeded);
        QSignalSpy progressed(&task, &BackgroundTask::progressed);
        task.start(QStringLiteral("loop"), [](once::Progress& p) {
            p.begin("looping", 0);
            for (long i = 0;; ++i) {
                p.update(static_cast<double>(i));  // throws Cancelled once cancelled
                std::this_thread::sleep_for(std::chrono::microseconds(200));
            }
            return std::function<void()>();
        });
        QVERIFY(progressed.wait(10000));  // running and reporting
        task.cancel();
        QVERIFY(cancelled.wait(10000));
        QCOMPARE(succeeded.count(), 0);
        const auto update = progressed.first().first().value<ProgressUpdate>();
        QCOMPARE(update.stage, QStringLiteral("looping"));
    }

    void deliversAPartialResultWhenAskedTo() {
        // A job that catches the cancel and returns what it has: delivered (before cancelled())
        // only by a task set to deliver when cancelled; by default it is dropped.
        for (const bool delivers : {false, true}) {
            BackgroundTask task;
            task.setDeliversWhenCancelled(delivers);
            QSignalSpy cancelled(&task, &BackgroundTask::cancelled);
            QSignalSpy succeeded(&task, &BackgroundTask::succeeded);
            int delivered = 0;
            std::atomic<int> done{0};
            task.start(QStringLiteral("partial"), [&](once::Progress& p) {
                p.begin("measuring", 0);
                try {
                    for (long i = 0;; ++i) {
                        p.update(static_cast<double>(i));
                        done = int(i) + 1;
                        std::this_thread::sleep_for(std::chrono::microseconds(200));
                    }
                } catch (const once::Cancelled&) {
                }
                return std::function<void()>([&delivered, &cancelled] {
                    QCOMPARE(cancelled.count(), 0);  // delivered first
                    ++delivered;
                });
            });
            while (done.load() < 3) {
                QTest::qWait(5);
            }
            task.cancel();
            QVERIFY(cancelled.wait(10000));
            QCOMPARE(delivered, delivers ? 1 : 0);
            QCOMPARE(succeeded.count(), 0);
        }
    }

    void thinsProgressButKeepsTheLastEvent() {
        BackgroundTask task;
        task.progress()->setMinimumIntervalMs(1000);
        QSignalSpy progressed(&task, &BackgroundTask::progressed);
        QSignalSpy finished(&task, &BackgroundTask::finished);
        task.start(QStringLiteral("many"), [](once::Progress& p) {
            p.begin("counting", 10000);
            for (int i = 1; i <= 10000; ++i) {
                p.update(i);
            }
            return std::function<void()>();
        });
        QVERIFY(finished.wait(10000));
        QCoreApplication::processEvents();
        QVERIFY2(progressed.count() <= 5, qPrintable(QString::number(progressed.count())));
        const auto last = progressed.last().first().value<ProgressUpdate>();
        QCOMPARE(last.done, 10000.0);
        QCOMPARE(last.fraction(), 1.0);
    }

    void destroyingARunningTaskCancelsAndJoins() {
        std::atomic<bool> stopped{false};
        {
            BackgroundTask task;
            task.start(QStringLiteral("forever"), [&](once::Progress& p) {
                try {
                    for (;;) {
                        p.update(0);
                        std::this_thread::sleep_for(std::chrono::milliseconds(1));
                    }
                } catch (const once::Cancelled&) {
                    stopped = true;
                    throw;
                }
                return std::function<void()>();
            });
            QTest::qWait(20);
        }  // ~BackgroundTask: cancel + join, no delivery
        QVERIFY(stopped);
    }
};

QTEST_MAIN(TestBackgroundTask)
#include "test_background_task.moc"
