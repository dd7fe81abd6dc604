// The budget panel and the latency chart tell the truth about what is on screen (issue 16):
// each method's valid budgets come from core's registry (the slider starts at the method's
// smallest useful budget and a line says what the method does with B), the variants explain
// themselves in tooltips, read-outs computed for another budget are greyed and marked until the
// new result arrives (or say that it was cancelled), and the latency chart shows no empty legend
// before a sweep and says when a sweep was cancelled.
#include <qcustomplot.h>

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSet>
#include <QSlider>
#include <QSpinBox>
#include <QtTest>

#include "../budget_fixture.h"
#include "../slow_compressor.h"
#include "../studio_test_data.h"
#include "budget/budget_panel.h"
#include "budget/log_scale.h"
#include "charts/budget_latency_chart.h"
#include "compress/token_compressor.h"
#include "overlay/group_overlay.h"
#include "session/methods.h"
#include "session/session_binder.h"
#include "session/studio_session.h"

using namespace once::studio;

namespace {

using Fixture = test::BoundBudgetPanel;
using test::pickMethod;

once::BudgetRange coreRange(const QString& method, const VideoData& video, std::int64_t k) {
    return once::budgetRange(method.toStdString(), methods::budgetShape(video, k));
}

once::BudgetSweep smallSweep() {
    once::BudgetSweep sweep;
    sweep.denseTokens = 144;
    sweep.assignMs = 3;
    for (std::int64_t b : {1, 2, 4, 8}) {
        once::SweepPoint p;
        p.budget = b;
        p.outputs = b;
        p.poolMs = 0.1 * b;
        sweep.points.push_back(p);
    }
    return sweep;
}

}  // namespace

