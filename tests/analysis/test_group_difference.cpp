// compareGroupings (the A/B view's difference) on hand-made partitions whose answer is known,
// and on random partitions against tests/reference/group_difference.py.
#include <ATen/ATen.h>

#include <QtTest>
#include <nlohmann/json.hpp>

#include "analysis/group_difference.h"
#include "support/test_support.h"
#include "util/atomic_file.h"
#include "util/error.h"

using namespace once;

namespace {
at::Tensor groups(std::vector<std::int64_t> v) {
    return at::tensor(at::ArrayRef<std::int64_t>(v), at::kLong);
}
}  // namespace

class TestGroupDifference : public QObject {
    Q_OBJECT
  private slots:
    void identicalGroupingsDifferInNothing() {
        const auto g = groups({0, 0, 1, 2, 1, 2});
        const GroupDifference d = compareGroupings(g, g);
        QCOMPARE(d.same, std::int64_t{6});
        QCOMPARE(d.moved, std::int64_t{0});
        QCOMPARE(d.keptShare(), 1.0);
    }

    void renamedGroupsAreTheSame() {
        // B names the same partition differently (a peer's rows, another budget's order).
        const GroupDifference d =
            compareGroupings(groups({0, 0, 1, 1, 2}), groups({2, 2, 0, 0, 1}));
        QCOMPARE(d.same, std::int64_t{5});
    }

    void aMergeMovesOnlyTheSmallerGroup() {
        // A: {0,1,2} {3,4}; B merges them: the larger group's tokens stayed, the smaller moved.
        const GroupDifference d =
            compareGroupings(groups({0, 0, 0, 1, 1}), groups({0, 0, 0, 0, 0}));
        QCOMPARE(d.same, std::int64_t{3});
        QCOMPARE(d.moved, std::int64_t{2});
        QCOMPARE(d.state[3], std::uint8_t{GroupDifference::Moved});
        QCOMPARE(d.keptShare(), 0.6);
        // The split that undoes it moves the same tokens.
        const GroupDifference split =
            compareGroupings(groups({0, 0, 0, 0, 0}), groups({0, 0, 0, 1, 1}));
        QCOMPARE(split.state, d.state);
    }

    void droppedTokensAreCountedBySide() {
        const GroupDifference d = compareGroupings(groups({-1, 0, 0, -1}), groups({0, -1, 0, -1}));
        QCOMPARE(d.state[0], std::uint8_t{GroupDifference::DroppedInA});
        QCOMPARE(d.state[1], std::uint8_t{GroupDifference::DroppedInB});
        QCOMPARE(d.state[2], std::uint8_t{GroupDifference::Same});
        QCOMPARE(d.state[3], std::uint8_t{GroupDifference::DroppedInBoth});
        QCOMPARE(d.droppedInA + d.droppedInB + d.droppedInBoth, std::int64_t{3});
    }

    void randomPartitionsMatchTheReference() {
        at::manual_seed(5);
        for (int trial = 0; trial < 5; ++trial) {
            const at::Tensor a = at::randint(-1, 7, {300}, at::kLong);
            const at::Tensor b = at::randint(-1, 11, {300}, at::kLong);
            nlohmann::json in;
            in["a"] = std::vector<std::int64_t>(a.data_ptr<std::int64_t>(),
                                                a.data_ptr<std::int64_t>() + 300);
            in["b"] = std::vector<std::int64_t>(b.data_ptr<std::int64_t>(),
                                                b.data_ptr<std::int64_t>() + 300);
            const std::string inPath = test::tempDir() + "/gd_in.json";
            const std::string outPath = test::tempDir() + "/gd_out.json";
            writeFileAtomically(inPath, in.dump());
            const auto r =
                test::runPython("group_difference.py",
                                {QString::fromStdString(inPath), QString::fromStdString(outPath)});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            const auto ref = nlohmann::json::parse(readWholeFile(outPath))["state"];
            const GroupDifference d = compareGroupings(a, b);
            QCOMPARE(ref.size(), d.state.size());
            for (std::size_t i = 0; i < d.state.size(); ++i) {
                QCOMPARE(int(d.state[i]), ref[i].get<int>());
            }
            QVERIFY(d.moved > 0);
        }
    }

    void differentVideosAreRefused() {
        QVERIFY_THROWS_EXCEPTION(OnceError, compareGroupings(groups({0, 1}), groups({0, 1, 2})));
    }
};

QTEST_GUILESS_MAIN(TestGroupDifference)
#include "test_group_difference.moc"
