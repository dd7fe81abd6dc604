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

    /// A visual encoder's display title ("LLaVA-OneVision"; the name itself for an encoder
    /// without a language backbone, such as "demo").
    static QString encoderTitle(const QString& backbone);

  private:
    void onVideo();
    void onCodebook();
    void onInputs();
    void onResult();
    /// The budget and variant set elsewhere (menu, demo, clamping) reach the controls.
    void onOptions();
    /// Read-outs marked while a compression runs; the overlay says why it is empty.
    void onWork();
    /// The budget panel's "Features:" row: the video's encoder, and the model folder's when
    /// it differs (the features were not re-encoded).
    void onFeatureSource();

    StudioSession* session_;
    GroupOverlay* overlay_;
    BudgetPanel* budget_;
};

}  // namespace once::studio
