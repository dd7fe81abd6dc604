#pragma once
// The scroll area each panel dock holds: the panel scrolls inside its dock instead of setting the
// window's minimum size (issue 16, small screens), and a panel whose height depends on its width
// (word-wrapped notes such as the budget panel's "ONCE needs a codebook") gets that height, so
// wrapped text never lies over the widgets below it. QScrollArea alone sizes its widget from the
// minimum size hint, which does not grow when a label wraps onto more lines.
#include <QScrollArea>

namespace once::studio {

class DockScrollArea : public QScrollArea {
    Q_OBJECT
  public:
    /// With `fitHeightForWidth` the panel gets the height its layout wants at the dock's width
    /// (for panels of notes and form rows; panels holding their own scroll areas shrink
    /// better without it).
    DockScrollArea(QWidget* panel, bool fitHeightForWidth, QWidget* parent = nullptr);

  protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    /// Gives the panel at least the height its layout needs at the viewport's width.
    void fitPanelHeight();
    bool fit_;
    bool fitting_ = false;
};

}  // namespace once::studio
