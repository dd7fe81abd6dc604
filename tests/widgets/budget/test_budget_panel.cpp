// The budget slider: a log scale from 1 to K, the spin box and slider kept in step, and the
// session re-compressing from its cached assignment so M, coverage and the LLM token count
// follow the slider (without a new assignment).
#include <QComboBox>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QtTest>
#include <cmath>

#include "../budget_fixture.h"
#include "../studio_test_data.h"
#include "budget/budget_panel.h"
#include "budget/log_scale.h"
#include "compress/compression.h"
#include "overlay/group_overlay.h"
#include "session/session_binder.h"
#include "session/studio_session.h"

using namespace once::studio;

class TestBudgetPanel : public QObject {
    Q_OBJECT
  private slots:
    void logScaleCoversOneToK() {
        LogScale s{8192};
        QCOMPARE(s.valueAt(0), std::int64_t{1});
        QCOMPARE(s.valueAt(LogScale::kSteps), std::int64_t{8192});
        QCOMPARE(s.valueAt(LogScale::kSteps / 2), std::int64_t{91});  // √8192 ≈ 90.5
        // Small budgets are exact; large ones within one step of the log scale (the spin box
        // gives exact values there).
        for (std::int64_t b : {1, 2, 3, 64, 8192}) {
            QCOMPARE(s.valueAt(s.positionOf(b)), b);
        }
        const double ratio = std::exp(std::log(8192.0) / LogScale::kSteps);
        for (std::int64_t b : {500, 512, 4000}) {
            const double got = static_cast<double>(s.valueAt(s.positionOf(b)));
            QVERIFY(got / b < ratio && b / got < ratio);
        }
        for (int p = 1; p <= LogScale::kSteps; ++p) {
            QVERIFY(s.valueAt(p) >= s.valueAt(p - 1));  // monotone
        }
        QCOMPARE(LogScale{1}.valueAt(500), std::int64_t{1});
    }

    void sliderAndSpinBoxStayInStep() {
        BudgetPanel panel;
        panel.setCodebookSize(1024);
        QSignalSpy changed(&panel, &BudgetPanel::budgetChanged);
        panel.slider()->setValue(LogScale{1024}.positionOf(64));
        QCOMPARE(panel.spinBox()->value(), 64);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.last().first().value<std::int64_t>(), std::int64_t{64});
        panel.spinBox()->setValue(300);
        QCOMPARE(panel.budget(), std::int64_t{300});
        QCOMPARE(panel.slider()->value(), LogScale{1024}.positionOf(300));
        // Programmatic updates do not echo back as user changes.
        changed.clear();
        panel.setBudget(8);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(panel.spinBox()->value(), 8);
        // The budget never exceeds K.
        panel.setCodebookSize(4);
        QCOMPARE(panel.budget(), std::int64_t{4});
    }

    // Issue 16: with K = 256, typing 300 gave 30 and 1024 gave 102 (the spin box refused the
    // last keystroke). Now a number beyond K is clamped to K and the panel says so.
    void typedBudgetsBeyondTheRangeAreClampedVisibly() {
        BudgetPanel panel;
        panel.setCodebookSize(256);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSpinBox* spin = panel.spinBox();
        QVERIFY2(spin->toolTip().contains(QLatin1String("256")), qPrintable(spin->toolTip()));
        QSignalSpy changed(&panel, &BudgetPanel::budgetChanged);
        auto type = [&](const QString& text) {
            spin->setFocus();
            spin->selectAll();
            QTest::keyClicks(spin, text);
            QTest::keyClick(spin, Qt::Key_Return);
        };

        type(QStringLiteral("100"));
        QCOMPARE(panel.budget(), std::int64_t{100});
        QVERIFY(panel.budgetNote().isEmpty());

        for (const QString& typed : {QStringLiteral("300"), QStringLiteral("1024")}) {
            type(typed);
            QCOMPARE(spin->value(), 256);
            QCOMPARE(panel.budget(), std::int64_t{256});
            QCOMPARE(panel.slider()->value(), LogScale{256}.positionOf(256));
            QVERIFY2(panel.budgetNote().contains(typed) &&
                         panel.budgetNote().contains(QLatin1String("K = 256")),
                     qPrintable(panel.budgetNote()));
        }
        QCOMPARE(changed.last().first().value<std::int64_t>(), std::int64_t{256});

        // An in-range number clears the note; zero goes up to 1, with a note.
        type(QStringLiteral("64"));
        QCOMPARE(panel.budget(), std::int64_t{64});
        QVERIFY(panel.budgetNote().isEmpty());
        type(QStringLiteral("0"));
        QCOMPARE(panel.budget(), std::int64_t{1});
        QVERIFY2(panel.budgetNote().contains(QLatin1String("set to 1")),
                 qPrintable(panel.budgetNote()));
    }

    void countsFollowTheSlider() {
        test::BoundBudgetPanel bound;
        auto& [session, overlay, panel, binder] = bound;
        const VideoData video = test::syntheticVideo(4, 6, 6, 16);
        QVERIFY(test::openWithCodebook(session, video, 32));
        QCOMPARE(panel.codebookSize(), std::int64_t{32});
        const auto assignment = session.assignment();
        QVERIFY(assignment);

        for (std::int64_t b : {1, 3, 8, 32}) {
            panel.slider()->setValue(LogScale{32}.positionOf(b));
            QTRY_VERIFY_WITH_TIMEOUT(session.result() && session.result()->budget == b, 30000);
            QVERIFY(test::waitIdle(session));
            const auto r = session.result();
            QVERIFY(r->numOutputs <= b);
            QCOMPARE(r->numOutputs, std::min(b, r->usedCodewords));
            QVERIFY(panel.readout(QStringLiteral("M")).startsWith(QString::number(r->numOutputs)));
            QCOMPARE(panel.readout(QStringLiteral("llm")), QString::number(r->numOutputs));
            QCOMPARE(overlay.groupCount(), static_cast<int>(r->numOutputs));
            // Re-compression reuses the cached assignment.
            QCOMPARE(session.assignment(), assignment);
        }

        // No-reassign drops tokens at a small budget: coverage falls below 100 %.
        panel.slider()->setValue(0);
        panel.variantBox()->setCurrentIndex(
            panel.variantBox()->findData(QStringLiteral("no-reassign")));
        QTRY_VERIFY_WITH_TIMEOUT(session.result() &&
                                     session.result()->variant == once::Variant::NoReassign &&
                                     session.result()->budget == 1,
                                 30000);
        QVERIFY(test::waitIdle(session));
        QVERIFY(session.result()->coverage < 1.0);
        QVERIFY(overlay.droppedCount() > 0);
        QVERIFY(!panel.readout(QStringLiteral("coverage")).startsWith(QLatin1String("100")));
    }

    void rapidMovesEndAtTheLastBudget() {
        test::BoundBudgetPanel bound;
        auto& [session, overlay, panel, binder] = bound;
        const VideoData video = test::syntheticVideo(8, 8, 8, 16);
        QVERIFY(test::openWithCodebook(session, video, 64));
        // A drag: many values in a row, faster than compression; the newest one must win.
        for (int p = 0; p <= LogScale::kSteps; p += 25) {
            panel.slider()->setValue(p);
        }
        panel.slider()->setValue(LogScale{64}.positionOf(17));
        QTRY_VERIFY_WITH_TIMEOUT(!session.isBusy(), 30000);
        QCOMPARE(session.result()->budget, std::int64_t{17});
        QCOMPARE(panel.budget(), std::int64_t{17});
    }
};

QTEST_MAIN(TestBudgetPanel)
#include "test_budget_panel.moc"
