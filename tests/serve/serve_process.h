#pragma once
// A real `once serve` process for the serve suites: started on a free loopback port (--port 0;
// the port is read from its first line), stopped with SIGTERM at the end; and curl, a second
// client no one here wrote, for raw HTTP (bad bodies, headers, server-sent events).
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "support/models_fixture.h"
#include "support/test_support.h"

namespace once::test {

class ServeProcess {
  public:
    /// Starts `once serve ARGS --port 0` and waits for its "on http://HOST:PORT" line (model
    /// loading included). url() is empty when it did not start; error() then says why.
    explicit ServeProcess(const QStringList& args, int timeoutMs = 120000) {
        p_ = std::make_unique<QProcess>();
        p_->start(QString(ONCE_CLI_PATH), QStringList{"serve"} + args + QStringList{"--port", "0"});
        QElapsedTimer t;
        t.start();
        QString out;
        const QRegularExpression re("on (http://[^ ]+:(\\d+)) ");
        while (t.elapsed() < timeoutMs && p_->state() != QProcess::NotRunning) {
            p_->waitForReadyRead(200);
            out += QString::fromUtf8(p_->readAllStandardOutput());
            const auto m = re.match(out);
            if (m.hasMatch()) {
                url_ = m.captured(1);
                port_ = m.captured(2).toInt();
                return;
            }
        }
        p_->waitForFinished(1000);
        error_ = out + QString::fromUtf8(p_->readAllStandardError());
    }
    ~ServeProcess() { stop(); }

    /// SIGTERM, then the exit code (−1 when it had to be killed).
    int stop() {
        if (!p_ || p_->state() == QProcess::NotRunning) {
            return p_ ? p_->exitCode() : -1;
        }
        p_->terminate();
        if (!p_->waitForFinished(15000)) {
            p_->kill();
            p_->waitForFinished();
            return -1;
        }
        return p_->exitStatus() == QProcess::NormalExit ? p_->exitCode() : -1;
    }
    bool running() const { return p_ && p_->state() == QProcess::Running; }
    const QString& url() const { return url_; }
    int port() const { return port_; }
    QString error() const { return error_; }
    qint64 pid() const { return p_ ? p_->processId() : 0; }
    /// What the server wrote on stderr so far.
    QString log() { return log_ += QString::fromUtf8(p_->readAllStandardError()); }

  private:
    std::unique_ptr<QProcess> p_;
    QString url_, error_, log_;
    int port_ = 0;
};

/// The model the serve suites run: a tiny random LLaVA-OneVision of the published geometry saved
/// by transformers (tests/reference/serve_client.py model), a random codebook of its 112-D
/// feature space, and a copy of the real clip in `dir`/media (a copy: a symlink would point out
/// of the media root and be refused, as it should).
struct TinyServeModel {
    std::string model, codebook, media, clip;
    QString error;  ///< why it could not be made; empty when it was
    /// The model options every suite gives `once serve` and `once ask` alike.
    QStringList args() const {
        return {"--model",       QString::fromStdString(model),
                "--sampling",    "uniform:4",
                "--pool-stride", "2",
                "--dtype",       "float32"};
    }
};

inline TinyServeModel makeTinyServeModel(const std::string& dir) {
    TinyServeModel m;
    m.model = dir + "/model";
    const ProcessResult r =
        runPython("serve_client.py", {"model", QString::fromStdString(m.model)});
    if (r.exitCode != 0) {
        m.error = r.err;
        return m;
    }
    m.codebook = dir + "/codebook.safetensors";
    writeRandomCodebook(m.codebook, 40, 112, "llava-onevision", "projected patch grid");
    m.media = dir + "/media";
    std::filesystem::create_directories(m.media);
    m.clip = m.media + "/clip.mp4";
    std::filesystem::copy_file(kRealClip, m.clip);
    return m;
}

struct HttpReply {
    int status = 0;
    std::string body;
    std::string headers;
    nlohmann::json json() const { return nlohmann::json::parse(body, nullptr, false); }
};

/// curl ARGS… URL: status, headers and body (curl's own failure: status 0, body its stderr).
inline HttpReply curl(const QString& url, const QStringList& args) {
    const QString headerFile = QString::fromStdString(tempDir() + "/headers.txt");
    QProcess p;
    p.start("curl", QStringList{"-sS", "-D", headerFile, "-o", "-", "-w", "\n%{http_code}",
                                "--max-time", "120"} +
                        args + QStringList{url});
    p.waitForFinished(150000);
    HttpReply r;
    QString out = QString::fromUtf8(p.readAllStandardOutput());
    const auto nl = out.lastIndexOf('\n');
    r.status = out.mid(nl + 1).toInt();
    r.body = out.left(nl).toStdString();
    r.headers = readText(headerFile.toStdString());
    if (r.status == 0) {
        r.body = QString::fromUtf8(p.readAllStandardError()).toStdString();
    }
    return r;
}

/// POST `body` as JSON.
inline HttpReply postJson(const QString& url, const std::string& body,
                          const QStringList& extra = {}) {
    const std::string file = tempDir() + "/body.json";
    writeText(file, body);
    return curl(url, QStringList{"-H", "Content-Type: application/json", "--data-binary",
                                 "@" + QString::fromStdString(file)} +
                         extra);
}

}  // namespace once::test
