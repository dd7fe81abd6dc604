#pragma once
// The codeword-group overlay fed by a real session over the synthetic video, shared by the
// overlay suites: a budget (and variant) in, the compressed result on the overlay out, and a
// frame view over that overlay ready to be shown. Header-only because it needs the widgets.
#include <QSize>
#include <QtTest>

#include "../studio_test_data.h"
#include "compress/compression.h"
#include "overlay/frame_overlay_view.h"
#include "overlay/group_overlay.h"
#include "session/studio_session.h"

namespace once::studio::test {

struct OverlayFixture {
    StudioSession session;
    GroupOverlay overlay;
    VideoData video = syntheticVideo();
    // Declared after the overlay: built after it and destroyed before it.
    FrameOverlayView view{&overlay};

    explicit OverlayFixture(std::int64_t budget, once::Variant variant = once::Variant::Full) {
        session.setBudget(budget);
        session.setVariant(variant);
        overlay.setVideo(video);
        session.setVideo(video);
        session.setCodebook(codebookFrom(video, 12));
    }

    /// Waits for the session's result and hands it to the overlay; false when none came.
    bool ready() {
        if (!waitIdle(session)) {
            return false;
        }
        overlay.setResult(session.result(), session.assignment());
        return true;
    }

    /// ready(), then the view shown at `size` and exposed on screen.
    bool shown(QSize size = QSize(480, 400)) {
        if (!ready()) {
            return false;
        }
        view.resize(size);
        view.show();
        return QTest::qWaitForWindowExposed(&view);
    }
};

}  // namespace once::studio::test
