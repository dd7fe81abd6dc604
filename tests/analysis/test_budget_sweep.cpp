// The budget sweep (analysis/budget_sweep.h): budgets min, powers of two, max; and a cancel in the
// middle keeps the budgets measured before it instead of throwing them away (issue 30).
#include <QtTest>

#include "analysis/budget_sweep.h"
#include "util/progress.h"

using namespace once;

class TestBudgetSweep : public QObject {
    Q_OBJECT
  private slots:
    void budgetsAreMinPowersOfTwoAndMax() {
        QCOMPARE(sweepBudgets(100, 1), (std::vector<std::int64_t>{1, 2, 4, 8, 16, 32, 64, 100}));
        QCOMPARE(sweepBudgets(64, 5), (std::vector<std::int64_t>{5, 8, 16, 32, 64}));
        QVERIFY(sweepBudgets(3, 4).empty());
    }

    void aCancelKeepsTheBudgetsMeasured() {
        CancelToken token;
        Progress progress({}, token);
        const std::vector<std::int64_t> budgets = sweepBudgets(256, 1);  // 9 budgets
        int calls = 0;
        auto compress = [&](std::int64_t budget) {
            if (++calls == 3 * 2 + 1) {  // budgets 1, 2, 4 done (2 repeats each); now 8
                token.cancel();
            }
            CompressionResult r;
            r.numOutputs = budget;
            r.seconds.pool = 1e-3;
            return r;
        };
        const BudgetSweep sweep =
            measureCompressorSweep(compress, budgets, 1000, 2.5, 2, &progress);
        QVERIFY(sweep.cancelled);
        QCOMPARE(sweep.plannedBudgets, budgets.size());
        // Budgets 1, 2 and 4 were measured in full; budget 8 stopped at its second repeat.
        QCOMPARE(sweep.points.size(), std::size_t(3));
        QCOMPARE(sweep.points[2].budget, std::int64_t(4));
        QCOMPARE(sweep.points[0].budget, std::int64_t(1));
        QCOMPARE(sweep.points[1].budget, std::int64_t(2));
        QCOMPARE(sweep.points[1].outputs, std::int64_t(2));
        QCOMPARE(sweep.assignMs, 2.5);

        // Not cancelled: every budget, and the flag stays off.
        CancelToken fresh;
        Progress whole({}, fresh);
        const BudgetSweep all = measureCompressorSweep(
            [](std::int64_t b) {
                CompressionResult r;
                r.numOutputs = b;
                return r;
            },
            budgets, 1000, 0, 1, &whole);
        QVERIFY(!all.cancelled);
        QCOMPARE(all.points.size(), budgets.size());
    }
};

QTEST_APPLESS_MAIN(TestBudgetSweep)
#include "test_budget_sweep.moc"
