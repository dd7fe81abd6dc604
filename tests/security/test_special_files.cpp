// A FIFO or a device where the CLI expects a file: in a model folder (tokenizer.json, the chat
// template, the processor settings, config.json, a shard the index names), and every other path a
// user or a file gives (video, codebook, feature file, annotations, an eval merge plan, results,
// groups, GGUF). Before the fix each of these hung forever in open() or read() (and then ignored
// Ctrl-C and SIGTERM). Every case must end within seconds under `timeout` with exit 1, a message
// naming the file and what it is, no output written, and the FIFO left as it was. Then: a
// command blocked where no file check can help (its stdout a full pipe nobody reads) still ends
// on SIGTERM, and at once on a second Ctrl-C. Model folders: the tiny LLaVA-OneVision and Qwen3.5
// of the whole-path suites as save_pretrained writes them (tests/reference/hub_cache.py).
#include <ATen/ATen.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QElapsedTimer>
#include <QThread>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "codebook/codebook.h"
#include "io/safetensors.h"
#include "support/bounded_cli.h"
#include "support/models_fixture.h"
#include "support/test_support.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

bool isFifo(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

}  // namespace

class TestSpecialFiles : public QObject {
    Q_OBJECT
    std::string dir_, llava_, llavaSharded_, qwen_, features_, codebook_;

    QString q(const std::string& s) const { return QString::fromStdString(s); }

    // A copy of model folder `from` whose `file` is a FIFO (or, with `device`, a symlink to it).
    std::string folderWith(const std::string& from, const std::string& file,
                           const std::string& device = {}) {
        const std::string d = test::tempDir() + "/model";
        test::copyTree(from, d);
        if (device.empty()) {
            [&] { QVERIFY(test::makeFifo(d + "/" + file)); }();
        } else {
            fs::remove(d + "/" + file);
            fs::create_symlink(device, d + "/" + file);
        }
        return d;
    }

    // The verdict: refused in bounded time, exit 1, the file and its kind named, nothing written.
    void expectRefused(const QStringList& args, const std::string& file, const QString& kind,
                       const std::string& output = {}, const std::string& fifo = {}) {
        const test::BoundedRun r = test::runCliBounded(args, 60);
        const QString what = q(file) + ": " + args.join(' ') + "\n" + r.text().left(1500);
        QVERIFY2(!r.timedOut, qPrintable("hung (stopped by timeout): " + what));
        QVERIFY2(r.exitCode == 1, qPrintable("exit " + QString::number(r.exitCode) + ": " + what));
        QVERIFY2(r.err.contains(q(fs::path(file).filename().string())),
                 qPrintable("the file is not named: " + what));
        QVERIFY2(r.err.contains(kind), qPrintable("'" + kind + "' is not said: " + what));
        QVERIFY2(r.ms < 30000, qPrintable("took " + QString::number(r.ms) + " ms: " + what));
        QVERIFY2(output.empty() || !fs::exists(output), qPrintable("output written: " + what));
        QVERIFY2(fifo.empty() || isFifo(fifo), qPrintable("the FIFO was replaced: " + what));
    }

    QStringList ask(const std::string& model) const {
        return QStringList{"ask", test::kRealClip, "--model", q(model)} +
               QString("--dense --question What? --max-new-tokens 2 --dtype float32").split(' ');
    }
    QStringList encode(const std::string& model, const std::string& out) const {
        return QStringList{"encode", test::kRealClip, "--model", q(model), "-o", q(out)} +
               QString("--dtype float32 --sampling uniform:2").split(' ');
    }

  private slots:
    void initTestCase() {
        dir_ = test::tempDir();
        const auto py = test::runPython("hub_cache.py", {q(dir_)});
        QVERIFY2(py.exitCode == 0, qPrintable(py.err));
        llava_ = dir_ + "/src/llava-ov-tiny";
        llavaSharded_ = dir_ + "/src/llava-ov-tiny-sharded";
        qwen_ = dir_ + "/src/qwen3.5-tiny";
        at::manual_seed(3);
        features_ = test::writeFeatureFile(at::randn({3, 4, 6}), dir_ + "/f.safetensors");
        codebook_ = dir_ + "/cb.safetensors";
        Codebook::fromTensor(at::randn({5, 6})).save(codebook_);
        // The folders as they are work: a harness refusing everything would pass below.
        const std::string out = dir_ + "/ok.safetensors";
        const test::BoundedRun r = test::runCliBounded(encode(llava_, out), 120);
        QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
        const test::BoundedRun a = test::runCliBounded(ask(qwen_), 120);
        QVERIFY2(a.exitCode == 0, qPrintable(a.text()));
    }

