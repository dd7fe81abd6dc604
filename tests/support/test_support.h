#pragma once
// Helpers shared by the Qt Test suites: temporary folders, running the Python references in the
// project virtualenv, and running the `once` CLI.
#include <ATen/core/Tensor.h>

#include <QString>
#include <QStringList>
#include <string>

namespace once::test {

/// A fresh temporary folder for one test (removed at exit).
std::string tempDir();
/// Absolute path of a file in the source tree.
std::string sourcePath(const std::string& relative);

struct ProcessResult {
    int exitCode = -1;
    QString out;
    QString err;
};
/// Runs a script of tests/reference/ with the project Python; QFAILs when Python is missing.
ProcessResult runPython(const QString& script, const QStringList& args, int timeoutMs = 600000);
/// Runs the `once` CLI built beside the tests.
ProcessResult runCli(const QStringList& args, int timeoutMs = 600000);

/// Max |a - b| after converting both to float64.
double maxAbsDiff(const at::Tensor& a, const at::Tensor& b);

}  // namespace once::test
