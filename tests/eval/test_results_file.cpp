// The evaluation files as untrusted input and as the user's output (issue 14): results files are
// only modified when they are results files, appear only with whole records and keep a cut
// record from a kill only until the next append; annotation entries naming videos outside
// --videos are refused naming the file and the entry. No model is needed.
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "eval/benchmark.h"
#include "eval/results_file.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

EvalRecord record(const std::string& question) {
    EvalRecord r;
    r.benchmark = "mvbench";
    r.questionId = question;
    r.method = "dense";
    r.answer = "A";
    r.correct = true;
    r.contentTokens = 10;
    r.seconds = {{"e2e", 1.5}};
    r.config = "model=m";
    return r;
}

bool hasTemporary(const std::string& dir) {
    for (const auto& e : fs::directory_iterator(dir)) {
        if (e.path().filename().string().find(".tmp-") != std::string::npos) {
            return true;
        }
    }
    return false;
}

}  // namespace

class TestResultsFile : public QObject {
    Q_OBJECT
  private slots:
    void newFileAppearsWithItsFirstRecord() {
        const std::string d = test::tempDir();
        const std::string path = d + "/sub/r.jsonl";
        {
            ResultsWriter w(path);
            QVERIFY(!fs::exists(path));  // nothing before the first record
            w.append(record("q1"));
            QVERIFY(fs::exists(path));
            w.append(record("q2"));
        }
        auto rs = readResults(path);
        QCOMPARE(rs.size(), std::size_t(2));
        QCOMPARE(rs[1].questionId, std::string("q2"));
        QCOMPARE(rs[0].seconds.at("e2e"), 1.5);
        QVERIFY(!hasTemporary(d + "/sub"));
        // A writer that never appends leaves no file.
        { ResultsWriter unused(d + "/never.jsonl"); }
        QVERIFY(!fs::exists(d + "/never.jsonl"));
    }

    void cutTailIsRemovedOnlyFromResultsFiles() {
        const std::string d = test::tempDir();
        const std::string path = d + "/r.jsonl";
        const std::string line = record("q1").toJsonLine() + "\n";
        test::writeText(path, line + "{\"benchmark\":\"mvb");
        QCOMPARE(checkResultsFile(path).records.size(), std::size_t(1));
        {
            ResultsWriter w(path);
            w.append(record("q2"));
        }
        QCOMPARE(test::readText(path), line + record("q2").toJsonLine() + "\n");

        // Not results files: refused by the check and by the writer, left byte-identical.
        for (const std::string& text :
             {std::string("my notes, no newline"), std::string("notes\nmore notes\n"),
              line + "tail that is not a record", std::string("[1, 2]\n"),
              std::string(300, '[') + "\n"}) {
            test::writeText(path, text);
            QVERIFY_THROWS_EXCEPTION(OnceError, checkResultsFile(path));
            try {
                ResultsWriter w(path);
                w.append(record("q3"));
                QFAIL("appended to a file that is not a results file");
            } catch (const OnceError& e) {
                QCOMPARE(e.where().file, path);
            }
            QCOMPARE(test::readText(path), text);
        }
        // An empty file is a results file with no record.
        test::writeText(path, "");
        QVERIFY(checkResultsFile(path).exists);
        QVERIFY(checkResultsFile(path).records.empty());
        QVERIFY_THROWS_EXCEPTION(OnceError, checkResultsFile(d));  // a folder
    }

    void replaceKeepsTheOldFileUntilTheFirstRecord() {
        const std::string d = test::tempDir();
        const std::string path = d + "/notes.txt";
        test::writeText(path, "keep me");
        {
            ResultsWriter w(path, /*replace=*/true);
            QCOMPARE(test::readText(path), std::string("keep me"));
        }
        QCOMPARE(test::readText(path), std::string("keep me"));  // no record, no change
        {
            ResultsWriter w(path, true);
            w.append(record("q1"));
            w.append(record("q2"));
        }
        QCOMPARE(readResults(path).size(), std::size_t(2));
        QVERIFY(test::readText(path).find("keep me") == std::string::npos);
        QVERIFY(!hasTemporary(d));
    }

