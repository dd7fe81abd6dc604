#pragma once
// The work behind the codebook explorer's pictures, on its own BackgroundTask: the exemplar
// section of the codebook file (corpus usage, stored thumbnails) read on a worker thread, then,
// when the file stores no thumbnails, exemplar patches cut from the corpus videos the codebook
// was trained on (explorer/exemplar_source.h), delivered video by video. A new codebook drops
// what was read for the previous one; the explorer only draws what this reports.
#include <QObject>
#include <QString>
#include <cstdint>
#include <memory>

#include "explorer/exemplar_source.h"

namespace once::studio {

class BackgroundTask;

class ExemplarLoader : public QObject {
    Q_OBJECT
  public:
    /// Side of the exemplar patches cut from corpus videos, pixels.
    static constexpr int kDecodedPatchSide = 48;

    explicit ExemplarLoader(QObject* parent = nullptr);
    ~ExemplarLoader() override;

    /// A codebook of `codewords` rows from `file` ("": none or in memory, nothing to read);
    /// `userFolder` is where the user located its corpus before ("": not located).
    void setCodebook(const QString& file, std::int64_t codewords, const QString& userFolder);
    /// Looks for the exemplar videos in `folder` from now on (Locate Corpus): cuts the patches
    /// again when the file stores none.
    void setCorpusFolder(const QString& folder);

    /// The section read (null: none yet, or none to read).
    const ExemplarSection* section() const { return section_.get(); }
    /// Where the corpus videos were found ("": none), how many of them exist there, and how
    /// many of those could not be read.
    QString corpusFolder() const { return corpusFolder_; }
    QString userFolder() const { return userFolder_; }
    int videosFound() const { return videosFound_; }
    int videosFailed() const { return videosFailed_; }
    bool isDecoding() const { return decoding_; }
    /// The corpus was looked for and, where found, cut.
    bool decodeDone() const { return decodeDone_; }
    /// A read or a cut is running or queued.
    bool isLoading() const;
    BackgroundTask* task() const { return task_; }

  signals:
    /// A section was read for the current codebook (thumbnails and corpus usage in it).
    void sectionRead();
    /// Patches of one corpus video (GUI thread).
    void patchesCut(const DecodedPatches& patches);
    /// Reading or cutting started or ended: the explorer's status line.
    void stateChanged();

  private:
    void startRead();
    void startCut();

    BackgroundTask* task_;
    QString file_;
    std::int64_t codewords_ = 0;
    std::shared_ptr<const ExemplarSection> section_;
    QString corpusFolder_;
    QString userFolder_;
    int videosFound_ = 0;
    int videosFailed_ = 0;
    bool decoding_ = false;
    bool decodeDone_ = false;
    bool readPending_ = false;
    bool cutPending_ = false;
    std::uint64_t generation_ = 0;  ///< bumped per codebook: stale deliveries are dropped
};

}  // namespace once::studio
