#pragma once
// Keeping a top-level window on its screen: a default size or a geometry saved on a larger
// monitor must not leave the window (its status bar, its frame) past a small screen's edge.
class QWidget;

namespace once::studio {

/// Shrinks `window` to its screen's available area and moves it inside, window-manager frame
/// included (a title bar is assumed while the frame is not known yet). A maximised or full-screen
/// state that would ignore the resize is dropped.
void fitWindowIntoScreen(QWidget& window);

}  // namespace once::studio
