// The partition of a corpus over the tasks of a cluster array job (core/cluster/shard.h):
// `--shard I/N` parsing, the Slurm and Kubernetes environments, and the partition's properties
// (every video in exactly one shard, a pure function of the position, balanced).
#include <QtTest>
#include <map>
#include <set>

#include "cluster/shard.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;

namespace {

EnvLookup env(std::map<std::string, std::string> vars) {
    return [vars](const std::string& name) -> std::optional<std::string> {
        auto it = vars.find(name);
        if (it == vars.end()) {
            return std::nullopt;
        }
        return it->second;
    };
}

}  // namespace

class TestShard : public QObject {
    Q_OBJECT
  private slots:
    void parsesShardText() {
        ShardSpec s = parseShard("3/10");
        QCOMPARE(s.index, std::int64_t(3));
        QCOMPARE(s.count, std::int64_t(10));
        QCOMPARE(s.text(), std::string("3/10"));
        QVERIFY(s.sharded());
        QVERIFY(!parseShard("0/1").sharded());
        for (const char* bad : {"", "3", "10/10", "-1/4", "1/0", "a/4", "1/4x", "1/ 4", "1/100001",
                                "0x1/4", "1//4"}) {
            const OnceError e = test::errorOf([&] { parseShard(bad); });
            QCOMPARE(e.where().field, std::string("shard"));
            QVERIFY(e.where().expected.find("0-based") != std::string::npos);
        }
    }

    void readsSlurmArrayEnvironment() {
        auto s = shardFromEnvironment(env({{"SLURM_ARRAY_TASK_ID", "4"},
                                           {"SLURM_ARRAY_TASK_COUNT", "8"},
                                           {"SLURM_ARRAY_TASK_MIN", "0"},
                                           {"SLURM_ARRAY_TASK_MAX", "7"}}));
        QVERIFY(s);
        QCOMPARE(s->text(), std::string("4/8"));
        QCOMPARE(s->origin, std::string("SLURM_ARRAY_TASK_ID"));
        // --array=1-4: shifted to 0-based.
        s = shardFromEnvironment(env({{"SLURM_ARRAY_TASK_ID", "1"},
                                      {"SLURM_ARRAY_TASK_COUNT", "4"},
                                      {"SLURM_ARRAY_TASK_MIN", "1"},
                                      {"SLURM_ARRAY_TASK_MAX", "4"}}));
        QCOMPARE(s->text(), std::string("0/4"));
        // --array=0-6:2 (ids 0,2,4,6): not contiguous, refused naming the count.
        OnceError e = test::errorOf([] {
            shardFromEnvironment(env({{"SLURM_ARRAY_TASK_ID", "2"},
                                      {"SLURM_ARRAY_TASK_COUNT", "4"},
                                      {"SLURM_ARRAY_TASK_MIN", "0"},
                                      {"SLURM_ARRAY_TASK_MAX", "6"}}));
        });
        QCOMPARE(e.where().field, std::string("SLURM_ARRAY_TASK_COUNT"));
        QCOMPARE(e.where().file, std::string("environment"));
        e = test::errorOf([] { shardFromEnvironment(env({{"SLURM_ARRAY_TASK_ID", "2"}})); });
        QCOMPARE(e.where().field, std::string("SLURM_ARRAY_TASK_COUNT"));
        QCOMPARE(e.where().found, std::string("unset"));
        e = test::errorOf([] {
            shardFromEnvironment(
                env({{"SLURM_ARRAY_TASK_ID", "x"}, {"SLURM_ARRAY_TASK_COUNT", "3"}}));
        });
        QCOMPARE(e.where().field, std::string("SLURM_ARRAY_TASK_ID"));
        e = test::errorOf([] {
            shardFromEnvironment(
                env({{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_COUNT", "3"}}));
        });
        QCOMPARE(e.where().field, std::string("SLURM_ARRAY_TASK_ID"));
    }

    void readsKubernetesIndexedJobEnvironment() {
        auto s =
            shardFromEnvironment(env({{"JOB_COMPLETION_INDEX", "2"}, {"ONCE_SHARD_COUNT", "3"}}));
        QVERIFY(s);
        QCOMPARE(s->text(), std::string("2/3"));
        QCOMPARE(s->origin, std::string("JOB_COMPLETION_INDEX"));
        OnceError e = test::errorOf([] {
            shardFromEnvironment(env({{"JOB_COMPLETION_INDEX", "0"}}));
        });
        QCOMPARE(e.where().field, std::string("ONCE_SHARD_COUNT"));
        e = test::errorOf([] {
            shardFromEnvironment(env({{"JOB_COMPLETION_INDEX", "3"}, {"ONCE_SHARD_COUNT", "3"}}));
        });
        QCOMPARE(e.where().field, std::string("JOB_COMPLETION_INDEX"));
        QVERIFY(!shardFromEnvironment(env({})));
    }

    void optionBeatsEnvironment() {
        auto k8s = env({{"JOB_COMPLETION_INDEX", "1"}, {"ONCE_SHARD_COUNT", "2"}});
        QCOMPARE(resolveShard("", k8s).text(), std::string("1/2"));
        QCOMPARE(resolveShard("0/5", k8s).text(), std::string("0/5"));
        QVERIFY(!resolveShard("none", k8s).sharded());
        QVERIFY(!resolveShard("", env({})).sharded());
    }

    void everyVideoInExactlyOneShard() {
        for (std::int64_t n : {1, 2, 3, 7, 16}) {
            for (std::int64_t videos : {0, 1, 5, 16, 101}) {
                std::int64_t owned = 0;
                for (std::int64_t v = 0; v < videos; ++v) {
                    int owners = 0;
                    for (std::int64_t i = 0; i < n; ++i) {
                        owners += ShardSpec{i, n, {}}.owns(v) ? 1 : 0;
                    }
                    QCOMPARE(owners, 1);
                }
                std::int64_t lo = videos, hi = 0;
                for (std::int64_t i = 0; i < n; ++i) {
                    const std::int64_t c = ShardSpec{i, n, {}}.ownedCount(videos);
                    owned += c;
                    lo = std::min(lo, c);
                    hi = std::max(hi, c);
                }
                QCOMPARE(owned, videos);
                QVERIFY(hi - lo <= 1);  // round-robin: balanced to one video
            }
        }
        // Pure function of (position, N): the same answer whatever the task or the order asked.
        ShardSpec s{2, 5, {}};
        std::set<std::int64_t> first, again;
        for (std::int64_t v = 99; v >= 0; --v) {
            if (s.owns(v))
                first.insert(v);
        }
        for (std::int64_t v = 0; v < 100; ++v) {
            if (s.owns(v))
                again.insert(v);
        }
        QVERIFY(first == again);
        QCOMPARE(std::int64_t(first.size()), s.ownedCount(100));
        QCOMPARE(*first.begin(), std::int64_t(2));
    }
};

QTEST_APPLESS_MAIN(TestShard)
#include "test_shard.moc"
