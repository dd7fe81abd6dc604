#pragma once
// How one codeword is drawn, in the explorer's grid and in its exported picture: its exemplar
// patches (one, or a 2 × 2 mosaic of the first four), or, without exemplars, a swatch of the
// colour the overlay gives the codeword with its id; under it the id and its usage in the
// corpus and in this video.
#include <QImage>
#include <QString>
#include <QStyledItemDelegate>
#include <QVector>
#include <cstdint>

class QPainter;

namespace once::studio {

class CodewordModel;

struct CodewordTileData {
    std::int64_t codeword = -1;
    QVector<QImage> images;        ///< exemplar patches (nulls skipped)
    QVector<QRectF> marks;         ///< the exemplar cell in each (fractions); empty rect: none
    double corpusShare = -1;       ///< of the corpus's tokens; < 0: not recorded
    std::int64_t videoUsage = -1;  ///< n_k in this video; < 0: no video
    bool selected = false;
};

/// Size of one tile (the grid cell, without spacing).
QSize codewordTileSize();
/// Draws `tile` into `rect` (of codewordTileSize()).
void paintCodewordTile(QPainter& painter, const QRect& rect, const CodewordTileData& tile,
                       const QPalette& palette);
/// The tile of row `index` of a CodewordModel (or a proxy over one).
CodewordTileData tileData(const CodewordModel& model, std::int64_t codeword);

class CodewordTileDelegate : public QStyledItemDelegate {
    Q_OBJECT
  public:
    CodewordTileDelegate(const CodewordModel* model, QObject* parent = nullptr);
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

  private:
    const CodewordModel* model_;
};

}  // namespace once::studio
