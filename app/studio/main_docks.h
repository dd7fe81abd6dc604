#pragma once
// The main window's panels, each in a dock, arranged as a first start shows them: Budget and
// Playback above Charts, Codebook, Patch and Projector on the right; Question, Trainer, Messages,
// A/B and Batch tabs below. A dock that brings up another (the frame view's "Show Codeword",
// "Inspect Patch"; the batch bench into the latency chart) is connected here; everything else the
// panels do with the session and the window is the window's wiring.
#include <QCoreApplication>

class QMainWindow;
class QPlainTextEdit;

namespace once::studio {

class AbCompareView;
class BatchPanel;
class BudgetPanel;
class ChartsPanel;
class CodebookExplorer;
class CodebookProjector;
class FrameOverlayView;
class GroupOverlay;
class PatchInspector;
class QuestionPanel;
class StudioSession;
class TrainerPanel;
class VideoPlayerPanel;

class MainDocks {
    // The docks' own translation context (no meta-object: a plain class, as HelpDialogs).
    Q_DECLARE_TR_FUNCTIONS(MainDocks)
  public:
    /// Creates the panels over `session` and `overlay` in docks of `window` (which owns them);
    /// `view` is the window's frame view, whose context menu shows the codebook and patch docks.
    static MainDocks build(QMainWindow* window, StudioSession* session, GroupOverlay* overlay,
                           FrameOverlayView* view);

    BudgetPanel* budget = nullptr;
    VideoPlayerPanel* player = nullptr;
    ChartsPanel* charts = nullptr;
    QuestionPanel* question = nullptr;
    TrainerPanel* trainer = nullptr;
    /// The Messages dock: what the window logs.
    QPlainTextEdit* messages = nullptr;
    CodebookExplorer* explorer = nullptr;
    PatchInspector* inspector = nullptr;
    CodebookProjector* projector = nullptr;
    AbCompareView* compare = nullptr;
    BatchPanel* batch = nullptr;
};

}  // namespace once::studio
