#pragma once
// The codebook explorer (issue 16): every codeword of the session's codebook as a tile — its
// exemplar patches from the corpus the codebook was trained on (thumbnails stored in the file,
// or cut from the corpus videos on a worker thread when the file names where they lie), else
// the codeword's overlay colour — with its corpus usage and its usage in the current video;
// sortable by id, corpus usage or video usage and searchable by ids. Choosing a codeword
// highlights its assigned patches in every frame (GroupOverlay::highlightCodeword); selecting
// a group in the overlay shows its codeword here. The grid exports as a PNG. A codebook trained
// before provenance shows colour swatches and says what is missing. The pictures are read and
// cut by its ExemplarLoader (explorer/exemplar_loader.h); the explorer draws.
#include <QWidget>
#include <cstdint>
#include <memory>

#include "explorer/codeword_model.h"
#include "explorer/exemplar_loader.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QToolButton;

namespace once::studio {

class BackgroundTask;
class CodewordTileDelegate;
class GroupOverlay;
class StudioSession;

class CodebookExplorer : public QWidget {
    Q_OBJECT
  public:
    CodebookExplorer(StudioSession* session, GroupOverlay* overlay, QWidget* parent = nullptr);
    ~CodebookExplorer() override;

    /// Side of the exemplar patches cut from corpus videos, pixels.
    static constexpr int kDecodedPatchSide = ExemplarLoader::kDecodedPatchSide;

    // ---- state, for the window and the tests ----
    /// Tiles shown (after the search).
    int tileCount() const;
    /// Codeword of the tile at `position` in the shown order.
    std::int64_t codewordAt(int position) const;
    /// The chosen codeword (−1: none).
    std::int64_t currentCodeword() const;
    /// Rectangle of a codeword's tile in the list's viewport (empty when not shown).
    QRect tileRect(std::int64_t codeword) const;
    QListView* view() const { return view_; }
    QLineEdit* searchField() const { return search_; }
    QComboBox* sortBox() const { return sort_; }
    /// What the explorer says about the codebook's corpus side (exemplars, usage, what is
    /// missing).
    QString statusText() const;
    /// The line about the chosen codeword.
    QString detailText() const;
    /// Exemplar images on the tiles so far.
    int exemplarImageCount() const { return model_->imageCount(); }
    const CodewordModel& model() const { return *model_; }
    /// The worker that reads the exemplar section and decodes patches (status bar, tests).
    BackgroundTask* task() const { return loader_->task(); }
    /// Whether a load or decode is still running or queued.
    bool isLoading() const;

    void setSortKey(CodewordFilter::SortKey key);
    void setSearchText(const QString& text);
    /// Looks for the exemplar videos in `folder` from now on (Locate Corpus).
    void setCorpusFolder(const QString& folder);

    /// The shown tiles as one picture (with a caption), 12 to a row.
    QImage renderGrid() const;
    /// Writes renderGrid() as PNG through a temporary file; false with `error` set on failure.
    bool exportGrid(const QString& path, QString* error = nullptr) const;

  public slots:
    /// Selects and shows `codeword` without changing the overlay (the overlay chose it).
    void showCodeword(std::int64_t codeword);
    void exportGridInteractive();
    void locateCorpusInteractive();

  signals:
    /// The user chose a codeword (the window may bring the explorer forward).
    void codewordChosen(std::int64_t codeword);
    /// The loaded codebook or the exemplars changed (tests wait on it).
    void exemplarsChanged();

  private:
    void onCodebook();
    void onVideoUsage();
    void onOverlaySelection(std::int64_t key);
    void onUserChoice(const QModelIndex& index);
    void onSectionRead();
    void onPatchesCut(const DecodedPatches& patches);
    void updateStatus();
    void updateDetail();

    StudioSession* session_;
    GroupOverlay* overlay_;
    CodewordModel* model_;
    CodewordFilter* filter_;
    CodewordTileDelegate* delegate_;
    QListView* view_;
    QLineEdit* search_;
    QComboBox* sort_;
    QToolButton* export_;
    QToolButton* locate_;
    QLabel* status_;
    QLabel* detail_;
    ExemplarLoader* loader_;

    QString codebookFile_;
    bool syncing_ = false;  ///< selecting a tile for the overlay, not for the user
};

}  // namespace once::studio
