// The evaluation harness end to end on small benchmarks in the four public annotation formats,
// built from the demo video, with a tiny random LLaVA-OneVision model (transformers): readers,
// lmms-eval answer parsers (against Python ports), `once eval` plumbing, scoring (accuracy and
// bootstrap CIs against a NumPy recomputation from the JSONL), resume after --limit, a killed
// run, and bad inputs. Not accuracy: the model is random.
#include <ATen/ATen.h>

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QThread>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "codebook/codebook.h"
#include "compress/token_compressor.h"
#include "eval/benchmark.h"
#include "eval/egoschema.h"
#include "eval/longvideobench.h"
#include "eval/mvbench.h"
#include "eval/results_file.h"
#include "eval/videomme.h"
#include "pipeline/answer_session.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;

namespace {

struct Bench {
    QString name, annotations, videos;
    int questions;
};

// key → (prediction, correct) of a results file; fails on duplicate keys.
std::map<std::string, std::pair<std::string, bool>> byKey(const std::string& path) {
    std::map<std::string, std::pair<std::string, bool>> m;
    for (const auto& r : readResults(path)) {
        if (!m.emplace(r.key(), std::make_pair(r.prediction, r.correct)).second) {
            throw std::runtime_error("duplicate record " + r.key());
        }
    }
    return m;
}

}  // namespace

class TestEvalHarness : public QObject {
    Q_OBJECT
    QString model_, codebook_, root_;
    std::vector<Bench> benches_;

    QStringList evalArgs(const Bench& b, const QString& out) const {
        return {"eval",   "--benchmark", b.name,    "--annotations", b.annotations, "--videos",
                b.videos, "--model",     model_,    "--methods",     "once",        "--budgets",
                "2,4",    "--codebook",  codebook_, "--sampling",    "uniform:4",   "--bootstrap",
                "200",    "-o",          out};
    }

  private slots:
    void initTestCase() {
        model_ = QString::fromStdString(test::tempDir());
        auto r = test::runPython("llm_reference.py", {"llava", model_});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        codebook_ = QString::fromStdString(test::tempDir()) + "/cb.safetensors";
        at::manual_seed(0);
        Codebook::fromTensor(at::randn({6, 64}), "llava-onevision", "projected patch grid")
            .save(codebook_.toStdString());
        root_ = QString::fromStdString(test::tempDir());
        auto m = test::runPython(
            "eval_benchmarks.py",
            {"make", root_, QString::fromStdString(test::sourcePath("resources/demo/demo.mp4"))});
        QVERIFY2(m.exitCode == 0, qPrintable(m.err));
        benches_ = {
            {"mvbench", root_ + "/mvbench", root_ + "/videos/mvbench", 3},
            {"egoschema", root_ + "/egoschema", root_ + "/videos/egoschema", 3},
            {"videomme", root_ + "/videomme.jsonl", root_ + "/videos/videomme", 3},
            {"longvideobench", root_ + "/lvb_val.json", root_ + "/videos/longvideobench", 3}};
    }

