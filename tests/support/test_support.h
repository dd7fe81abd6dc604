#pragma once
// Helpers shared by the Qt Test suites: temporary folders, running the Python references in the
// project virtualenv, and running the `once` CLI.
#include <ATen/core/Tensor.h>

#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <string>

#include "util/error.h"

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

/// Writes `features` [T, P, D] as a feature file as a "demo" encoder would have: grid 1 × P,
/// frame times t · frameStep seconds, sampling "uniform:T", and `source` when given. Returns
/// `path`. For training and merge tests that build their corpus from synthetic features.
std::string writeFeatureFile(const at::Tensor& features, const std::string& path,
                             double frameStep = 1.0, const std::string& source = {});

/// The bytes of a file ("" when it cannot be read: the caller's assertion then says so).
std::string readText(const std::string& path);
/// Writes `text` to `path`, replacing it (test inputs, not user files: no temporary + rename).
void writeText(const std::string& path, const std::string& text);

/// The OnceError that `f` throws; a test failure (qFatal) when it throws none.
template <class F>
OnceError errorOf(F f) {
    try {
        f();
    } catch (const OnceError& e) {
        return e;
    }
    qFatal("expected an OnceError");
}

/// Max |a - b| after converting both to float64.
double maxAbsDiff(const at::Tensor& a, const at::Tensor& b);

}  // namespace once::test