class TestBudgetFeedback : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { test::registerSlowCompressor(); }

    // Defect 9: frame drop below P gave 0 tokens with the whole frame hatched, VQToken ignored
    // the budget silently. Now the controls start at the method's minimum and say the rule.
    void eachMethodStatesItsRangeFromTheRegistry() {
        Fixture f;
        const VideoData video = test::syntheticVideo(4, 6, 6, 16);  // T 4, P 36, N 144
        f.session.setVideo(video);
        f.session.setCodebook(test::codebookFrom(video, 32));
        QVERIFY(test::waitIdle(f.session));

        // ONCE: budgets 1 … K, the rule of the registry.
        QCOMPARE(f.panel.minimumBudget(), std::int64_t{1});
        QCOMPARE(f.panel.codebookSize(), std::int64_t{32});
        QCOMPARE(f.panel.slider()->minimum(), 0);
        const once::BudgetRange once = coreRange(QStringLiteral("once"), video, 32);
        QString note = f.panel.rangeNote();
        QVERIFY2(note.startsWith(QLatin1String("ONCE: ")), qPrintable(note));
        QVERIFY2(note.contains(QString::fromStdString(once.rule)), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("1–%1").arg(once.max)), qPrintable(note));
        QVERIFY2(f.panel.slider()->toolTip().contains(note),
                 qPrintable(f.panel.slider()->toolTip()));

        // Frame drop: whole frames only, so nothing below P = 36.
        pickMethod(f.panel, QStringLiteral("frame-drop"));
        const once::BudgetRange frames = coreRange(QStringLiteral("frame-drop"), video, 32);
        QCOMPARE(frames.min, std::int64_t{36});
        QCOMPARE(f.panel.minimumBudget(), frames.min);
        QCOMPARE(f.panel.spinBox()->minimum(), 36);
        QCOMPARE(f.panel.codebookSize(), std::int64_t{144});
        QCOMPARE(LogScale{144}.valueAt(f.panel.slider()->minimum()), std::int64_t{36});
        note = f.panel.rangeNote();
        QVERIFY2(note.startsWith(QLatin1String("Frame drop: ")), qPrintable(note));
        QVERIFY2(
            note.contains(QStringLiteral("36–144")) && note.contains(QLatin1String("below 36")),
            qPrintable(note));
        // The session's budget was raised with the method; dragging to the left end stops at 36,
        // and the result has tokens.
        QVERIFY(f.session.budget() >= 36);
        f.panel.slider()->setValue(0);
        QCOMPARE(f.panel.budget(), std::int64_t{36});
        QVERIFY(test::waitForResult(f.session, QStringLiteral("frame-drop"), 36));
        QCOMPARE(f.session.result()->numOutputs, std::int64_t{36});
        // A budget asked for below the range (menu, script) is clamped too.
        f.session.setBudget(5);
        QCOMPARE(f.session.budget(), std::int64_t{36});

        // VQToken: its own cluster count, capped by B; the panel says so in the registry's words.
        pickMethod(f.panel, QStringLiteral("vqtoken"));
        const once::BudgetRange vq = coreRange(QStringLiteral("vqtoken"), video, 32);
        QCOMPARE(f.panel.minimumBudget(), vq.min);
        note = f.panel.rangeNote();
        QVERIFY2(note.startsWith(QLatin1String("VQToken: ")), qPrintable(note));
        QVERIFY2(note.contains(QString::fromStdString(vq.rule)), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("%1–%2").arg(vq.min).arg(vq.max)), qPrintable(note));

        // Without a video a peer has no range to state.
        StudioSession empty;
        BudgetPanel panel;
        GroupOverlay overlay;
        SessionBinder binder(&empty, &overlay, &panel);
        pickMethod(panel, QStringLiteral("frame-drop"));
        QVERIFY(panel.rangeNote().isEmpty());
        QVERIFY(!panel.slider()->isEnabled());
    }

    void variantsExplainThemselves() {
        BudgetPanel panel;
        QComboBox* box = panel.variantBox();
        QCOMPARE(box->count(), static_cast<int>(once::variantNames().size()));
        QSet<QString> tips;
        for (int i = 0; i < box->count(); ++i) {
            const QString tip = box->itemData(i, Qt::ToolTipRole).toString();
            QVERIFY2(tip.size() > 30, qPrintable(box->itemText(i)));
            tips.insert(tip);
        }
        QCOMPARE(tips.size(), box->count());  // one description each
        box->setCurrentIndex(box->findData(QStringLiteral("no-reassign")));
        QVERIFY2(box->toolTip().contains(QLatin1String("dropped")), qPrintable(box->toolTip()));
    }

    // Defect 8: a slow re-compression showed the previous budget's numbers as if current.
    void staleReadoutsAreMarkedUntilTheNewResult() {
        Fixture f;
        f.session.setVideo(test::syntheticVideo(4, 6, 6, 16));
        test::SlowTimes::prepareSteps() = 1;
        test::SlowTimes::compressMs() = 400;
        pickMethod(f.panel, QStringLiteral("test-slow"));
        QVERIFY(test::waitForResult(f.session, QStringLiteral("test-slow"), f.session.budget()));
        const std::int64_t before = f.session.budget();
        QVERIFY(!f.panel.isStale());
        QVERIFY(f.panel.staleNote().isEmpty());

        QSignalSpy results(&f.session, &StudioSession::resultChanged);
        f.session.setBudget(20);
        QCOMPARE(f.panel.budget(), std::int64_t{20});  // the control follows at once
        QVERIFY(f.panel.isStale());
        QVERIFY(f.session.isCompressing());
        QVERIFY2(f.panel.staleNote().contains(QLatin1String("Updating")) &&
                     f.panel.staleNote().contains(QStringLiteral("B = %1").arg(before)),
                 qPrintable(f.panel.staleNote()));
        const QList<QLabel*> groups = f.panel.findChildren<QLabel*>();
        bool anyGreyed = false;
        for (QLabel* l : groups) {
            anyGreyed |= !l->isEnabled() && l->text() == f.panel.readout(QStringLiteral("M"));
        }
        QVERIFY(anyGreyed);
        QVERIFY(results.wait(10000));
        QVERIFY(test::waitForResult(f.session, QStringLiteral("test-slow"), 20));
        QVERIFY(!f.panel.isStale());
        QVERIFY(f.panel.staleNote().isEmpty());

        // Cancelled: the numbers stay marked, now saying that the update was cancelled.
        f.session.setBudget(30);
        QVERIFY(f.panel.isStale());
        f.session.cancel();
        QVERIFY(test::waitIdle(f.session, 10000));
        QCOMPARE(f.session.result()->budget, std::int64_t{20});
        QVERIFY(f.panel.isStale());
        QVERIFY2(f.panel.staleNote().contains(QLatin1String("cancelled")),
                 qPrintable(f.panel.staleNote()));
        test::SlowTimes::compressMs() = 50;
        test::SlowTimes::prepareSteps() = 10;
    }

    // Defect 11: an empty legend box before a sweep.
    void latencyLegendShowsOnlyWithASweep() {
        BudgetLatencyChart chart;
        chart.resize(700, 400);
        QCustomPlot* plot = chart.plot();
        QVERIFY(!plot->legend->visible());
        QCOMPARE(plot->legend->itemCount(), 0);
        // Below the axes, not over the lines.
        QVERIFY(plot->legend->layout() != plot->axisRect()->insetLayout());
        chart.setSweep(smallSweep(), 1);
        QVERIFY(plot->legend->visible());
        QVERIFY(plot->legend->itemCount() >= 4);
        chart.setSweep(std::nullopt, 1);
        QVERIFY(!plot->legend->visible());
    }

    void theChartSaysWhileMeasuringAndAfterACancel() {
        BudgetLatencyChart chart;
        chart.setCanMeasure(true);
        QVERIFY(chart.measureButton()->isEnabled());
        chart.setMeasuring(true);
        QVERIFY(!chart.measureButton()->isEnabled());
        QVERIFY(chart.measureButton()->text().startsWith(QLatin1String("Measuring")));
        QVERIFY2(chart.note().contains(QLatin1String("status bar")), qPrintable(chart.note()));
        chart.showCancelled();
        chart.setMeasuring(false);
        QVERIFY(chart.measureButton()->isEnabled());
        QVERIFY2(chart.note().contains(QLatin1String("nothing was measured")),
                 qPrintable(chart.note()));
        // With an earlier sweep, the chart keeps it and says so.
        chart.setSweep(smallSweep(), 0);
        chart.setMeasuring(true);
        chart.showCancelled();
        chart.setMeasuring(false);
        QVERIFY(chart.hasData());
        QVERIFY2(chart.note().contains(QLatin1String("previous")), qPrintable(chart.note()));
        // A cancelled sweep with budgets measured is drawn, and the note says how far it got.
        once::BudgetSweep partial = smallSweep();
        partial.cancelled = true;
        partial.plannedBudgets = partial.points.size() + 3;
        chart.setMeasuring(true);
        chart.setSweep(partial, 0);
        chart.showCancelled();
        chart.setMeasuring(false);
        QVERIFY(chart.hasData());
        const QString far = QStringLiteral("after %1 of %2 budgets")
                                .arg(partial.points.size())
                                .arg(partial.plannedBudgets);
        QVERIFY2(chart.note().contains(far), qPrintable(chart.note()));
        // A new sweep clears the remark.
        chart.setSweep(smallSweep(), 0);
        QVERIFY(!chart.note().contains(QLatin1String("cancelled")));
    }
};

QTEST_MAIN(TestBudgetFeedback)
#include "test_budget_feedback.moc"
