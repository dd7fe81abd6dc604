#include "explorer/codeword_tile.h"

#include <QPainter>

#include "explorer/codeword_model.h"
#include "overlay/group_overlay.h"

namespace once::studio {

namespace {
constexpr int kImageSide = 88;
constexpr int kMargin = 4;
constexpr int kTextLines = 2;
}  // namespace

QSize codewordTileSize() {
    const int line = QFontMetrics(QFont()).height();
    return {kImageSide + 2 * kMargin, kImageSide + 2 * kMargin + kTextLines * line + 2};
}

CodewordTileData tileData(const CodewordModel& model, std::int64_t k) {
    CodewordTileData t;
    t.codeword = k;
    const QVector<QImage> images = model.images(k);
    const QVector<QRectF> marks = model.marks(k);
    for (int i = 0; i < images.size(); ++i) {
        if (!images[i].isNull()) {
            t.images.append(images[i]);
            t.marks.append(i < marks.size() ? marks[i] : QRectF());
        }
    }
    const std::int64_t tokens = model.corpusTokens(k);
    if (tokens >= 0 && model.corpusTotalTokens() > 0) {
        t.corpusShare = double(tokens) / double(model.corpusTotalTokens());
    }
    t.videoUsage = model.videoUsage(k);
    return t;
}

void paintCodewordTile(QPainter& p, const QRect& rect, const CodewordTileData& t,
                       const QPalette& palette) {
    p.save();
    p.setRenderHint(QPainter::SmoothPixmapTransform, true);
    const QRect box = rect.adjusted(1, 1, -1, -1);
    p.fillRect(box, t.selected ? palette.color(QPalette::Highlight).lighter(160)
                               : palette.color(QPalette::Base));
    const QRect image(rect.left() + kMargin, rect.top() + kMargin, kImageSide, kImageSide);
    const QColor colour = GroupOverlay::codewordColour(t.codeword);
    if (t.images.isEmpty()) {
        // No exemplar: the overlay's colour of this codeword and its id.
        p.fillRect(image, colour);
        QFont big = p.font();
        big.setPointSizeF(big.pointSizeF() * 1.6);
        big.setBold(true);
        p.setFont(big);
        p.setPen(colour.lightnessF() > 0.6 ? Qt::black : Qt::white);
        p.drawText(image, Qt::AlignCenter, QString::number(t.codeword));
    } else {
        // One exemplar fills the box; more make a 2 × 2 mosaic of the first four. A lone
        // exemplar shown with context around it has its own cell outlined (in a mosaic the
        // outlines would crowd out the pictures).
        const int n = std::min<int>(4, int(t.images.size()));
        const int half = kImageSide / 2;
        for (int i = 0; i < n; ++i) {
            const QRect r = n == 1 ? image
                                   : QRect(image.left() + (i % 2) * half,
                                           image.top() + (i / 2) * half, half, half);
            p.drawImage(r, t.images[i]);
            const QRectF m = i < t.marks.size() ? t.marks[i] : QRectF();
            if (n == 1 && !m.isEmpty() && m != QRectF(0, 0, 1, 1)) {
                const QRectF cell(r.left() + m.left() * r.width(), r.top() + m.top() * r.height(),
                                  m.width() * r.width(), m.height() * r.height());
                p.setPen(QPen(QColor(255, 255, 255, 220), 1));
                p.setBrush(Qt::NoBrush);
                p.drawRect(cell.adjusted(0.5, 0.5, -0.5, -0.5));
            }
        }
    }
    // A strip of the codeword's overlay colour ties the tile to the frame view.
    p.fillRect(QRect(image.left(), image.bottom() - 3, image.width(), 4), colour);
    p.setPen(
        QPen(t.selected ? QColor(255, 200, 0) : palette.color(QPalette::Mid), t.selected ? 3 : 1));
    p.drawRect(box);

    QFont f = p.font();
    f.setBold(false);
    f.setPointSizeF(QFont().pointSizeF());
    p.setFont(f);
    p.setPen(palette.color(QPalette::Text));
    const int line = p.fontMetrics().height();
    const QRect text1(rect.left() + kMargin, image.bottom() + 2, kImageSide, line);
    const QRect text2 = text1.translated(0, line);
    QFont bold = f;
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(text1, Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("#%1").arg(t.codeword));
    p.setFont(f);
    // Corpus share on the right of the first line, this video's count on the second.
    if (t.corpusShare >= 0) {
        p.drawText(text1, Qt::AlignRight | Qt::AlignVCenter,
                   QStringLiteral("%1 %").arg(t.corpusShare * 100.0, 0, 'f',
                                              t.corpusShare < 0.001 ? 3 : 2));
    }
    if (t.videoUsage >= 0) {
        p.drawText(text2, Qt::AlignLeft | Qt::AlignVCenter,
                   p.fontMetrics().elidedText(
                       CodewordTileDelegate::tr("%n in video", "", int(t.videoUsage)),
                       Qt::ElideRight, text2.width()));
    }
    p.restore();
}

CodewordTileDelegate::CodewordTileDelegate(const CodewordModel* model, QObject* parent)
    : QStyledItemDelegate(parent), model_(model) {}

void CodewordTileDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                 const QModelIndex& index) const {
    CodewordTileData t = tileData(*model_, index.data(CodewordModel::CodewordRole).toLongLong());
    t.selected = option.state & QStyle::State_Selected;
    paintCodewordTile(*painter, option.rect, t, option.palette);
}

QSize CodewordTileDelegate::sizeHint(const QStyleOptionViewItem&, const QModelIndex&) const {
    return codewordTileSize();
}

}  // namespace once::studio
