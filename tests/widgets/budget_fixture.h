#pragma once
// The budget panel bound to a document as the main window binds it (header-only, shared by the
// budget and peer-method suites): a StudioSession, the overlay model, the panel and the
// SessionBinder between them, and choosing a method the way a user does, in the selector.
#include <QComboBox>
#include <QtTest>

#include "budget/budget_panel.h"
#include "overlay/group_overlay.h"
#include "session/session_binder.h"
#include "session/studio_session.h"
#include "studio_test_data.h"

namespace once::studio::test {

struct BoundBudgetPanel {
    StudioSession session;
    GroupOverlay overlay;
    BudgetPanel panel;
    SessionBinder binder{&session, &overlay, &panel};
};

/// Selects `method` in the panel's selector (fails the test when it is not listed).
inline void pickMethod(BudgetPanel& panel, const QString& method) {
    const int index = panel.methodBox()->findData(method);
    QVERIFY2(index >= 0, qPrintable(method));
    panel.methodBox()->setCurrentIndex(index);
}

/// Opens `video` with a codebook of `k` of its rows in `session` and waits for the result.
inline bool openWithCodebook(StudioSession& session, const VideoData& video, std::int64_t k) {
    session.setVideo(video);
    session.setCodebook(codebookFrom(video, k));
    return waitIdle(session);
}

}  // namespace once::studio::test
