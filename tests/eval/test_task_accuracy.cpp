// Per-task accuracy tables read back (eval/task_accuracy.h): the harness's own CSV as
// `once eval report` writes it (per-task rows, or the benchmarks as axes when it holds overall
// rows only), the long, wide and JSON forms, fractions scaled to percent, and malformed files
// refused naming the file and the line.
#include <QtTest>
#include <fstream>

#include "eval/report.h"
#include "eval/task_accuracy.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;

namespace {

std::string written(const std::string& name, const std::string& text) {
    const std::string path = test::tempDir() + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

using Names = std::vector<std::string>;

}  // namespace

class TestTaskAccuracy : public QObject {
    Q_OBJECT
  private slots:
    void handMadeTablesLoad() {
        const TaskAccuracy r = TaskAccuracy::load(
            written("eval_long.csv",
                    "task,method,accuracy\nAction Count,Dense,40\nAction Count,ONCE,45\n"
                    "State Change,Dense,50\nState Change,ONCE,55\nObject Shuffle,Dense,30\n"
                    "Object Shuffle,ONCE,38\n"));
        QCOMPARE(r.tasks.size(), std::size_t{3});
        QCOMPARE(r.methods, (Names{"Dense", "ONCE"}));
        QCOMPARE(r.accuracy[1][2], 38.0);

        const TaskAccuracy j = TaskAccuracy::load(written(
            "eval.json", R"({"tasks": ["a", "b", "c"], "methods": {"Dense": [0.5, 0.6, 0.7]}})"));
        QCOMPARE(j.accuracy[0][1], 60.0);  // fractions become percent
        const TaskAccuracy list = TaskAccuracy::load(
            written("list.json", R"({"results": [{"task": "a", "method": "M", "accuracy": 55}]})"));
        QCOMPARE(list.accuracy[0][0], 55.0);

        QCOMPARE(
            TaskAccuracy::load(written("eval_wide.csv", "task,Dense,ONCE B=512\nA,1,2\nB,3,4\n"))
                .methods.size(),
            std::size_t{2});
    }

    void malformedTablesAreRefused() {
        try {
            TaskAccuracy::load(written("eval_bad.csv", "task,method,accuracy\nA,Dense,high\n"));
            QFAIL("a non-numeric accuracy must be refused");
        } catch (const OnceError& e) {
            QCOMPARE(e.where().field, std::string("line 2, accuracy"));
        }
        QVERIFY_THROWS_EXCEPTION(OnceError, TaskAccuracy::load(written("one.csv", "task,a\n")));
        QVERIFY_THROWS_EXCEPTION(
            OnceError, TaskAccuracy::load(written("w.csv", "task,method,accuracy\nA,B\n")));
        QVERIFY_THROWS_EXCEPTION(
            OnceError,
            TaskAccuracy::load(written("m.json", R"({"tasks": ["a"], "methods": {"D": [1, 2]}})")));
        QVERIFY_THROWS_EXCEPTION(OnceError, TaskAccuracy::load(written("n.json", "[1, 2]")));
        QVERIFY_THROWS_EXCEPTION(
            OnceError, TaskAccuracy::load(written("r.json", R"({"results": [{"task": "a"}]})")));
        QVERIFY_THROWS_EXCEPTION(OnceError, TaskAccuracy::load(test::tempDir() + "/missing.csv"));
    }

    void theHarnessTableReadsBack() {
        EvalSummary s;
        s.benchmarks = {"mvbench"};
        auto cell = [&](const char* method, std::int64_t budget, const char* task, double pct) {
            AccuracyCell c;
            c.benchmark = "mvbench";
            c.method = method;
            c.budget = budget;
            c.task = task;
            c.questions = 10;
            c.correct = static_cast<std::int64_t>(pct / 10);
            c.accuracyPct = {pct, pct - 5, pct + 5};
            s.accuracy.push_back(c);
        };
        cell("dense", 0, "", 50);
        cell("once", 64, "", 45);
        cell("tome{r=2,x=1}", 64, "", 40);
        cell("dense", 0, "Action Count", 60);
        cell("dense", 0, "State Change", 40);
        cell("once", 64, "Action Count", 50);
        cell("once", 64, "State Change", 40);
        cell("tome{r=2,x=1}", 64, "Action Count", 30);
        cell("tome{r=2,x=1}", 64, "State Change", 50);
        const TaskAccuracy r = TaskAccuracy::load(written("run_accuracy.csv", accuracyCsv(s)));
        QCOMPARE(r.tasks, (Names{"Action Count", "State Change"}));
        QCOMPARE(r.methods, (Names{"dense", "once B=64", "tome{r=2,x=1} B=64"}));
        QCOMPARE(r.accuracy[0][0], 60.0);
        QCOMPARE(r.accuracy[2][1], 50.0);

        // Overall rows only (two benchmarks): the benchmarks are the axes.
        EvalSummary o;
        o.benchmarks = {"mvbench", "egoschema"};
        for (const char* bench : {"mvbench", "egoschema"}) {
            for (const auto& [method, budget] :
                 std::vector<std::pair<std::string, std::int64_t>>{{"dense", 0}, {"once", 256}}) {
                AccuracyCell c;
                c.benchmark = bench;
                c.method = method;
                c.budget = budget;
                c.questions = 4;
                c.correct = budget == 0 ? 3 : 2;
                c.accuracyPct = {budget == 0 ? 75.0 : 50.0, 0, 100};
                o.accuracy.push_back(c);
            }
        }
        const TaskAccuracy b = TaskAccuracy::load(written("overall_accuracy.csv", accuracyCsv(o)));
        QCOMPARE(b.tasks, (Names{"mvbench", "egoschema"}));
        QCOMPARE(b.methods, (Names{"dense", "once B=256"}));
        QCOMPARE(b.accuracy[1][1], 50.0);
    }
};

QTEST_MAIN(TestTaskAccuracy)
#include "test_task_accuracy.moc"
