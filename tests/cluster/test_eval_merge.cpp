// Sharded `once eval` (core/eval/results_merge.h): the plan of each task (questions grouped by
// video, video g in shard g mod N, after --limit), and `once eval merge` giving the records in
// the single-process order (videos in first-appearance order, questions, then jobs), byte for
// byte; refusals of missing, repeated, foreign or unfinished shards naming file and field.
#include <QtTest>
#include <filesystem>

#include "eval/benchmark.h"
#include "eval/eval_record.h"
#include "eval/results_file.h"
#include "eval/results_merge.h"
#include "support/test_support.h"
#include "util/atomic_file.h"
#include "util/error.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

const std::string kConfig = "model=m;sampling=uniform:8;pool_stride=1;dtype=float32;device=cpu";

// 9 questions over 5 videos, interleaved (video order of first appearance: a b c d e).
std::vector<EvalQuestion> questions() {
    const char* videos[] = {"a", "b", "a", "c", "d", "b", "e", "c", "a"};
    std::vector<EvalQuestion> qs;
    for (int i = 0; i < 9; ++i) {
        EvalQuestion q;
        q.id = "q" + std::to_string(i);
        q.videoId = videos[i];
        q.videoPath = std::string("/videos/") + videos[i] + ".mp4";
        q.task = i % 2 ? "t1" : "t2";
        q.answer = i % 4;
        qs.push_back(q);
    }
    return qs;
}

std::vector<EvalShardJob> jobs() {
    return {{"dense", {}, 0, 0},
            {"once", {}, 32, 42},
            {"once", {}, 64, 42},
            {"tome", {{"r", "4"}}, 32, 42}};
}

// The record a run would write (deterministic stand-ins for the model's outputs and timings).
EvalRecord record(const EvalQuestion& q, const EvalShardJob& j, bool reused) {
    EvalRecord r = questionRecord("mvbench", q, j.method, j.params, j.budget, j.seed);
    r.prediction = "(" + optionLetter(q.answer) + ") x";
    r.parsed = optionLetter((q.answer + int(j.budget / 32)) % 4);
    r.correct = r.parsed == r.answer;
    r.contentTokens = j.budget ? j.budget : 1000;
    r.seconds = {{"decode", 0.25}, {"e2e", 1.0 / 3.0 + double(j.budget)}};
    r.reusedEncoding = reused;
    r.config = kConfig;
    return r;
}

// What the runner writes for `qs` (grouped by video in first-appearance order).
void writeRun(const std::vector<EvalQuestion>& qs, const std::string& path,
              std::size_t dropLast = 0) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<const EvalQuestion*>> byVideo;
    for (const auto& q : qs) {
        if (!byVideo.count(q.videoPath))
            order.push_back(q.videoPath);
        byVideo[q.videoPath].push_back(&q);
    }
    std::vector<EvalRecord> all;
    for (const auto& v : order) {
        bool reused = false;
        for (const auto* q : byVideo[v]) {
            for (const auto& j : jobs()) {
                all.push_back(record(*q, j, reused));
                reused = true;
            }
        }
    }
    ResultsWriter w(path);
    for (std::size_t i = 0; i + dropLast < all.size(); ++i) {
        w.append(all[i]);
    }
}

}  // namespace

class TestEvalMerge : public QObject {
    Q_OBJECT
    std::string dir_;

    std::vector<std::string> runShards(std::int64_t n, const std::string& tag,
                                       std::int64_t limit = -1) {
        auto qs = questions();
        if (limit >= 0)
            qs.resize(std::size_t(limit));
        std::vector<std::string> files;
        for (std::int64_t i = 0; i < n; ++i) {
            std::vector<EvalQuestion> owned;
            EvalShardPlan plan =
                planEvalShard("mvbench", qs, jobs(), kConfig, {i, n, "test"}, &owned);
            const std::string out = dir_ + "/" + tag + "-" + std::to_string(i) + ".jsonl";
            writeOrCheckEvalShardPlan(plan, out);
            writeOrCheckEvalShardPlan(plan, out);  // a rerun of the task: the same plan
            writeRun(owned, out);
            files.push_back(out);
        }
        return files;
    }

  private slots:
    void initTestCase() { dir_ = test::tempDir(); }

    void planGroupsQuestionsByVideo() {
        std::vector<EvalQuestion> owned;
        EvalShardPlan p =
            planEvalShard("mvbench", questions(), jobs(), kConfig, {1, 2, "t"}, &owned);
        // Videos a0 b1 c2 d3 e4: shard 1 of 2 owns b and d: questions q1 q4 q5.
        QCOMPARE(p.videosTotal, std::int64_t(5));
        QCOMPARE(p.questionsTotal, std::int64_t(9));
        QCOMPARE(owned.size(), std::size_t(3));
        QCOMPARE(owned[0].id, std::string("q1"));
        QCOMPARE(owned[1].id, std::string("q4"));
        QCOMPARE(owned[2].id, std::string("q5"));
        const EvalShardPlan back = EvalShardPlan::parse(p.toJson().dump(), "plan.json");
        QVERIFY(back.toJson() == p.toJson());
    }

