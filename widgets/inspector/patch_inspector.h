#pragma once
// Per-patch inspection (issue 30, view 15): the patch clicked in the frame view — its k nearest
// codewords with their cosines (which of them this result selected, which is its group's), the
// output token it feeds, whether it kept its own nearest codeword or was reassigned and to which
// rank, its residual and its cosine to the pooled output token. Follows the overlay's inspected
// patch and the session's result, so a new budget or method re-inspects the same patch. The
// numbers come from core (compress/token_inspection.h) on a worker; this widget only draws.
// Double-clicking a codeword highlights its patches in every frame and shows it in the codebook
// view.
#include <QWidget>
#include <cstdint>

#include "compress/token_inspection.h"

class QLabel;
class QSpinBox;
class QTableWidget;

namespace once::studio {

class BackgroundTask;
class GroupOverlay;
class LatestRequestRunner;
class StudioSession;

class PatchInspector : public QWidget {
    Q_OBJECT
  public:
    PatchInspector(StudioSession* session, GroupOverlay* overlay, QWidget* parent = nullptr);
    ~PatchInspector() override;

    /// Nearest codewords listed by default.
    static constexpr int kDefaultNearest = 8;

    // ---- state, for the window and the tests ----
    /// The inspection on screen (token −1: none).
    const once::TokenInspection& inspection() const { return shown_; }
    /// Whether the codewords in inspection() were selected by the result on screen.
    bool isSelectedCodeword(std::int64_t codeword) const;
    QLabel* heading() const { return heading_; }
    /// The group, output token, residual and cosines, as text.
    QString detailText() const;
    QTableWidget* table() const { return table_; }
    QSpinBox* nearestCountBox() const { return count_; }
    BackgroundTask* task() const;

  signals:
    /// A codeword of the list was double-clicked (its patches are highlighted already).
    void codewordRequested(std::int64_t codeword);
    /// A new inspection is on screen (or the message that there is none).
    void updated();

  private:
    /// Inspects the overlay's patch under the session's result on the worker (again when one
    /// is running: the newest request wins).
    void refresh();
    void showMessage(const QString& text);
    void showInspection(const once::TokenInspection& inspection,
                        const std::vector<std::int64_t>& selected, std::int64_t outputs);

    StudioSession* session_;
    GroupOverlay* overlay_;
    LatestRequestRunner* runner_;
    QLabel* heading_;
    QLabel* group_;
    QLabel* codeword_;
    QLabel* residual_;
    QLabel* output_;
    QSpinBox* count_;
    QTableWidget* table_;
    once::TokenInspection shown_;
    std::vector<std::int64_t> selected_;  ///< codeword ids of the result on screen, sorted
};

}  // namespace once::studio
