#include "window_fitting.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>
#include <QWindow>
#include <algorithm>

namespace once::studio {

void fitWindowIntoScreen(QWidget& window) {
    // The default size and a geometry saved on a larger monitor may both exceed this screen
    // (issue 16: a 1366 × 768 laptop); shrink and move the window inside the available area,
    // frame included. Before the window manager has framed the window its margins are unknown:
    // a title bar is allowed for, and MainWindow::showEvent() fits again with the real frame
    // (issue 30: from the second start on, the status bar lay 20 px below the screen).
    const QScreen* s =
        window.screen() != nullptr ? window.screen() : QGuiApplication::primaryScreen();
    if (s == nullptr) {
        return;
    }
    const QRect available = s->availableGeometry();
    constexpr int kTitleBarAllowance = 32;
    QMargins frame =
        window.windowHandle() != nullptr ? window.windowHandle()->frameMargins() : QMargins();
    if (frame.isNull()) {
        frame = QMargins(0, kTitleBarAllowance, 0, 0);
    }
    const QSize room(std::max(available.width() - frame.left() - frame.right(), 1),
                     std::max(available.height() - frame.top() - frame.bottom(), 1));
    const QSize fitted = window.size().boundedTo(room);
    if (fitted != window.size()) {
        // A restored maximised state would ignore the resize.
        window.setWindowState(window.windowState() & ~(Qt::WindowMaximized | Qt::WindowFullScreen));
        window.resize(fitted);
    }
    // The frame's outer rectangle must lie inside the available area; move() places the
    // client area, so the frame's top-left is the client's minus the margins.
    const QRect outer(window.geometry().topLeft() - QPoint(frame.left(), frame.top()),
                      fitted.grownBy(frame));
    if (!available.contains(outer)) {
        const int x = std::clamp(outer.left(), available.left(),
                                 std::max(available.left(), available.right() - outer.width() + 1));
        const int y =
            std::clamp(outer.top(), available.top(),
                       std::max(available.top(), available.bottom() - outer.height() + 1));
        window.setGeometry(QRect(QPoint(x + frame.left(), y + frame.top()), fitted));
    }
}

}  // namespace once::studio
