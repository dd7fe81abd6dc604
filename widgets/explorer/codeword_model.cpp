#include "explorer/codeword_model.h"

#include <QRectF>
#include <QRegularExpression>
#include <numeric>

namespace once::studio {

CodewordModel::CodewordModel(QObject* parent) : QAbstractListModel(parent) {}

void CodewordModel::reset(std::int64_t codewords) {
    beginResetModel();
    corpusTokens_.assign(static_cast<std::size_t>(std::max<std::int64_t>(codewords, 0)), -1);
    corpusReps_.clear();
    corpusVideos_.clear();
    videoUsage_.clear();
    corpusTotal_ = 0;
    hasCorpus_ = false;
    images_.assign(corpusTokens_.size(), {});
    marks_.assign(corpusTokens_.size(), {});
    imageCount_ = 0;
    endResetModel();
}

void CodewordModel::setCorpusUsage(std::vector<std::int64_t> tokens, std::vector<std::int64_t> reps,
                                   std::vector<std::int64_t> videos) {
    const std::size_t k = corpusTokens_.size();
    hasCorpus_ = tokens.size() == k && reps.size() == k && videos.size() == k && k > 0;
    if (hasCorpus_) {
        corpusTokens_ = std::move(tokens);
        corpusReps_ = std::move(reps);
        corpusVideos_ = std::move(videos);
        corpusTotal_ = std::accumulate(corpusTokens_.begin(), corpusTokens_.end(), std::int64_t{0});
    } else {
        corpusTokens_.assign(k, -1);
        corpusReps_.clear();
        corpusVideos_.clear();
        corpusTotal_ = 0;
    }
    if (k > 0) {
        emit dataChanged(index(0), index(int(k) - 1));
    }
}

std::int64_t CodewordModel::corpusTokens(std::int64_t k) const {
    return hasCorpus_ && k >= 0 && k < codewords() ? corpusTokens_[std::size_t(k)] : -1;
}

std::int64_t CodewordModel::corpusReps(std::int64_t k) const {
    return hasCorpus_ && k >= 0 && k < codewords() ? corpusReps_[std::size_t(k)] : -1;
}

std::int64_t CodewordModel::corpusVideos(std::int64_t k) const {
    return hasCorpus_ && k >= 0 && k < codewords() ? corpusVideos_[std::size_t(k)] : -1;
}

void CodewordModel::setVideoUsage(std::vector<std::int64_t> counts) {
    videoUsage_ =
        counts.size() == corpusTokens_.size() ? std::move(counts) : std::vector<std::int64_t>{};
    if (!corpusTokens_.empty()) {
        emit dataChanged(index(0), index(rowCount() - 1));
    }
}

std::int64_t CodewordModel::videoUsage(std::int64_t k) const {
    return k >= 0 && k < static_cast<std::int64_t>(videoUsage_.size()) ? videoUsage_[std::size_t(k)]
                                                                       : -1;
}

void CodewordModel::setImage(std::int64_t k, int slot, const QImage& image, const QRectF& mark) {
    if (k < 0 || k >= codewords() || slot < 0 || slot > 255) {
        return;
    }
    QVector<QImage>& v = images_[std::size_t(k)];
    if (v.size() <= slot) {
        v.resize(slot + 1);
        marks_[std::size_t(k)].resize(slot + 1);
    }
    marks_[std::size_t(k)][slot] = mark;
    imageCount_ += v[slot].isNull() && !image.isNull() ? 1 : 0;
    v[slot] = image;
    const QModelIndex i = index(int(k));
    emit dataChanged(i, i, {Qt::DecorationRole});
}

void CodewordModel::clearImages() {
    images_.assign(corpusTokens_.size(), {});
    marks_.assign(corpusTokens_.size(), {});
    imageCount_ = 0;
    if (!corpusTokens_.empty()) {
        emit dataChanged(index(0), index(rowCount() - 1));
    }
}

QVector<QImage> CodewordModel::images(std::int64_t k) const {
    return k >= 0 && k < codewords() ? images_[std::size_t(k)] : QVector<QImage>{};
}

QVector<QRectF> CodewordModel::marks(std::int64_t k) const {
    return k >= 0 && k < codewords() ? marks_[std::size_t(k)] : QVector<QRectF>{};
}

int CodewordModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(corpusTokens_.size());
}

QVariant CodewordModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const std::int64_t k = index.row();
    switch (role) {
        case CodewordRole:
            return QVariant::fromValue<qint64>(k);
        case CorpusTokensRole:
            return QVariant::fromValue<qint64>(corpusTokens(k));
        case VideoUsageRole:
            return QVariant::fromValue<qint64>(videoUsage(k));
        case Qt::DisplayRole:
            return QString::number(k);
        default:
            return {};
    }
}

CodewordFilter::CodewordFilter(QObject* parent) : QSortFilterProxyModel(parent) {
    setDynamicSortFilter(true);
}

void CodewordFilter::setSortKey(SortKey key) {
    key_ = key;
    invalidate();
    sort(0, Qt::AscendingOrder);
}

bool CodewordFilter::setSearch(const QString& text) {
    ranges_.clear();
    valid_ = true;
    static const QRegularExpression item(QStringLiteral("^(\\d{1,12})(?:\\s*-\\s*(\\d{1,12}))?$"));
    const QString simplified = text.trimmed();
    if (!simplified.isEmpty()) {
        // "3, 10-20" or "3 10-20": split on commas and on spaces not next to a dash.
        QString normal = simplified;
        normal.replace(QRegularExpression(QStringLiteral("\\s*-\\s*")), QStringLiteral("-"));
        for (const QString& part :
             normal.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
            const auto m = item.match(part);
            if (!m.hasMatch()) {
                valid_ = false;
                break;
            }
            const std::int64_t a = m.captured(1).toLongLong();
            const std::int64_t b = m.captured(2).isEmpty() ? a : m.captured(2).toLongLong();
            ranges_.emplace_back(std::min(a, b), std::max(a, b));
        }
    }
    invalidateFilter();
    return valid_;
}

bool CodewordFilter::filterAcceptsRow(int sourceRow, const QModelIndex&) const {
    if (!valid_) {
        return false;
    }
    if (ranges_.empty()) {
        return true;
    }
    const std::int64_t k = sourceRow;
    return std::any_of(ranges_.begin(), ranges_.end(),
                       [k](const auto& r) { return k >= r.first && k <= r.second; });
}

bool CodewordFilter::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    const std::int64_t a = left.row(), b = right.row();
    if (key_ != SortKey::Id) {
        const int role = key_ == SortKey::CorpusUsage ? CodewordModel::CorpusTokensRole
                                                      : CodewordModel::VideoUsageRole;
        const qint64 ua = sourceModel()->data(left, role).toLongLong();
        const qint64 ub = sourceModel()->data(right, role).toLongLong();
        if (ua != ub) {
            return ua > ub;  // most used first
        }
    }
    return a < b;
}

}  // namespace once::studio
