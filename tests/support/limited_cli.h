#pragma once
// Running the `once` CLI the way the hostile-input suites judge it: under an address-space limit
// (prlimit) and a wall-clock limit (timeout), so a file or option that would make it allocate
// terabytes or hang fails the test instead of the machine; and the common verdict on a refusal.
#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <string>

namespace once::test {

struct LimitedRun {
    int exitCode = -1;
    bool crashed = false;  ///< killed by a signal, by `timeout`, or did not finish
    qint64 ms = 0;
    QString text;  ///< stdout + stderr
};

/// Address space of a limited run: 3 GB (LibTorch and its thread stacks need about 1 GB, so a
/// header that claims terabytes cannot be served by allocating them). Everything runs on the
/// CPU: initialising CUDA alone reserves more address space than that.
constexpr qint64 kLimitedAddressSpace = 3'000'000'000;
/// Wall-clock limit of a limited run (`timeout -s KILL`).
constexpr int kLimitedSeconds = 120;

/// `once args` under `prlimit --as` and `timeout` (each when installed).
LimitedRun runCliLimited(const QStringList& args);

/// The verdict on a refused input: exit `code` (never a signal), `file`'s name in the message,
/// no library text (json.exception, stoll, backtraces, bad_alloc), a one-line error, within 30 s,
/// and `output` (when given) not created. `needle`, when given, must appear in the message.
void expectRefused(const QStringList& args, const std::string& file, const std::string& output,
                   const QString& needle = {}, int code = 1);

}  // namespace once::test