    void readerLimitsAndTypes() {
        const std::string d = test::tempDir();
        const std::string path = d + "/r.jsonl";
        const std::string good = record("q").toJsonLine();
        // One line longer than kMaxResultsLineBytes.
        test::writeText(path,
                        "{\"benchmark\":\"" + std::string(kMaxResultsLineBytes, 'x') + "\"}\n");
        try {
            readResults(path);
            QFAIL("an over-long line was read");
        } catch (const OnceError& e) {
            QCOMPARE(e.where().file, path);
            QCOMPARE(e.where().field, std::string("line 1"));
        }
        const std::vector<std::pair<std::string, std::string>> bad = {
            {"\"budget\":null", "\"budget\":-1"},
            {"\"budget\":null", "\"budget\":1.5"},
            {"\"correct\":true", "\"correct\":1"},
            {"\"params\":{}", "\"params\":{\"k\":3}"},
            {"\"seconds\":{\"e2e\":1.5}", "\"seconds\":{\"e2e\":\"slow\"}"},
            {"\"seconds\":{\"e2e\":1.5}", "\"seconds\":{\"e2e\":-1}"},
            {"\"content\":10", "\"content\":-10"},
            {"\"prefill_flops\":0.0", "\"prefill_flops\":-5.0"},
        };
        for (const auto& [from, to] : bad) {
            std::string line = good;
            const auto at = line.find(from);
            QVERIFY2(at != std::string::npos, from.c_str());
            line.replace(at, from.size(), to);
            test::writeText(path, good + "\n" + line + "\n");
            try {
                readResults(path);
                QFAIL(qPrintable(QString::fromStdString("accepted " + to)));
            } catch (const OnceError& e) {
                QCOMPARE(e.where().file, path);
                QVERIFY2(e.where().field.rfind("line 2", 0) == 0, e.what());
                QVERIFY(std::string(e.what()).find("json.exception") == std::string::npos);
            }
        }
    }

    void annotationVideosStayInsideTheFolder() {
        const std::string d = test::tempDir();
        fs::create_directories(d + "/videos");
        test::writeText(d + "/outside.mp4", "x");
        fs::create_symlink(d + "/outside.mp4", d + "/videos/link.mp4");
        const std::string ann = d + "/lvb.json";
        for (const std::string& name :
             {std::string("../outside.mp4"), std::string("/etc/passwd"),
              std::string("a/../../outside.mp4"), std::string("sub/../w.mp4")}) {
            test::writeText(ann, "[{\"video_path\": \"" + name +
                                     "\", \"question\": \"q\", \"candidates\": [\"a\", \"b\"], "
                                     "\"correct_choice\": 0, \"question_category\": \"c\"}]");
            try {
                loadBenchmark("longvideobench", ann, d + "/videos");
                QFAIL(qPrintable(QString::fromStdString("accepted " + name)));
            } catch (const OnceError& e) {
                QCOMPARE(e.where().file, ann);
                QCOMPARE(e.where().field, std::string("[0].video_path"));
            }
        }
        // A name inside the folder that the user's file system links elsewhere is the user's
        // choice (docs/security.md, "Symlinks and special files"): it names the link.
        test::writeText(ann,
                        "[{\"video_path\": \"link.mp4\", \"question\": \"q\", \"candidates\": "
                        "[\"a\", \"b\"], \"correct_choice\": 0, \"question_category\": \"c\"}]");
        QCOMPARE(loadBenchmark("longvideobench", ann, d + "/videos").questions[0].videoPath,
                 d + "/videos/link.mp4");
        test::writeText(ann,
                        "[{\"video_path\": \"sub/w.mp4\", \"question\": \"q\", \"candidates\": "
                        "[\"a\", \"b\"], \"correct_choice\": 0, \"question_category\": \"c\"}]");
        auto b = loadBenchmark("longvideobench", ann, d + "/videos");
        QCOMPARE(b.questions.at(0).videoPath, d + "/videos/sub/w.mp4");
        // MVBench, EgoSchema and Video-MME names go through the same check.
        test::writeText(
            d + "/action_count.json",
            "[{\"video\": \"../../x.mp4\", \"question\": \"q\", \"candidates\": [\"a\", "
            "\"b\"], \"answer\": \"a\"}]");
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 loadBenchmark("mvbench", d + "/action_count.json", d + "/videos"));
        test::writeText(
            d + "/vm.jsonl",
            "{\"videoID\": \"../x\", \"task_type\": \"t\", \"duration\": \"s\", "
            "\"question\": \"q\", \"options\": [\"A. a\", \"B. b\"], \"answer\": \"A\"}\n");
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 loadBenchmark("videomme", d + "/vm.jsonl", d + "/videos"));
        fs::create_directories(d + "/ego");
        std::string q = "[{\"q_uid\": \"../u\", \"question\": \"q\"";
        for (int k = 0; k < 5; ++k) {
            q += ", \"option " + std::to_string(k) + "\": \"o\"";
        }
        test::writeText(d + "/ego/questions.json", q + "}]");
        test::writeText(d + "/ego/subset_answers.json", "{\"../u\": 1}");
        QVERIFY_THROWS_EXCEPTION(OnceError, loadBenchmark("egoschema", d + "/ego", d + "/videos"));
    }
};

QTEST_GUILESS_MAIN(TestResultsFile)
#include "test_results_file.moc"
