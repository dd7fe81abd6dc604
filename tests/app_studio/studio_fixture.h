#pragma once
// Widget set-up shared by the main-window suites (header-only: it needs the widgets, which
// tests/support may not link): the suite's start, a shown window, the demo loaded through it,
// a menu action by its text, and the tiny random LLaVA-OneVision model folder.
#include <QAction>
#include <QDir>
#include <QImage>
#include <QtTest>
#include <memory>

#include "../widgets/studio_test_data.h"
#include "main_window.h"
#include "session/demo_assets.h"
#include "session/studio_session.h"
#include "studio_app_test.h"
#include "support/test_support.h"

namespace once::studio::test {

/// initTestCase of a suite that needs the demo: the application as once-studio sets it up;
/// the suite is skipped (with the reason) in a checkout without the demo video.
inline void initDemoSuite() {
    initStudioTestApplication();
    if (!DemoAssets::locate().hasVideo()) {
        QFAIL(
            "the demo video is not in this checkout (committed, or installed by scripts/setup.sh: "
            "a broken checkout or set-up fails, it does not skip)");
    }
}

/// A main window of `size`, shown and exposed (null when it never was).
inline std::unique_ptr<MainWindow> shownWindow(QSize size = {1400, 900}) {
    auto window = std::make_unique<MainWindow>();
    window->resize(size);
    window->show();
    return QTest::qWaitForWindowExposed(window.get()) ? std::move(window) : nullptr;
}

/// Loads the demo through the window and waits for its result (false on timeout).
inline bool loadDemo(MainWindow& window, int timeoutMs = 300000) {
    window.loadDemo();
    return waitIdle(*window.session(), timeoutMs);
}

/// The window's action whose text without mnemonics is `text` (null when none).
inline QAction* findAction(QWidget* window, const QString& text) {
    for (QAction* a : window->findChildren<QAction*>()) {
        if (a->text().remove(QLatin1Char('&')) == text) {
            return a;
        }
    }
    return nullptr;
}

/// A tiny random LLaVA-OneVision folder (tests/reference/llm_reference.py) in a new temporary
/// folder; "" when the script failed (its error in `error`).
inline QString tinyLlavaFolder(QString* error = nullptr) {
    const QString dir = QString::fromStdString(once::test::tempDir());
    const auto r =
        once::test::runPython(QStringLiteral("llm_reference.py"), {QStringLiteral("llava"), dir});
    if (r.exitCode != 0) {
        if (error != nullptr) {
            *error = r.err;
        }
        return {};
    }
    return dir;
}

}  // namespace once::studio::test

namespace once::studio::test {

/// Saves a picture of `window` as `name` in the screenshot folder — the build tree's
/// screenshots/, or $ONCE_SCREENSHOT_DIR (docs/screenshots/ when refreshing the committed ones)
/// — after giving it a moment to paint; the saved image read back (null when not saved).
inline QImage saveScreenshot(QWidget& window, const QString& name) {
    QTest::qWait(300);
    const QString dir = qEnvironmentVariableIsSet("ONCE_SCREENSHOT_DIR")
                            ? qEnvironmentVariable("ONCE_SCREENSHOT_DIR")
                            : QStringLiteral(ONCE_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    const QString shot = dir + QLatin1Char('/') + name;
    return window.grab().save(shot) ? QImage(shot) : QImage();
}

}  // namespace once::studio::test