    void modelFolderFiles() {
        const std::string out = dir_ + "/never.safetensors";
        for (const char* file : {"tokenizer.json", "chat_template.jinja"}) {
            const std::string m = folderWith(llava_, file);
            expectRefused(ask(m), file, "FIFO", {}, m + "/" + file);
        }
        for (const char* file : {"config.json", "processor_config.json"}) {
            const std::string m = folderWith(llava_, file);
            expectRefused(encode(m, out), file, "FIFO", out, m + "/" + file);
        }
        const std::string qwen = folderWith(qwen_, "processor_config.json");
        expectRefused(encode(qwen, out), "processor_config.json", "FIFO", out);
        // A shard the index names, and a device where a file is expected.
        const std::string shard = "model-00002-of-00011.safetensors";
        QVERIFY(fs::exists(llavaSharded_ + "/" + shard));
        const std::string sharded = folderWith(llavaSharded_, shard);
        expectRefused(encode(sharded, out), shard, "FIFO", out, sharded + "/" + shard);
        expectRefused(ask(folderWith(llava_, "tokenizer.json", "/dev/zero")), "tokenizer.json",
                      "character device");
        expectRefused(encode(folderWith(llava_, "model.safetensors", "/dev/zero"), out),
                      "model.safetensors", "character device", out);
    }

    void filesNamedOnTheCommandLine() {
        const std::string d = test::tempDir();
        const std::string out = d + "/out.safetensors";
        auto fifoNamed = [&](const std::string& name) {
            const std::string p = d + "/" + name;
            [&] { QVERIFY(test::makeFifo(p)); }();
            return p;
        };
        const std::string video = fifoNamed("clip.mp4");
        expectRefused({"encode", q(video), "-o", q(out)}, video, "FIFO", out, video);
        const std::string pt = fifoNamed("codebook.pt");
        expectRefused({"compress", "--features", q(features_), "--codebook", q(pt), "--budget", "4",
                       "-o", q(out)},
                      pt, "FIFO", out, pt);
        const std::string feats = fifoNamed("features.safetensors");
        expectRefused({"compress", "--features", q(feats), "--codebook", q(codebook_), "--budget",
                       "4", "-o", q(out)},
                      feats, "FIFO", out, feats);
        const std::string gguf = fifoNamed("model.gguf");
        expectRefused({"generate", "--model", q(gguf), "--prompt", "hi"}, gguf, "FIFO", {}, gguf);
        const std::string groups = fifoNamed("groups.txt");
        expectRefused({"analyze", "support-origin", "--codebook", q(codebook_), "--features",
                       q(features_), "--budgets", "2", "--groups", q(groups)},
                      groups, "FIFO", {}, groups);
        const std::string results = fifoNamed("results.jsonl");
        expectRefused({"analyze", "break-even", "--offline-seconds", "10", "--results", q(results)},
                      results, "FIFO", {}, results);
        expectRefused({"eval", "report", q(results)}, results, "regular file", {}, results);
    }

