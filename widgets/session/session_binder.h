#pragma once
// Keeps the overlay model and the budget panel in step with a StudioSession, in both directions:
// new video/codebook/method/budget/result and running work → views; method/slider/variant →
// session (whose compression controller prepares the method once per video and re-compresses).
#include <QObject>

namespace once::studio {

class BudgetPanel;
class GroupOverlay;
class StudioSession;

class SessionBinder : public QObject {
    Q_OBJECT
  public:
    SessionBinder(StudioSession* session, GroupOverlay* overlay, BudgetPanel* budget,
                  QObject* parent = nullptr);

  private:
    void onVideo();
    void onCodebook();
    void onInputs();
    void onResult();
    /// The budget and variant set elsewhere (menu, demo, clamping) reach the controls.
    void onOptions();
    /// Read-outs marked while a compression runs; the overlay says why it is empty.
    void onWork();

    StudioSession* session_;
    GroupOverlay* overlay_;
    BudgetPanel* budget_;
};

}  // namespace once::studio
