// The codebook projector (issue 30, view 16) driven through the real session, overlay and plot:
// the map is core's PCA of the session's codebook with this video's tokens on it, a click on a
// codeword chooses it everywhere (highlighted in the frames) and lists its most similar
// codewords by cosine, a group selected in the overlay is chosen on the map, a new codebook is
// mapped again, and nothing is fitted while the projector is hidden.
#include <ATen/ATen.h>
#include <qcustomplot.h>

#include <QCheckBox>
#include <QListWidget>
#include <QSpinBox>
#include <QtTest>

#include "../overlay/overlay_fixture.h"
#include "analysis/codebook_projection.h"
#include "codebook/codebook.h"
#include "codebook/codeword_ranking.h"
#include "projector/codebook_projector.h"
#include "projector/projection_chart.h"
#include "tasks/background_task.h"

using namespace once::studio;
using Fixture = test::OverlayFixture;

namespace {

bool idle(BackgroundTask* task) {
    return test::waitTaskIdle(task, 60000);
}

bool mapped(CodebookProjector& p) {
    return idle(p.mapTask()) && idle(p.similarTask());
}

}  // namespace

class TestCodebookProjector : public QObject {
    Q_OBJECT

  private slots:
    void theMapIsCoresProjectionOfCodebookAndTokens() {
        Fixture f(4);
        QVERIFY(f.ready());
        CodebookProjector projector(&f.session, &f.overlay);
        QVERIFY(!projector.mapTask()->isRunning());  // hidden: nothing fitted
        QVERIFY(projector.chart()->map().codewords.empty());
        projector.resize(640, 560);
        projector.show();
        QVERIFY(QTest::qWaitForWindowExposed(&projector));
        QVERIFY(mapped(projector));
        const auto& map = projector.chart()->map();
        const auto codebook = f.session.codebook();
        const once::CodebookProjection expected = once::fitCodebookProjection(*codebook);
        QCOMPARE(static_cast<std::int64_t>(map.codewords.size()), codebook->size());
        for (std::size_t i = 0; i < map.codewords.size(); ++i) {
            QVERIFY(std::abs(map.codewords[i].x() - expected.codewords[i][0].item<double>()) <
                    1e-6);
            QVERIFY(std::abs(map.codewords[i].y() - expected.codewords[i][1].item<double>()) <
                    1e-6);
        }
        const at::Tensor tokens = expected.project(f.session.video().features);
        QCOMPARE(static_cast<std::int64_t>(map.tokens.size()), tokens.size(0));
        QCOMPARE(map.nearestOf.size(), map.tokens.size());
        for (std::size_t i = 0; i < map.tokens.size(); ++i) {
            QVERIFY(std::abs(map.tokens[i].x() - tokens[i][0].item<double>()) < 1e-6);
            QCOMPARE(map.nearestOf[i], f.overlay.nearestCodeword(static_cast<int>(i)));
        }
        QCOMPARE(projector.chart()->table().rows.size(),
                 static_cast<int>(map.codewords.size() + map.tokens.size()));
    }

    void aClickedCodewordIsChosenEverywhereWithItsSimilarCodewords() {
        Fixture f(4);
        QVERIFY(f.ready());
        CodebookProjector projector(&f.session, &f.overlay);
        projector.resize(700, 600);
        projector.show();
        QVERIFY(QTest::qWaitForWindowExposed(&projector));
        QVERIFY(mapped(projector));
        ProjectionChart* chart = projector.chart();
        const QPoint at = chart->codewordPosition(5);
        const std::int64_t k = chart->codewordAt(at);  // 5, or one drawn on top of it
        QVERIFY(k >= 0);
        QTest::mouseClick(chart->plot(), Qt::LeftButton, {}, at);
        QCOMPARE(projector.chosen(), k);
        QVERIFY(f.overlay.highlightsCodeword());
        QCOMPARE(f.overlay.selectedCodeword(), k);
        QVERIFY(mapped(projector));
        const auto codebook = f.session.codebook();
        const auto expected = once::CodewordRanking(*codebook, codebook->vectors()[k])
                                  .nearest(CodebookProjector::kSimilar, k);
        QCOMPARE(projector.similarList()->count(), static_cast<int>(expected.size()));
        for (int i = 0; i < projector.similarList()->count(); ++i) {
            QCOMPARE(projector.similarList()->item(i)->data(Qt::UserRole).toLongLong(),
                     expected[static_cast<std::size_t>(i)].id);
        }
        QCOMPARE(chart->chosen(), k);

        // A double-click in the list chooses that codeword.
        QListWidgetItem* second = projector.similarList()->item(1);
        emit projector.similarList()->itemDoubleClicked(second);
        QCOMPARE(projector.chosen(), second->data(Qt::UserRole).toLongLong());
        QCOMPARE(f.overlay.selectedCodeword(), projector.chosen());
    }

    void aGroupSelectedInTheFrameIsChosenOnTheMap() {
        Fixture f(4);
        QVERIFY(f.ready());
        CodebookProjector projector(&f.session, &f.overlay);
        projector.show();
        QVERIFY(QTest::qWaitForWindowExposed(&projector));
        QVERIFY(mapped(projector));
        f.overlay.toggleSelectionAt(0, 3);
        const PatchInfo info = f.overlay.patchInfo(0, 3);
        QCOMPARE(projector.chosen(), info.codeword);
        QCOMPARE(projector.codewordBox()->value(), static_cast<int>(info.codeword));
        QVERIFY(mapped(projector));
        QCOMPARE(projector.chart()->chosen(), info.codeword);
        f.overlay.setSelectedCodeword(-1);
        QCOMPARE(projector.chosen(), std::int64_t{-1});
    }

    void aNewCodebookIsMappedAgain() {
        Fixture f(4);
        QVERIFY(f.ready());
        CodebookProjector projector(&f.session, &f.overlay);
        projector.show();
        QVERIFY(QTest::qWaitForWindowExposed(&projector));
        QVERIFY(mapped(projector));
        QCOMPARE(projector.chart()->map().codewords.size(), std::size_t{12});
        f.session.setCodebook(test::codebookFrom(f.video, 20));
        QVERIFY(test::waitIdle(f.session));
        QVERIFY(mapped(projector));
        QCOMPARE(projector.chart()->map().codewords.size(), std::size_t{20});
        QCOMPARE(projector.codewordBox()->maximum(), 19);
    }
};

QTEST_MAIN(TestCodebookProjector)
#include "test_codebook_projector.moc"
