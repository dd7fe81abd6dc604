// Nothing of the user's is touched (issue 26, items 4 and 5), through the real command line:
// - a symlink planted at the name of an output's temporary file (the old "OUTPUT.tmp-PID" was
//   guessable) is never written through: the file it points to stays byte-identical;
// - an output that is a symlink or a FIFO is refused (exit 1, naming the file and saying
//   --overwrite) and left alone; with --overwrite the link itself is replaced, never its target;
// - `once encode --out-dir` recognises its own finished outputs by their metadata (resume) and
//   refuses, names and leaves alone anything else at an output's name (a user's file, another
//   video's features, a symlink, a list it did not write), before encoding anything;
// - nothing is left behind: no temporary file after a refusal.
// Every run is bounded in memory and time (support/limited_cli.h).
#include <ATen/ATen.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QtTest>
#include <filesystem>
#include <fstream>

#include "codebook/codebook.h"
#include "features/feature_file.h"
#include "support/limited_cli.h"
#include "support/safetensors_files.h"
#include "support/test_support.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

const std::string kDemo = "resources/demo/demo.mp4";
const std::string kVictimText = "the user's own file: must never change\n";

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// Files whose names say they are unfinished writes (AtomicFile's "NAME.tmp-DIGITS").
int temporaries(const std::string& dir) {
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        n += e.path().filename().string().find(".tmp-") != std::string::npos;
    }
    return n;
}

}  // namespace

class TestOutputs : public QObject {
    Q_OBJECT
    std::string dir_, features_, codebook_, victim_;

    QStringList compress(const std::string& out, const QStringList& extra = {}) const {
        return QStringList{"compress", "--budget", "4", "--features", q(features_),
                           "--codebook", q(codebook_), "-o", q(out)} +
               extra;
    }
    void expectVictimUnchanged() const {
        QCOMPARE(test::readText(victim_), kVictimText);
        QVERIFY(!fs::is_symlink(victim_));
    }

  private slots:
    void initTestCase() {
        dir_ = test::tempDir();
        at::manual_seed(3);
        features_ = test::writeSafetensors(
            dir_ + "/features.safetensors",
            {{"features", at::randn({3, 4, 5})}, {"frame_times", at::arange(3, at::kDouble)}},
            {{"format", "once-features/1"}, {"grid", "2x2"}});
        codebook_ = dir_ + "/cb.safetensors";
        Codebook::fromTensor(at::randn({6, 5})).save(codebook_);
        victim_ = test::tempDir() + "/victim.txt";  // another folder: "a user file elsewhere"
        test::writeText(victim_, kVictimText);
    }

    void plantedTemporarySymlinksAreNotFollowed() {
        // The old temporary name was OUTPUT.tmp-PID: plant a link at every name the next few
        // thousand processes would have used. The new names are random and created with
        // O_EXCL | O_NOFOLLOW: none of the links is written through.
        const std::string out = dir_ + "/planted/out.safetensors";
        fs::create_directories(dir_ + "/planted");
        const int pid = int(::getpid());
        for (int p = pid; p < pid + 4000; ++p) {
            fs::create_symlink(victim_, out + ".tmp-" + std::to_string(p));
        }
        const auto r = test::runCliLimited(compress(out));
        QVERIFY2(r.exitCode == 0 && !r.crashed, qPrintable(r.text));
        QVERIFY(fs::is_regular_file(fs::symlink_status(out)));
        expectVictimUnchanged();
        // Only the planted links remain beside the output.
        int links = 0;
        for (const auto& e : fs::directory_iterator(dir_ + "/planted")) {
            links += fs::is_symlink(e.symlink_status());
        }
        QCOMPARE(links, 4000);
    }

    void symlinkOutputRefusedThenReplacedUnderOverwrite() {
        const std::string out = dir_ + "/link.safetensors";
        fs::create_symlink(victim_, out);
        test::expectRefused(compress(out), out, {}, "--overwrite");
        QVERIFY(fs::is_symlink(out));
        expectVictimUnchanged();
        QCOMPARE(temporaries(dir_), 0);
        // The user says so: the link is replaced by the result, its target untouched.
        const auto r = test::runCliLimited(compress(out, {"--overwrite"}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.text));
        QVERIFY(fs::is_regular_file(fs::symlink_status(out)));
        expectVictimUnchanged();
    }

    void fifoOutputRefusedWithoutBlocking() {
        const std::string out = dir_ + "/fifo.safetensors";
        QCOMPARE(::mkfifo(out.c_str(), 0600), 0);
        test::expectRefused(compress(out), out, {}, "FIFO");
        QVERIFY(fs::is_fifo(out));
        const auto r = test::runCliLimited(compress(out, {"--overwrite"}));
        QVERIFY2(r.exitCode == 0 && !r.crashed, qPrintable(r.text));
        QVERIFY(fs::is_regular_file(fs::symlink_status(out)));
    }

