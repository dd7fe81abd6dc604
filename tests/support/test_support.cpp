#include "support/test_support.h"

#include <ATen/ATen.h>

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "features/feature_file.h"

namespace once::test {

std::string tempDir() {
    static std::vector<std::unique_ptr<QTemporaryDir>> dirs;
    dirs.push_back(std::make_unique<QTemporaryDir>());
    return dirs.back()->path().toStdString();
}

std::string sourcePath(const std::string& relative) {
    return std::string(ONCE_SOURCE_DIR) + "/" + relative;
}

static ProcessResult run(const QString& program, const QStringList& args, int timeoutMs) {
    QProcess p;
    p.start(program, args);
    ProcessResult r;
    if (!p.waitForStarted(30000)) {
        r.err = "cannot start " + program;
        return r;
    }
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out: " + program;
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

ProcessResult runPython(const QString& script, const QStringList& args, int timeoutMs) {
    QStringList all;
    all << QString::fromStdString(sourcePath("tests/reference/")) + script << args;
    return run(QString(ONCE_TEST_PYTHON), all, timeoutMs);
}

ProcessResult runCli(const QStringList& args, int timeoutMs) {
    return run(QString(ONCE_CLI_PATH), args, timeoutMs);
}

double maxAbsDiff(const at::Tensor& a, const at::Tensor& b) {
    if (a.numel() == 0 && b.numel() == 0) {
        return 0;
    }
    return (a.to(at::kDouble) - b.to(at::kDouble)).abs().max().item<double>();
}

std::string writeFeatureFile(const at::Tensor& features, const std::string& path, double frameStep,
                             const std::string& source) {
    EncodedVideo f;
    f.features = features;
    const std::int64_t frames = features.size(0);
    for (std::int64_t t = 0; t < frames; ++t) {
        f.frameTimes.push_back(frameStep * double(t));
    }
    f.backbone = "demo";
    f.gridH = 1;
    f.gridW = int(features.size(1));
    f.sampling = "uniform:" + std::to_string(frames);
    f.source = source;
    saveFeatureFile(f, path);
    return path;
}

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

}  // namespace once::test