    void evalFiles() {
        const std::string d = test::tempDir();
        test::writeOneQuestionEgoschema(d);
        const std::string out = d + "/r.jsonl";
        auto evalArgs = [&](const std::string& model) {
            return QStringList{
                       "eval",     "--benchmark",    "egoschema", "--annotations", q(d + "/ann"),
                       "--videos", q(d + "/videos"), "--model",   q(model),        "-o",
                       q(out)} +
                   QString(
                       "--methods frame-drop --budgets 100000 --sampling uniform:2 --dtype "
                       "float32 --bootstrap 0")
                       .split(' ');
        };
        const test::BoundedRun ok = test::runCliBounded(evalArgs(llava_), 300);
        QVERIFY2(ok.exitCode == 0, qPrintable(ok.text()));
        fs::remove(out);
        QVERIFY(test::makeFifo(d + "/ann/subset_answers.json"));
        expectRefused(evalArgs(llava_), "subset_answers.json", "FIFO", out,
                      d + "/ann/subset_answers.json");
        QVERIFY(test::makeFifo(d + "/ann/questions.json"));
        expectRefused(evalArgs(llava_), "questions.json", "FIFO", out);
        // The video a question names.
        test::writeOneQuestionEgoschema(d);
        QVERIFY(test::makeFifo(d + "/videos/q1.mp4"));
        const test::BoundedRun v = test::runCliBounded(evalArgs(llava_), 120);
        QVERIFY2(!v.timedOut, qPrintable(v.text()));
        QVERIFY2(v.text().contains("q1.mp4") && v.text().contains("FIFO"), qPrintable(v.text()));
        // The shard plan `once eval merge` reads.
        test::writeText(d + "/r0.jsonl", "");
        QVERIFY(test::makeFifo(d + "/r0.jsonl.shard.json"));
        expectRefused({"eval", "merge", q(d + "/r0.jsonl"), "-o", q(d + "/merged.jsonl")},
                      "r0.jsonl.shard.json", "FIFO", d + "/merged.jsonl",
                      d + "/r0.jsonl.shard.json");
    }

    void aBlockedCommandStillEndsOnSignals() {
        // `once info` of a file with thousands of tensors prints far more than a pipe holds;
        // nobody reads the pipe, so the command blocks in write(), where no cancel check runs.
        const std::string d = test::tempDir();
        SafetensorsWriter w;
        const float one = 1;
        for (int i = 0; i < 4000; ++i) {
            w.add("tensor_with_a_long_name_" + std::to_string(i), DType::F32, {1}, &one,
                  sizeof one);
        }
        w.write(d + "/many.safetensors");
        for (int sent : {1, 2}) {
            int fds[2];
            QVERIFY(::pipe(fds) == 0);
            const pid_t pid = ::fork();
            if (pid == 0) {
                ::dup2(fds[1], STDOUT_FILENO);
                ::close(fds[0]);
                ::close(fds[1]);
                const std::string file = d + "/many.safetensors";
                ::execl(ONCE_CLI_PATH, ONCE_CLI_PATH, "info", file.c_str(), (char*)nullptr);
                ::_exit(127);
            }
            ::close(fds[1]);
            // Wait until the pipe is full (the writer is blocked).
            int queued = 0;
            for (int i = 0; i < 300 && queued < 65536; ++i) {
                QThread::msleep(100);
                ::ioctl(fds[0], FIONREAD, &queued);
            }
            QVERIFY2(queued >= 65536, qPrintable(QString::number(queued) + " bytes queued"));
            QElapsedTimer timer;
            timer.start();
            ::kill(pid, sent == 1 ? SIGTERM : SIGINT);
            if (sent == 2) {
                QThread::msleep(200);
                ::kill(pid, SIGINT);
            }
            int status = 0;
            pid_t done = 0;
            while ((done = ::waitpid(pid, &status, WNOHANG)) == 0 && timer.elapsed() < 30000) {
                QThread::msleep(50);
            }
            if (done == 0) {
                ::kill(pid, SIGKILL);
                ::waitpid(pid, &status, 0);
            }
            ::close(fds[0]);
            QVERIFY2(done == pid, "the blocked command ignored the signal");
            QVERIFY(WIFEXITED(status));
            QCOMPARE(WEXITSTATUS(status), 130);
            // One signal: after the grace period of the cooperative stop (10 s); two: at once.
            qInfo("%d signal(s): ended after %lld ms", sent, (long long)timer.elapsed());
            QVERIFY(sent == 1 ? timer.elapsed() < 20000 : timer.elapsed() < 5000);
        }
    }
};

QTEST_GUILESS_MAIN(TestSpecialFiles)
#include "test_special_files.moc"
