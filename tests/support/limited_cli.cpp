#include "support/limited_cli.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QtTest>
#include <filesystem>

namespace once::test {

LimitedRun runCliLimited(const QStringList& args) {
    QString program = QString(ONCE_CLI_PATH);
    QStringList all = args;
    if (!QStandardPaths::findExecutable("prlimit").isEmpty()) {
        all = QStringList{"--as=" + QString::number(kLimitedAddressSpace), "--", program} + all;
        program = "prlimit";
    }
    if (!QStandardPaths::findExecutable("timeout").isEmpty()) {
        all = QStringList{"-s", "KILL", QString::number(kLimitedSeconds), program} + all;
        program = "timeout";
    }
    QProcess p;
    QElapsedTimer timer;
    timer.start();
    p.start(program, all);
    LimitedRun r;
    if (!p.waitForStarted(30000) || !p.waitForFinished(1000 * (kLimitedSeconds + 30))) {
        p.kill();
        p.waitForFinished();
        r.text = "did not finish: " + program + " " + all.join(' ');
        r.crashed = true;
        return r;
    }
    r.ms = timer.elapsed();
    // `timeout -s KILL` exits 137 when it had to kill: that is a hang, not an answer.
    r.crashed = p.exitStatus() != QProcess::NormalExit || p.exitCode() == 137;
    r.exitCode = p.exitCode();
    r.text =
        QString::fromUtf8(p.readAllStandardOutput()) + QString::fromUtf8(p.readAllStandardError());
    return r;
}

void expectRefused(const QStringList& args, const std::string& file, const std::string& output,
                   const QString& needle, int code) {
    const LimitedRun r = runCliLimited(args);
    const QString what = QString::fromStdString(file) + ": " + r.text.left(2000);
    QVERIFY2(!r.crashed, qPrintable("crashed or hung on " + what));
    QVERIFY2(r.exitCode == code, qPrintable("exit code " + QString::number(r.exitCode) +
                                            " (expected " + QString::number(code) + ") on " +
                                            what));
    QVERIFY2(r.text.contains(QString::fromStdString(std::filesystem::path(file).filename())),
             qPrintable("the file is not named: " + what));
    for (const char* leak : {"json.exception", "stoll", "stoi", "max_size", "bad_alloc",
                             "Exception raised from", "frame #", "can't allocate", "terminate",
                             "Stride calculation"}) {
        QVERIFY2(!r.text.contains(leak),
                 qPrintable(QString("library text '") + leak + "': " + what));
    }
    if (!needle.isEmpty()) {
        QVERIFY2(r.text.contains(needle), qPrintable("'" + needle + "' missing: " + what));
    }
    // A usage error prints the command's help after its one line.
    QVERIFY2(code == 2 || r.text.count('\n') <= 3,
             qPrintable("more than a one-line error: " + what));
    QVERIFY2(r.ms < 30000, qPrintable("took " + QString::number(r.ms) + " ms: " + what));
    QVERIFY2(output.empty() || !std::filesystem::exists(std::filesystem::symlink_status(output)),
             qPrintable("an output file was written: " + what));
}

}  // namespace once::test
