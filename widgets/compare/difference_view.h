#pragma once
// The A/B view's difference overlay: the shared frame with every patch coloured by what the second
// compression did to it compared with the first (core/analysis/group_difference.h) — kept its
// group (left clear), moved to another group, dropped by A only, by B only, by both. Draws the
// frame of a GroupOverlay (the pictures) and a per-token state; computes nothing.
#include <QWidget>
#include <cstdint>
#include <vector>

namespace once::studio {

class GroupOverlay;

class DifferenceView : public QWidget {
    Q_OBJECT
  public:
    explicit DifferenceView(const GroupOverlay* frames, QWidget* parent = nullptr);

    /// Per-token states (GroupDifference::State) of the video on `frames`; empty clears.
    void setStates(std::vector<std::uint8_t> states);
    const std::vector<std::uint8_t>& states() const { return states_; }
    /// Colour of a state (transparent for Same).
    static QColor stateColour(std::uint8_t state);
    /// The rectangle the frame is drawn into.
    QRectF frameRect() const;

    QSize sizeHint() const override { return {360, 240}; }
    QSize minimumSizeHint() const override { return {160, 110}; }

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    const GroupOverlay* frames_;
    std::vector<std::uint8_t> states_;
};

}  // namespace once::studio