    void folderOutputRefusedEvenUnderOverwrite() {
        const std::string out = dir_ + "/a-folder";
        fs::create_directories(out);
        test::expectRefused(compress(out, {"--overwrite"}), out, {}, "folder");
        QVERIFY(fs::is_directory(out));
    }

    void csvOutputsRefuseLinks() {
        // `once analyze break-even --csv` and `once eval report --csv` used std::ofstream.
        const std::string csv = dir_ + "/table.csv";
        fs::create_symlink(victim_, csv);
        test::expectRefused({"analyze", "break-even", "--offline-seconds", "100",
                             "--dense-latency", "2", "--method-latency", "1", "--csv", q(csv)},
                            csv, {}, "--overwrite");
        expectVictimUnchanged();
        const auto r =
            test::runCliLimited({"analyze", "break-even", "--offline-seconds", "100",
                                 "--dense-latency", "2", "--method-latency", "1", "--csv", q(csv),
                                 "--overwrite"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.text));
        QVERIFY(fs::is_regular_file(fs::symlink_status(csv)));
        QVERIFY(!test::readText(csv).empty());
        expectVictimUnchanged();
        QCOMPARE(temporaries(dir_), 0);
    }

    void encodeOutputLinkRefusedBeforeEncoding() {
        const std::string out = dir_ + "/encoded-link.safetensors";
        fs::create_symlink(victim_, out);
        test::expectRefused({"encode", q(test::sourcePath(kDemo)), "--sampling", "uniform:2",
                             "-o", q(out)},
                            out, {}, "--overwrite");
        expectVictimUnchanged();
    }

    void batchResumesItsOwnOutputsAndRefusesTheUsers() {
        const std::string root = test::tempDir();
        const std::string videos = root + "/videos", out = root + "/features";
        fs::create_directories(videos);
        fs::create_directories(out);
        fs::copy_file(test::sourcePath(kDemo), videos + "/demo.mp4");
        fs::copy_file(test::sourcePath(kDemo), videos + "/other.mp4");
        const QStringList batch = {"encode", q(videos), "--out-dir", q(out), "--sampling",
                                   "uniform:2", "--json"};

        // 1. A user's file with the name of an output: refused before any video is encoded.
        const std::string user = out + "/demo.safetensors";
        test::writeText(user, "my notes, not features\n");
        test::expectRefused(batch, user, {}, "--overwrite");
        QCOMPARE(test::readText(user), std::string("my notes, not features\n"));
        QVERIFY(!fs::exists(out + "/other.safetensors"));  // nothing encoded
        QVERIFY(!fs::exists(out + "/encoded.jsonl"));

        // 2. Another video's features under that name (this tool's file, not this video's).
        fs::remove(user);
        auto r = test::runCliLimited({"encode", q(videos + "/other.mp4"), "--sampling",
                                      "uniform:2", "-o", q(user)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.text));
        const std::string foreign = test::readText(user);
        test::expectRefused(batch, user, {}, "other.mp4");
        QCOMPARE(test::readText(user), foreign);

        // 3. A symlink under an output's name: refused, its target untouched.
        fs::remove(user);
        fs::create_symlink(victim_, user);
        test::expectRefused(batch, user, {}, "symbolic link");
        expectVictimUnchanged();
        fs::remove(user);

        // 4. A list of finished videos the batch did not write.
        test::writeText(out + "/encoded.jsonl", "shopping: milk, eggs\n");
        test::expectRefused(batch, out + "/encoded.jsonl", {}, "line 1");
        QCOMPARE(test::readText(out + "/encoded.jsonl"), std::string("shopping: milk, eggs\n"));
        fs::remove(out + "/encoded.jsonl");

        // 5. A clean run, then a run that lost its list: the outputs are recognised by their
        //    metadata and skipped (resume), and the list is rebuilt from them.
        r = test::runCliLimited(batch);
        QVERIFY2(r.exitCode == 0, qPrintable(r.text));
        auto j = nlohmann::json::parse(r.text.left(r.text.indexOf('\n')).toStdString());
        QCOMPARE(j["encoded"].get<int>(), 2);
        const std::string demoBytes = test::readText(user);
        fs::remove(out + "/encoded.jsonl");
        r = test::runCliLimited(batch);
        QVERIFY2(r.exitCode == 0, qPrintable(r.text));
        j = nlohmann::json::parse(r.text.left(r.text.indexOf('\n')).toStdString());
        QCOMPARE(j["skipped"].get<int>(), 2);
        QCOMPARE(j["encoded"].get<int>(), 0);
        QCOMPARE(test::readText(user), demoBytes);
        QVERIFY(test::readText(out + "/encoded.jsonl").find("demo.safetensors") !=
                std::string::npos);

        // 6. --overwrite: the user's file at an output's name is replaced.
        test::writeText(user, "my notes again\n");
        r = test::runCliLimited(batch + QStringList{"--overwrite"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.text));
        QVERIFY(loadFeatureFile(user).features.size(0) >= 1);
        QCOMPARE(temporaries(out), 0);
    }
};

QTEST_GUILESS_MAIN(TestOutputs)
#include "test_outputs.moc"
