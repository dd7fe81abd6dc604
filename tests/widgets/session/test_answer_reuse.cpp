// Issue 15: a question in the studio reuses what the studio holds. After the video is loaded
// (decoded and encoded once, by the model's encoder) asking Dense and ONCE decodes, encodes and
// reads nothing again, and a codebook that exists only in memory answers the ONCE column.
// Issue 28: nor does it prepare a compressor again — ONCE's assignment on screen and a peer
// prepared for the slider answer the question (the session used to assign the whole video again
// for every question).
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "../studio_test_data.h"
#include "codebook/codebook.h"
#include "question/question_panel.h"
#include "session/studio_session.h"
#include "support/test_support.h"
#include "tasks/background_task.h"
#include "util/work_counters.h"

using namespace once::studio;

class TestAnswerReuse : public QObject {
    Q_OBJECT
  private slots:
    void aQuestionDecodesAndEncodesNothingAgain() {
        const QString dir = QString::fromStdString(once::test::tempDir());
        const auto r = once::test::runPython(QStringLiteral("llm_reference.py"),
                                             {QStringLiteral("llava"), dir});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));

        StudioSession session;
        PipelineSettings settings = session.pipelineSettings();
        settings.backbone = QStringLiteral("llava-onevision");  // the model's own encoder
        settings.sampling = QStringLiteral("uniform:4");
        session.setPipelineSettings(settings);
        QuestionPanel panel(&session);
        QSignalSpy errors(&session, &StudioSession::errorOccurred);
        session.openModelFolder(dir);
        session.openVideo(
            QString::fromStdString(once::test::sourcePath("resources/demo/demo.mp4")));
        QVERIFY(test::waitIdle(session, 300000, false));
        QVERIFY2(errors.isEmpty(),
                 errors.isEmpty() ? "" : qPrintable(errors.first().at(1).toString()));
        QCOMPARE(QString::fromStdString(session.video().backbone),
                 QStringLiteral("llava-onevision"));
        // A codebook held only in memory (rows of the video's own features).
        const auto& v = session.video();
        session.setCodebook(std::make_shared<const once::Codebook>(once::Codebook::fromTensor(
            v.features.reshape({-1, v.dim()}).slice(0, 0, 60, 5).to(at::kFloat).contiguous(),
            "llava-onevision")));
        session.setBudget(4);
        QVERIFY(test::waitIdle(session, 300000));
        QVERIFY(session.codebookFile().isEmpty());
        QVERIFY(panel.canAnswer());

        const auto& w = once::workCounters();
        const std::int64_t decodes = w.decodes, encodes = w.encodes, builds = w.encoderBuilds,
                           loads = w.codebookLoads, prepares = w.prepares;
        QVERIFY(prepares > 0);  // ONCE's assignment on screen
        QSignalSpy finished(panel.task(), &BackgroundTask::finished);
        panel.questionEdit()->setText(QStringLiteral("What happens?"));
        QTest::mouseClick(panel.askButton(), Qt::LeftButton);
        QVERIFY(finished.wait(300000));
        QVERIFY2(panel.problem().isEmpty(), qPrintable(panel.problem()));
        QVERIFY(!panel.denseAnswer().isEmpty());
        QVERIFY(!panel.onceAnswer().isEmpty());
        QCOMPARE(std::int64_t(w.decodes), decodes);
        QCOMPARE(std::int64_t(w.encodes), encodes);
        QCOMPARE(std::int64_t(w.encoderBuilds), builds);
        QCOMPARE(std::int64_t(w.codebookLoads), loads);
        QCOMPARE(std::int64_t(w.prepares), prepares);

        // Another variant of ONCE adopts the assignment; a peer is prepared once, for the
        // slider, and the question about it prepares nothing more.
        session.setVariant(once::Variant::NoReassign);
        QVERIFY(test::waitForResult(session, QStringLiteral("once"), 4));
        QCOMPARE(std::int64_t(w.prepares), prepares);
        ask(panel);
        QCOMPARE(std::int64_t(w.prepares), prepares);
        session.setMethod(QStringLiteral("spatial-pool"));
        QVERIFY(test::waitForResult(session, QStringLiteral("spatial-pool"), session.budget()));
        QCOMPARE(std::int64_t(w.prepares), prepares + 1);
        ask(panel);
        QCOMPARE(std::int64_t(w.prepares), prepares + 1);
        QCOMPARE(std::int64_t(w.decodes), decodes);
        QCOMPARE(std::int64_t(w.encodes), encodes);
    }

  private:
    static void ask(QuestionPanel& panel) {
        QSignalSpy finished(panel.task(), &BackgroundTask::finished);
        QTest::mouseClick(panel.askButton(), Qt::LeftButton);
        QVERIFY(finished.wait(300000));
        QVERIFY2(panel.problem().isEmpty(), qPrintable(panel.problem()));
        QVERIFY(!panel.onceAnswer().isEmpty());
    }
};

QTEST_MAIN(TestAnswerReuse)
#include "test_answer_reuse.moc"