    void readersFollowTheFormats() {
        const std::string r = root_.toStdString();
        Benchmark mv = loadBenchmark("mvbench", r + "/mvbench", r + "/videos/mvbench");
        QCOMPARE(mv.questions.size(), std::size_t(3));
        QCOMPARE(mv.questions[0].id, std::string("action_count/0"));
        QCOMPARE(mv.questions[0].answer, 1);
        QVERIFY(QFile::exists(QString::fromStdString(mv.questions[0].videoPath)));
        QCOMPARE(mv.questions[0].prompt,
                 std::string("Question:What moves?\nOption:\n(A) cat\n(B) dog\n(C) car\n"
                             "Answer with the option's letter from the given choices directly."));
        QCOMPARE(mv.questions[2].task, std::string("object_shuffle"));

        Benchmark eg = loadBenchmark("egoschema", r + "/egoschema", r + "/videos/egoschema");
        QCOMPARE(eg.questions.size(), std::size_t(3));  // u3 has no public answer
        QCOMPARE(eg.questions[1].id, std::string("u2"));
        QCOMPARE(eg.questions[1].answer, 3);
        QVERIFY(eg.questions[0].prompt.rfind("What does c do 0?\nA. c does thing 0\nB. ", 0) == 0);

        Benchmark vm = loadBenchmark("videomme", r + "/videomme.jsonl", r + "/videos/videomme");
        QCOMPARE(vm.questions.size(), std::size_t(3));
        QCOMPARE(vm.questions[1].task, std::string("OCR Problems"));
        QCOMPARE(vm.questions[1].answer, 1);
        QCOMPARE(vm.questions[1].options[0], std::string("one"));
        QCOMPARE(vm.questions[0].videoId, vm.questions[1].videoId);
        QVERIFY(vm.questions[0].prompt.find("How many 0?\nA. one\nB. two\nC. three\nD. four\n\n"
                                            "Answer the question with A, B, C, or D.") !=
                std::string::npos);

        Benchmark lvb =
            loadBenchmark("longvideobench", r + "/lvb_val.json", r + "/videos/longvideobench");
        QCOMPARE(lvb.questions.size(), std::size_t(3));
        QCOMPARE(lvb.questions[1].answer, 3);
        QCOMPARE(lvb.maxNewTokens, std::int64_t(32));
        QCOMPARE(lvb.questions[0].prompt,
                 std::string("Where?\nA. here\nB. there\nC. nowhere\nAnswer with the option's "
                             "letter from the given choices directly.\n"));

        // Bad annotations name the file and the field.
        std::string bad = test::tempDir() + "/bad.json";
        nlohmann::json noAnswer = {{{"video_path", "x.mp4"},
                                    {"question", "q"},
                                    {"candidates", {"a", "b"}},
                                    {"question_category", "c"}}};
        std::ofstream(bad) << noAnswer.dump();
        try {
            loadBenchmark("longvideobench", bad, r);
            QFAIL("no error");
        } catch (const OnceError& e) {
            QVERIFY2(e.where().file == bad, e.what());
            QVERIFY2(e.where().field.find("correct_choice") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(OnceError, loadBenchmark("nosuch", bad, r));
    }

    void parsersMatchTheirPythonPorts() {
        const std::vector<std::string> cases = {
            "A",
            "B.",
            "(C) three",
            "The answer is D",
            "c",
            "b. something",
            "  E  ",
            "c does thing 1",
            "A. c does thing 0.",
            "D",
            "The best answer is: B",
            "I think it is (a) because",
            "none of these words name any option letter at all ok",
            "",
            "Best option: C",
            "x, y, 1,000 (b)",
            "dog",
            "A.\nthe first one",
            "B is right"};
        std::string in = test::tempDir() + "/cases.json", out = test::tempDir() + "/parsed.json";
        std::ofstream(in) << nlohmann::json(cases).dump();
        auto r = test::runPython("eval_benchmarks.py", {"parse", QString::fromStdString(in),
                                                        QString::fromStdString(out)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto want = nlohmann::json::parse(test::readText(out));
        const std::vector<std::string> opts = {"c does thing 0", "c does thing 1", "c does thing 2",
                                               "c does thing 3", "c does thing 4"};
        for (std::size_t i = 0; i < cases.size(); ++i) {
            const auto& c = cases[i];
            QCOMPARE(mvbenchProcess(c), want["mvbench"][i].get<std::string>());
            QCOMPARE(egoschemaParse(c, opts), want["egoschema"][i].get<std::string>());
            QCOMPARE(videommeParse(c), want["videomme"][i].get<std::string>());
            std::string id = "q";  // built by += (GCC 12 warns on `"q" + std::string&&`)
            id += std::to_string(i);
            QCOMPARE(longVideoBenchParse(c, 4, id), want["longvideobench"][i].get<std::string>());
        }
    }

    void evalRunsScoresAndResumes() {
        for (const auto& b : benches_) {
            qInfo("benchmark %s", qPrintable(b.name));
            const QString dir = QString::fromStdString(test::tempDir());
            const QString resumed = dir + "/resumed.jsonl", fresh = dir + "/fresh.jsonl";
            // A partial run (--limit 2), then the rest: no duplicates, same records as one run.
            auto part = test::runCli(evalArgs(b, resumed) << "--limit"
                                                          << "2"
                                                          << "--json");
            QVERIFY2(part.exitCode == 0, qPrintable(part.err));
            auto pj = nlohmann::json::parse(part.out.toStdString());
            QCOMPARE(pj["run"]["written"].get<int>(), 2 * 3);
            QCOMPARE(readResults(resumed.toStdString()).size(), std::size_t(2 * 3));
            auto rest = test::runCli(evalArgs(b, resumed) << "--json");
            QVERIFY2(rest.exitCode == 0, qPrintable(rest.err));
            auto rj = nlohmann::json::parse(rest.out.toStdString());
            QCOMPARE(rj["run"]["skipped"].get<int>(), 2 * 3);
            QCOMPARE(rj["run"]["written"].get<int>(), (b.questions - 2) * 3);
            auto again = test::runCli(evalArgs(b, resumed) << "--json");
            QVERIFY2(again.exitCode == 0, qPrintable(again.err));
            QCOMPARE(nlohmann::json::parse(again.out.toStdString())["run"]["written"].get<int>(),
                     0);
            auto full = test::runCli(evalArgs(b, fresh) << "--json");
            QVERIFY2(full.exitCode == 0, qPrintable(full.err));
            auto a = byKey(resumed.toStdString()), f = byKey(fresh.toStdString());
            QCOMPARE(a.size(), std::size_t(b.questions * 3));
            QVERIFY(a == f);

            // Records carry ids, tokens and timings.
            for (const auto& rec : readResults(fresh.toStdString())) {
                QCOMPARE(rec.benchmark, b.name.toStdString());
                QVERIFY(!rec.videoId.empty() && !rec.task.empty() && rec.answer.size() == 1);
                QVERIFY(rec.seconds.count("e2e") && rec.seconds.count("prefill"));
                QVERIFY(rec.seconds.count("decode") && rec.seconds.count("encode"));
                QVERIFY(rec.promptTokens > 0 && rec.prefillFlops > 0);
                if (rec.method == "dense") {
                    QCOMPARE(rec.contentTokens, rec.sourceTokens);
                } else {
                    QVERIFY(rec.contentTokens >= 1 && rec.contentTokens <= rec.budget);
                }
            }

            // Scoring against the Python ports and a NumPy bootstrap from the JSONL.
            const QString scored = dir + "/scored.json";
            auto py = test::runPython("eval_benchmarks.py", {"score", b.name, b.annotations, fresh,
                                                             "200", "20260811", scored});
            QVERIFY2(py.exitCode == 0, qPrintable(py.err));
            auto want = nlohmann::json::parse(test::readText(scored.toStdString()));
            QVERIFY2(want["mismatches"].empty(), want["mismatches"].dump().c_str());
            auto got = nlohmann::json::parse(full.out.toStdString())["accuracy"];
            QCOMPARE(got.size(), want["accuracy"].size());
            for (const auto& w : want["accuracy"]) {
                bool found = false;
                for (const auto& g : got) {
                    const auto budget = g["budget"].is_null() ? 0 : g["budget"].get<int>();
                    if (g["method"] == w["method"] && budget == w["budget"].get<int>() &&
                        g["task"] == w["task"]) {
                        found = true;
                        QCOMPARE(g["questions"].get<int>(), w["questions"].get<int>());
                        QCOMPARE(g["correct"].get<int>(), w["correct"].get<int>());
                        QVERIFY(std::abs(g["accuracy_pct"].get<double>() -
                                         w["accuracy_pct"].get<double>()) < 1e-9);
                        for (int k = 0; k < 2; ++k) {
                            QVERIFY(std::abs(g["ci95"][k].get<double>() -
                                             w["ci95"][k].get<double>()) < 1e-9);
                        }
                    }
                }
                QVERIFY2(found, w.dump().c_str());
            }
        }
    }

    void reportWritesTablesAndCsv() {
        const auto& b = benches_[0];
        const QString dir = QString::fromStdString(test::tempDir());
        auto run = test::runCli(evalArgs(b, dir + "/r.jsonl"));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(run.out.contains("Token budget"));
        auto rep =
            test::runCli({"eval", "report", dir + "/r.jsonl", "--csv", dir + "/t", "--tasks"});
        QVERIFY2(rep.exitCode == 0, qPrintable(rep.err));
        QVERIFY(rep.out.contains("dense") && rep.out.contains("once") &&
                rep.out.contains("Efficiency") && rep.out.contains("action_count"));
        const std::string acc = test::readText((dir + "/t_accuracy.csv").toStdString());
        QVERIFY(acc.rfind("benchmark,method,budget,task,", 0) == 0);
        QVERIFY(acc.find("mvbench,once,2,overall,3,") != std::string::npos);
        const std::string eff = test::readText((dir + "/t_efficiency.csv").toStdString());
        QVERIFY(eff.find("mvbench,dense,dense,3,") != std::string::npos);
        // Compressed rows see fewer tokens than dense: a positive token reduction.
        auto lines = QString::fromStdString(eff).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 3);
        for (const auto& l : lines.mid(1)) {
            auto f = l.split(',');
            if (f[1] == "once") {
                QVERIFY(f[8].toDouble() > 0);
            }
        }
    }

    void killedRunLeavesWholeLinesAndResumes() {
        const auto& b = benches_[0];
        const QString dir = QString::fromStdString(test::tempDir());
        const QString out = dir + "/killed.jsonl", fresh = dir + "/fresh.jsonl";
        QStringList args = evalArgs(b, out);
        args[args.indexOf("2,4")] = "1,2,3,4,5,6";
        QProcess p;
        p.start(QString(ONCE_CLI_PATH), args);
        QVERIFY(p.waitForStarted());
        bool killed = false;
        for (int i = 0; i < 12000 && p.state() != QProcess::NotRunning; ++i) {
            if (QFileInfo(out).size() > 0) {
                p.kill();
                killed = true;
                break;
            }
            QThread::msleep(10);
        }
        p.waitForFinished();
        qInfo("killed mid-run: %s, %zu line(s) kept", killed ? "yes" : "no (finished first)",
              readResults(out.toStdString()).size());
        // Every byte belongs to a whole line.
        const std::string text = test::readText(out.toStdString());
        QVERIFY(!text.empty() && text.back() == '\n');
        const std::size_t kept = readResults(out.toStdString()).size();
        // A kill inside a write leaves an unterminated tail: readers skip it, a rerun cuts it.
        std::ofstream(out.toStdString(), std::ios::app) << "{\"benchmark\": \"mvbench\", \"quest";
        QCOMPARE(readResults(out.toStdString()).size(), kept);
        auto rerun = test::runCli(args);
        QVERIFY2(rerun.exitCode == 0, qPrintable(rerun.err));
        QStringList freshArgs = args;
        freshArgs[freshArgs.indexOf(out)] = fresh;
        auto full = test::runCli(freshArgs);
        QVERIFY2(full.exitCode == 0, qPrintable(full.err));
        const std::string after = test::readText(out.toStdString());
        QVERIFY(after.find("\"quest{") == std::string::npos && after.back() == '\n');
        QVERIFY(byKey(out.toStdString()) == byKey(fresh.toStdString()));
        QCOMPARE(byKey(out.toStdString()).size(), std::size_t(3 * 7));
    }

    void everyRegisteredMethodRuns() {
        // Whatever compressors are registered (ONCE and the baselines) run through AnswerSession
        // and the harness by name, giving one record per question, method and budget.
        QStringList methods;
        AnswerSession session({model_.toStdString()});
        session.loadFeatures(model_.toStdString() + "/features.safetensors");
        for (const auto& info : compressorInfos()) {
            methods << QString::fromStdString(info.method);
            if (info.needsCodebook) {
                continue;  // exercised with a codebook by the runs above
            }
            for (std::int64_t budget : {1, 3}) {
                at::Tensor v = session.visualTokens(budget, info.method);
                QVERIFY2(v.dim() == 2 && v.size(1) == 64, info.method.c_str());
                // The budget contract (1 <= M <= B) is the methods' own tests' job; here a
                // violation is only reported.
                const auto content = v.size(0) - 1;
                if (content < 1 || content > budget) {
                    qWarning("%s: %lld content tokens at budget %lld", info.method.c_str(),
                             (long long)content, (long long)budget);
                }
            }
        }
        qInfo("registered: %s", qPrintable(methods.join(',')));
        const auto& b = benches_[3];
        const QString out = QString::fromStdString(test::tempDir()) + "/all.jsonl";
        QStringList args = evalArgs(b, out);
        args[args.indexOf("once")] = methods.join(',');
        auto r = test::runCli(args << "--json");
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(byKey(out.toStdString()).size(),
                 std::size_t(b.questions * (1 + 2 * methods.size())));
    }

    void badUsageFailsClearly() {
        const auto& b = benches_[0];
        const QString dir = QString::fromStdString(test::tempDir());
        QStringList args = evalArgs(b, dir + "/x.jsonl");
        args[args.indexOf("once")] = "nosuchmethod";
        auto r = test::runCli(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("nosuchmethod") && r.err.contains("once"), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir + "/x.jsonl"));  // checked before any work
        QStringList missing = evalArgs(b, dir + "/y.jsonl");
        missing[missing.indexOf(b.videos)] = dir;  // no videos there
        auto m = test::runCli(missing);
        QCOMPARE(m.exitCode, 1);
        QVERIFY2(m.err.contains("a.mp4"), qPrintable(m.err));
        // A results file resumes only under the configuration it was written with.
        const QString cfg = dir + "/cfg.jsonl";
        auto first = test::runCli(evalArgs(b, cfg) << "--limit"
                                                   << "1");
        QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        QStringList other = evalArgs(b, cfg);
        other[other.indexOf("uniform:4")] = "uniform:2";
        auto mixed = test::runCli(other);
        QCOMPARE(mixed.exitCode, 1);
        QVERIFY2(mixed.err.contains("another configuration") && mixed.err.contains("uniform:2"),
                 qPrintable(mixed.err));
        auto u = test::runCli({"eval", "--benchmark", "mvbench"});
        QCOMPARE(u.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestEvalHarness)
#include "test_eval_harness.moc"