    void mergeEqualsSingleProcessFile() {
        const std::string single = dir_ + "/single.jsonl";
        writeRun(questions(), single);
        for (std::int64_t n : {2, 3, 5, 7}) {
            auto files = runShards(n, "n" + std::to_string(n));
            std::reverse(files.begin(), files.end());  // any order
            const std::string out = dir_ + "/merged" + std::to_string(n) + ".jsonl";
            EvalMergeSummary s = mergeEvalResults(files, out);
            QCOMPARE(s.questions, std::int64_t(9));
            QCOMPARE(s.records, std::int64_t(36));
            QVERIFY2(readWholeFile(out) == readWholeFile(single),
                     qPrintable(QString("N=%1").arg(n)));
        }
        // --limit is applied before the split.
        const std::string limited = dir_ + "/single5.jsonl";
        auto qs = questions();
        qs.resize(5);
        writeRun(qs, limited);
        auto files = runShards(2, "lim", 5);
        mergeEvalResults(files, dir_ + "/merged-lim.jsonl");
        QCOMPARE(readWholeFile(dir_ + "/merged-lim.jsonl"), readWholeFile(limited));
    }

    void refusesBadSets() {
        auto files = runShards(3, "bad");
        // Missing shard.
        OnceError e = test::errorOf([&] {
            mergeEvalResults({files[0], files[2]}, dir_ + "/x.jsonl");
        });
        QVERIFY(e.brief().find("shard 1/3 is missing") != std::string::npos);
        QCOMPARE(e.where().field, std::string("shard.index"));
        // The same shard twice.
        e = test::errorOf([&] {
            mergeEvalResults({files[0], files[1], files[1], files[2]}, dir_ + "/x.jsonl");
        });
        QCOMPARE(e.where().field, std::string("shard.index"));
        // Another run's shard (another configuration).
        {
            std::vector<EvalQuestion> owned;
            EvalShardPlan p = planEvalShard("mvbench", questions(), jobs(),
                                            "model=other;sampling=uniform:8", {1, 3, "t"}, &owned);
            writeOrCheckEvalShardPlan(p, dir_ + "/other-1.jsonl");
            writeRun(owned, dir_ + "/other-1.jsonl");
        }
        e = test::errorOf([&] {
            mergeEvalResults({files[0], dir_ + "/other-1.jsonl", files[2]}, dir_ + "/x.jsonl");
        });
        QCOMPARE(e.where().field, std::string("config"));
        QVERIFY(e.where().file.find("other-1.jsonl.shard.json") != std::string::npos);
        // A rerun of a task under another plan is refused before it writes anything.
        {
            std::vector<EvalQuestion> owned;
            EvalShardPlan p =
                planEvalShard("mvbench", questions(), jobs(), kConfig, {1, 4, "t"}, &owned);
            e = test::errorOf([&] { writeOrCheckEvalShardPlan(p, files[1]); });
            QVERIFY(e.where().field == "shard.count" || e.where().field == "videos_total" ||
                    e.where().field == "shard");
        }
        // A plan whose run never wrote a record (it failed on its options) is replaced.
        {
            std::vector<EvalQuestion> owned;
            EvalShardPlan p =
                planEvalShard("mvbench", questions(), jobs(), kConfig, {0, 2, "t"}, &owned);
            writeOrCheckEvalShardPlan(p, dir_ + "/fresh.jsonl");
            p = planEvalShard("mvbench", questions(), {jobs()[0]}, kConfig, {0, 2, "t"}, &owned);
            writeOrCheckEvalShardPlan(p, dir_ + "/fresh.jsonl");
            const EvalShardPlan back = EvalShardPlan::parse(
                readWholeFile(dir_ + "/fresh.jsonl.shard.json"), "fresh.jsonl.shard.json");
            QCOMPARE(back.jobs.size(), std::size_t(1));
        }
        // An unfinished shard (its last record missing), named with the missing record.
        {
            std::vector<EvalQuestion> owned;
            EvalShardPlan p =
                planEvalShard("mvbench", questions(), jobs(), kConfig, {2, 3, "t"}, &owned);
            writeOrCheckEvalShardPlan(p, dir_ + "/cut-2.jsonl");
            writeRun(owned, dir_ + "/cut-2.jsonl", 1);
        }
        e = test::errorOf([&] {
            mergeEvalResults({files[0], files[1], dir_ + "/cut-2.jsonl"}, dir_ + "/x.jsonl");
        });
        QVERIFY(e.brief().find("shard 2/3 is unfinished") != std::string::npos);
        QCOMPARE(e.where().file, dir_ + "/cut-2.jsonl");
        QCOMPARE(e.where().found, std::string("no record"));
        // A results file without a plan (not a sharded run).
        writeRun(questions(), dir_ + "/plain.jsonl");
        e = test::errorOf([&] { mergeEvalResults({dir_ + "/plain.jsonl"}, dir_ + "/x.jsonl"); });
        QCOMPARE(e.where().file, dir_ + "/plain.jsonl.shard.json");
        QVERIFY(!fs::exists(dir_ + "/x.jsonl"));
        // An existing output is left alone.
        writeFileAtomically(dir_ + "/taken.jsonl", "keep");
        e = test::errorOf([&] { mergeEvalResults(files, dir_ + "/taken.jsonl"); });
        QCOMPARE(e.where().field, std::string("output"));
        QCOMPARE(readWholeFile(dir_ + "/taken.jsonl"), std::string("keep"));
        // A damaged plan is refused naming the entry.
        writeFileAtomically(files[0] + ".shard.json",
                            "{\"format\": \"once-eval-shard/1\", \"shard\": {\"index\": 5, "
                            "\"count\": 3}}");
        e = test::errorOf([&] { mergeEvalResults(files, dir_ + "/x.jsonl"); });
        QCOMPARE(e.where().field, std::string("shard.index"));
    }
};

QTEST_GUILESS_MAIN(TestEvalMerge)
#include "test_eval_merge.moc"
