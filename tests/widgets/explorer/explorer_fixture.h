#pragma once
// The codebook explorer wired to a real session, overlay and budget panel (budget_fixture.h),
// as the studio's window wires them: shared by the explorer's widget suites. Header-only.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>

#include "../budget_fixture.h"
#include "../studio_test_data.h"
#include "explorer/codebook_explorer.h"

namespace once::studio::test {

struct ExplorerFixture : BoundBudgetPanel {
    CodebookExplorer explorer{&session, &overlay};
    std::int64_t codewords;

    /// Shows the explorer, then gives the session `budget`, `video` and the codebook file of
    /// `codewords` rows.
    ExplorerFixture(const VideoData& video, const QString& codebook, std::int64_t codewords,
                    std::int64_t budget)
        : codewords(codewords) {
        explorer.resize(760, 520);
        explorer.show();
        session.setBudget(budget);
        session.setVideo(video);
        session.openCodebook(codebook);
    }

    /// Waits until the session has its result and the explorer its tiles with nothing loading
    /// (queued patch deliveries processed); false after two minutes.
    bool ready() {
        if (!waitIdle(session)) {
            return false;
        }
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 120000) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            if (!explorer.isLoading() && explorer.model().codewords() == codewords) {
                QCoreApplication::processEvents();
                return true;
            }
            QTest::qWait(10);
        }
        return false;
    }
};

}  // namespace once::studio::test
