#pragma once
// The codebook explorer's list: one row per codeword with its corpus usage (from the codebook's
// exemplar section), its usage in the current video (n_k of the session's assignment) and its
// exemplar images; and the sorted, filtered view of it (by id, corpus usage, video usage;
// search by ids and ranges "3, 10-20").
#include <QAbstractListModel>
#include <QImage>
#include <QSortFilterProxyModel>
#include <QVector>
#include <cstdint>
#include <vector>

namespace once::studio {

class CodewordModel : public QAbstractListModel {
    Q_OBJECT
  public:
    enum Role {
        CodewordRole = Qt::UserRole + 1,  ///< qint64 id
        CorpusTokensRole,                 ///< qint64, −1 when not recorded
        VideoUsageRole,                   ///< qint64, −1 without a video
    };

    explicit CodewordModel(QObject* parent = nullptr);

    /// K codewords; clears usage and images.
    void reset(std::int64_t codewords);
    std::int64_t codewords() const { return static_cast<std::int64_t>(corpusTokens_.size()); }

    /// Per codeword [tokens, representatives, videos] of the corpus; empty: not recorded.
    void setCorpusUsage(std::vector<std::int64_t> tokens, std::vector<std::int64_t> reps,
                        std::vector<std::int64_t> videos);
    bool hasCorpusUsage() const { return hasCorpus_; }
    std::int64_t corpusTokens(std::int64_t k) const;
    std::int64_t corpusReps(std::int64_t k) const;
    std::int64_t corpusVideos(std::int64_t k) const;
    std::int64_t corpusTotalTokens() const { return corpusTotal_; }

    /// n_k of the video on screen (empty: no video/assignment).
    void setVideoUsage(std::vector<std::int64_t> counts);
    bool hasVideoUsage() const { return !videoUsage_.empty(); }
    std::int64_t videoUsage(std::int64_t k) const;

    /// Exemplar images of codeword k, by slot (null images: not decoded), with where the
    /// exemplar's own cell lies in each (fractions of the image; the rest is context).
    void setImage(std::int64_t k, int slot, const QImage& image, const QRectF& mark = {});
    void clearImages();
    QVector<QImage> images(std::int64_t k) const;
    QVector<QRectF> marks(std::int64_t k) const;
    int imageCount() const { return imageCount_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

  private:
    std::vector<std::int64_t> corpusTokens_, corpusReps_, corpusVideos_, videoUsage_;
    std::int64_t corpusTotal_ = 0;
    bool hasCorpus_ = false;
    std::vector<QVector<QImage>> images_;
    std::vector<QVector<QRectF>> marks_;
    int imageCount_ = 0;
};

class CodewordFilter : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    enum class SortKey { Id, CorpusUsage, VideoUsage };

    explicit CodewordFilter(QObject* parent = nullptr);

    void setSortKey(SortKey key);
    SortKey sortKey() const { return key_; }
    /// Ids and ranges separated by commas or spaces ("7", "3, 10-20"); empty: all. Returns
    /// false (and shows nothing) when the text is not such a list.
    bool setSearch(const QString& text);
    bool searchValid() const { return valid_; }

  protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

  private:
    SortKey key_ = SortKey::Id;
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges_;
    bool valid_ = true;
};

}  // namespace once::studio
