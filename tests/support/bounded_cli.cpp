#include "support/bounded_cli.h"

#include <sys/stat.h>

#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <filesystem>

#include "support/models_fixture.h"
#include "support/test_support.h"
#include "util/sha256.h"

namespace once::test {
namespace fs = std::filesystem;

BoundedRun runCliBounded(const QStringList& args, int seconds, const QStringList& env) {
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString& kv : env) {
        const int eq = kv.indexOf('=');
        e.insert(kv.left(eq), kv.mid(eq + 1));
    }
    p.setProcessEnvironment(e);
    p.setStandardInputFile(QProcess::nullDevice());
    QElapsedTimer timer;
    timer.start();
    p.start("timeout",
            QStringList{"--kill-after=5", QString::number(seconds), ONCE_CLI_PATH} + args);
    BoundedRun r;
    if (!p.waitForStarted(30000) || !p.waitForFinished((seconds + 30) * 1000)) {
        p.kill();
        p.waitForFinished();
        r.timedOut = true;
        r.err = "did not finish";
        return r;
    }
    r.ms = timer.elapsed();
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.timedOut = r.exitCode == 124 || r.exitCode == 137;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

bool makeFifo(const std::string& path) {
    std::error_code ec;
    fs::remove(path, ec);
    return ::mkfifo(path.c_str(), 0600) == 0;
}

void copyTree(const std::string& from, const std::string& to) {
    fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
}

void writeOneQuestionEgoschema(const std::string& dir) {
    fs::create_directories(dir + "/ann");
    fs::create_directories(dir + "/videos");
    // Whatever a test left there (a FIFO would block the writes below) goes first.
    for (const char* f : {"/ann/questions.json", "/ann/subset_answers.json", "/videos/q1.mp4"}) {
        fs::remove(dir + f);
    }
    fs::copy_file(kRealClip, dir + "/videos/q1.mp4");
    writeText(dir + "/ann/questions.json",
              R"([{"q_uid": "q1", "question": "What is it?", "option 0": "a", "option 1": "b",
                   "option 2": "c", "option 3": "d", "option 4": "e"}])");
    writeText(dir + "/ann/subset_answers.json", R"({"q1": 2})");
}

std::map<std::string, std::string> treeFingerprint(const std::string& dir) {
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        const std::string rel = fs::relative(e.path(), dir).string();
        if (e.is_symlink()) {
            out[rel] = "-> " + fs::read_symlink(e.path()).string();
        } else if (e.is_regular_file()) {
            out[rel] = Sha256::hexOfFile(e.path().string());
        }
    }
    return out;
}

}  // namespace once::test
