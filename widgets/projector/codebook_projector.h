#pragma once
// The codebook projector (issue 30, view 16): the codebook and this video's tokens on one 2-D
// map (PCA of the unit codewords, core/analysis/codebook_projection.h), the codewords the result
// selected, and for a chosen codeword its assigned tokens and its most similar codewords by
// cosine (core/codebook/codeword_ranking.h). Choosing is shared with the other views: a
// codeword clicked on the map, typed in the search box or picked in the list is highlighted in
// every frame (GroupOverlay::highlightCodeword), and a group selected in the frame or the
// codebook explorer is chosen here. The map is fitted on a worker when the codebook changes
// (only while the projector is visible; the tokens are projected again for a new video); the
// similar codewords too. The widget draws.
#include <QWidget>
#include <cstdint>
#include <memory>

class QCheckBox;
class QLabel;
class QListWidget;
class QSpinBox;

namespace once {
class Codebook;
struct CodebookProjection;
}  // namespace once

namespace once::studio {

class BackgroundTask;
class GroupOverlay;
class LatestRequestRunner;
class ProjectionChart;
class StudioSession;

class CodebookProjector : public QWidget {
    Q_OBJECT
  public:
    CodebookProjector(StudioSession* session, GroupOverlay* overlay, QWidget* parent = nullptr);
    ~CodebookProjector() override;

    /// Similar codewords listed for the chosen one.
    static constexpr int kSimilar = 10;

    ProjectionChart* chart() const { return chart_; }
    QSpinBox* codewordBox() const { return codeword_; }
    QCheckBox* tokensBox() const { return tokens_; }
    QListWidget* similarList() const { return similar_; }
    /// The map's worker and the similar codewords' worker (status bar, tests).
    BackgroundTask* mapTask() const;
    BackgroundTask* similarTask() const;
    /// The chosen codeword (−1: none).
    std::int64_t chosen() const { return chosen_; }
    /// Chooses `codeword` (highlighted in every frame too); −1 clears.
    void choose(std::int64_t codeword);
    /// Whether the map is wanted: the window passes its dock's visibilityChanged (a tab behind
    /// another is "visible" to QWidget but shows nothing), so a map is fitted only when seen.
    /// On by default (the projector on its own).
    void setActive(bool active);
    bool isActive() const { return active_; }

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    /// Fits the map for the session's codebook (when it changed) and projects its video's
    /// tokens, on the worker (a request while a fit runs replaces it).
    void refreshMap();
    void refreshSelected();
    /// The codeword the overlay's selection names, chosen here.
    void followOverlay(std::int64_t codeword);
    void findSimilar();

    StudioSession* session_;
    GroupOverlay* overlay_;
    ProjectionChart* chart_;
    QSpinBox* codeword_;
    QCheckBox* tokens_;
    QListWidget* similar_;
    QLabel* status_;
    LatestRequestRunner* mapRunner_;      ///< fits and projects; the newest request wins
    LatestRequestRunner* similarRunner_;  ///< ranks codewords; the newest request wins
    std::shared_ptr<const once::CodebookProjection> projection_;
    std::shared_ptr<const once::Codebook> fittedOn_;  ///< the codebook projection_ is of
    std::int64_t chosen_ = -1;
    bool active_ = true;
    bool mapStale_ = true;
};

}  // namespace once::studio
