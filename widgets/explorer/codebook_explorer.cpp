#include "explorer/codebook_explorer.h"

#include <ATen/ATen.h>

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPainter>
#include <QSettings>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

#include "codebook/codebook.h"
#include "compress/assignment.h"
#include "explorer/codeword_tile.h"
#include "explorer/exemplar_source.h"
#include "overlay/group_overlay.h"
#include "overlay/overlay_export.h"
#include "session/methods.h"
#include "session/studio_session.h"

namespace once::studio {

namespace {

// QSettings key of the corpus folder the user located for a codebook (by its tensor's hash, so
// a moved or renamed file keeps it).
QString corpusFolderKey(const std::shared_ptr<const once::Codebook>& codebook) {
    return QStringLiteral("explorer/corpusFolder/") +
           QString::fromStdString(codebook ? codebook->sha256() : std::string()).left(32);
}

std::vector<std::int64_t> column(const std::vector<once::CodewordUsage>& usage, int which) {
    std::vector<std::int64_t> out;
    out.reserve(usage.size());
    for (const auto& u : usage) {
        out.push_back(which == 0 ? u.tokens : which == 1 ? u.reps : u.videos);
    }
    return out;
}

}  // namespace

CodebookExplorer::CodebookExplorer(StudioSession* session, GroupOverlay* overlay, QWidget* parent)
    : QWidget(parent),
      session_(session),
      overlay_(overlay),
      model_(new CodewordModel(this)),
      filter_(new CodewordFilter(this)),
      loader_(new ExemplarLoader(this)) {
    setObjectName(QStringLiteral("codebookExplorer"));
    filter_->setSourceModel(model_);
    filter_->sort(0, Qt::AscendingOrder);

    search_ = new QLineEdit(this);
    search_->setObjectName(QStringLiteral("explorerSearch"));
    search_->setPlaceholderText(tr("Codeword ids, e.g. 7 or 3, 10-20"));
    search_->setClearButtonEnabled(true);
    search_->setToolTip(tr("Show only these codewords: ids and ranges separated by commas"));
    sort_ = new QComboBox(this);
    sort_->setObjectName(QStringLiteral("explorerSort"));
    sort_->addItem(tr("Sort by id"));
    sort_->addItem(tr("Sort by corpus usage"));
    sort_->addItem(tr("Sort by usage in this video"));
    sort_->setToolTip(
        tr("Corpus usage: the share of the training corpus's tokens nearest to the "
           "codeword. Usage in this video: its patches assigned to the codeword."));
    export_ = new QToolButton(this);
    export_->setText(tr("Export Grid…"));
    export_->setToolTip(tr("Save the tiles shown as a PNG picture"));
    locate_ = new QToolButton(this);
    locate_->setText(tr("Locate Corpus…"));
    locate_->setToolTip(
        tr("Choose the folder that holds the corpus videos the codebook was "
           "trained on, to show their patches"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(search_, 1);
    bar->addWidget(sort_);
    bar->addWidget(locate_);
    bar->addWidget(export_);

    view_ = new QListView(this);
    view_->setObjectName(QStringLiteral("explorerTiles"));
    view_->setViewMode(QListView::IconMode);
    view_->setResizeMode(QListView::Adjust);
    view_->setMovement(QListView::Static);
    view_->setUniformItemSizes(true);
    view_->setSpacing(3);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setModel(filter_);
    delegate_ = new CodewordTileDelegate(model_, this);
    view_->setItemDelegate(delegate_);
    view_->setMinimumHeight(codewordTileSize().height() + 12);

    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("explorerStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    detail_ = new QLabel(this);
    detail_->setObjectName(QStringLiteral("explorerDetail"));
    detail_->setWordWrap(true);
    detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(status_);
    layout->addWidget(view_, 1);
    layout->addWidget(detail_);

    connect(search_, &QLineEdit::textChanged, this, &CodebookExplorer::setSearchText);
    connect(sort_, &QComboBox::currentIndexChanged, this,
            [this](int i) { setSortKey(static_cast<CodewordFilter::SortKey>(i)); });
    connect(export_, &QToolButton::clicked, this, &CodebookExplorer::exportGridInteractive);
    connect(locate_, &QToolButton::clicked, this, &CodebookExplorer::locateCorpusInteractive);
    connect(view_, &QListView::clicked, this, &CodebookExplorer::onUserChoice);
    connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (!syncing_ && current.isValid()) {
                    onUserChoice(current);
                }
                updateDetail();
            });
    connect(session_, &StudioSession::codebookChanged, this, &CodebookExplorer::onCodebook);
    connect(session_, &StudioSession::assignmentChanged, this, &CodebookExplorer::onVideoUsage);
    connect(session_, &StudioSession::videoChanged, this, &CodebookExplorer::onVideoUsage);
    connect(session_, &StudioSession::methodChanged, this, &CodebookExplorer::updateStatus);
    connect(overlay_, &GroupOverlay::selectionChanged, this, &CodebookExplorer::onOverlaySelection);
    connect(loader_, &ExemplarLoader::sectionRead, this, &CodebookExplorer::onSectionRead);
    connect(loader_, &ExemplarLoader::patchesCut, this, &CodebookExplorer::onPatchesCut);
    connect(loader_, &ExemplarLoader::stateChanged, this, [this] {
        updateStatus();
        emit exemplarsChanged();
    });
    onCodebook();
}

CodebookExplorer::~CodebookExplorer() = default;

int CodebookExplorer::tileCount() const {
    return filter_->rowCount();
}

std::int64_t CodebookExplorer::codewordAt(int position) const {
    return filter_->index(position, 0).data(CodewordModel::CodewordRole).toLongLong();
}

std::int64_t CodebookExplorer::currentCodeword() const {
    const QModelIndex i = view_->currentIndex();
    return i.isValid() && view_->selectionModel()->isSelected(i)
               ? i.data(CodewordModel::CodewordRole).toLongLong()
               : -1;
}

QRect CodebookExplorer::tileRect(std::int64_t codeword) const {
    if (codeword < 0 || codeword >= model_->codewords()) {
        return {};
    }
    const QModelIndex i = filter_->mapFromSource(model_->index(int(codeword)));
    return i.isValid() ? view_->visualRect(i) : QRect();
}

QString CodebookExplorer::statusText() const {
    return status_->text();
}

QString CodebookExplorer::detailText() const {
    return detail_->text();
}

bool CodebookExplorer::isLoading() const {
    return loader_->isLoading();
}

void CodebookExplorer::setSortKey(CodewordFilter::SortKey key) {
    if (sort_->currentIndex() != int(key)) {
        sort_->setCurrentIndex(int(key));  // comes back here through the signal
        return;
    }
    filter_->setSortKey(key);
    if (view_->currentIndex().isValid()) {
        view_->scrollTo(view_->currentIndex());
    }
}

void CodebookExplorer::setSearchText(const QString& text) {
    if (search_->text() != text) {
        search_->setText(text);  // comes back here through the signal
        return;
    }
    filter_->setSearch(text);
    updateStatus();
}

void CodebookExplorer::setCorpusFolder(const QString& folder) {
    if (session_->codebook()) {
        QSettings().setValue(corpusFolderKey(session_->codebook()), folder);
    }
    const ExemplarSection* section = loader_->section();
    if (section && section->exemplars && section->thumbnails.isEmpty()) {
        model_->clearImages();
    }
    loader_->setCorpusFolder(folder);
    updateStatus();
}

// ---- the codebook and its exemplars ----

void CodebookExplorer::onCodebook() {
    const auto codebook = session_->codebook();
    codebookFile_ = session_->codebookFile();
    model_->reset(codebook ? codebook->size() : 0);
    loader_->setCodebook(codebook ? codebookFile_ : QString(), codebook ? codebook->size() : 0,
                         codebook ? QSettings().value(corpusFolderKey(codebook)).toString()
                                  : QString());
    onVideoUsage();
    updateStatus();
    updateDetail();
    onOverlaySelection(overlay_->selectedCodeword());  // a codeword chosen before this codebook
    emit exemplarsChanged();
}

void CodebookExplorer::onSectionRead() {
    const ExemplarSection& section = *loader_->section();
    if (section.exemplars) {
        const auto& usage = section.exemplars->usage;
        model_->setCorpusUsage(column(usage, 0), column(usage, 1), column(usage, 2));
        for (int k = 0; k < section.thumbnails.size(); ++k) {
            for (int j = 0; j < section.thumbnails[k].size(); ++j) {
                if (!section.thumbnails[k][j].isNull()) {
                    model_->setImage(k, j, section.thumbnails[k][j], section.marks[k][j]);
                }
            }
        }
    }
    if (filter_->sortKey() != CodewordFilter::SortKey::Id) {
        filter_->setSortKey(filter_->sortKey());
    }
    updateStatus();
    updateDetail();
    emit exemplarsChanged();
}

void CodebookExplorer::onPatchesCut(const DecodedPatches& d) {
    for (int i = 0; i < d.images.size(); ++i) {
        model_->setImage(d.codewords[i], d.slotIndex[i], d.images[i], d.marks[i]);
    }
}

// ---- the video ----

void CodebookExplorer::onVideoUsage() {
    const auto a = session_->assignment();
    if (a && a->counts.defined() && a->counts.numel() == model_->codewords()) {
        const at::Tensor c = a->counts.to(at::kLong).contiguous();
        model_->setVideoUsage(std::vector<std::int64_t>(c.data_ptr<std::int64_t>(),
                                                        c.data_ptr<std::int64_t>() + c.numel()));
    } else {
        model_->setVideoUsage({});
    }
    if (filter_->sortKey() == CodewordFilter::SortKey::VideoUsage) {
        filter_->setSortKey(filter_->sortKey());
    }
    updateStatus();
    updateDetail();
}

// ---- selection, both ways ----

void CodebookExplorer::onUserChoice(const QModelIndex& index) {
    if (syncing_ || !index.isValid()) {
        return;
    }
    const std::int64_t k = index.data(CodewordModel::CodewordRole).toLongLong();
    if (overlay_->highlightsCodeword() && overlay_->selectedCodeword() == k) {
        return;  // a click after the current-index change of the same press
    }
    overlay_->highlightCodeword(k);
    emit codewordChosen(k);
}

void CodebookExplorer::onOverlaySelection(std::int64_t key) {
    // A group picked in the frame view: its codeword (peers' groups have none).
    if (key >= 0 && key < model_->codewords() && key < GroupOverlay::kFirstTokenKey) {
        showCodeword(key);
    } else if (key < 0) {
        syncing_ = true;
        view_->clearSelection();
        syncing_ = false;
        updateDetail();
    }
}

void CodebookExplorer::showCodeword(std::int64_t codeword) {
    if (codeword < 0 || codeword >= model_->codewords()) {
        return;
    }
    QModelIndex i = filter_->mapFromSource(model_->index(int(codeword)));
    if (!i.isValid()) {
        // Hidden by the search: show it rather than pretend it is not there.
        search_->blockSignals(true);
        search_->clear();
        search_->blockSignals(false);
        filter_->setSearch({});
        i = filter_->mapFromSource(model_->index(int(codeword)));
    }
    syncing_ = true;
    view_->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect);
    syncing_ = false;
    view_->scrollTo(i);
    updateDetail();
    updateStatus();
}

// ---- text ----

void CodebookExplorer::updateStatus() {
    QStringList lines;
    const ExemplarSection* section = loader_->section();
    const QString corpusFolder = loader_->corpusFolder();
    const auto codebook = session_->codebook();
    export_->setEnabled(codebook != nullptr && tileCount() > 0);
    locate_->setEnabled(section && section->exemplars && section->exemplars->perCodeword > 0 &&
                        section->thumbnails.isEmpty());
    if (!codebook) {
        status_->setText(tr("Open a codebook (or load the demo) to see its codewords."));
        return;
    }
    const QString k = tr("%n codeword(s)", "", int(codebook->size()));
    if (codebookFile_.isEmpty()) {
        lines << tr("%1 held in memory (not from a file). No exemplars: tiles show each "
                    "codeword's colour.")
                     .arg(k);
    } else if (!section) {
        lines << tr("%1. Reading the codebook's exemplars…").arg(k);
    } else if (!section->error.isEmpty()) {
        lines << tr("%1. The codebook's exemplar section is damaged and was ignored: %2")
                     .arg(k, section->error);
    } else if (!section->exemplars) {
        lines << tr("%1. No exemplars: codebook trained before provenance — it records neither "
                    "corpus usage nor exemplar patches, so the tiles show each codeword's colour. "
                    "Train it again (once train fit) to see them.")
                     .arg(k);
    } else if (section->exemplars->perCodeword == 0) {
        lines << tr("%1 with their corpus usage. No exemplars: the Stage-A cache this codebook "
                    "was fitted on was sketched before provenance.")
                     .arg(k);
    } else if (!section->thumbnails.isEmpty()) {
        lines << tr("%1 with their corpus usage and up to %2 exemplar patches each, from the "
                    "thumbnails stored in the codebook.")
                     .arg(k)
                     .arg(section->exemplars->perCodeword);
    } else if (loader_->isDecoding()) {
        lines << tr("%1 with their corpus usage. Cutting up to %2 exemplar patches each from the "
                    "corpus videos in %3…")
                     .arg(k)
                     .arg(section->exemplars->perCodeword)
                     .arg(QDir::toNativeSeparators(corpusFolder));
    } else if (corpusFolder.isEmpty() && loader_->decodeDone()) {
        lines << tr("%1 with their corpus usage. The exemplar patches are not stored in this "
                    "codebook and its corpus videos were not found (recorded folder: %2); "
                    "Locate Corpus… points to the folder that holds them.")
                     .arg(k, QDir::toNativeSeparators(
                                 QString::fromStdString(section->exemplars->root)));
    } else if (loader_->decodeDone()) {
        const int listed = int(section->exemplars->videos.size());
        lines << tr("%1 with their corpus usage and exemplar patches cut from the corpus videos "
                    "in %2 (%3 of %4 videos read).")
                     .arg(k, QDir::toNativeSeparators(corpusFolder))
                     .arg(std::max(0, loader_->videosFound() - loader_->videosFailed()))
                     .arg(listed);
    } else {
        lines << tr("%1 with their corpus usage.").arg(k);
    }
    if (!model_->hasVideoUsage()) {
        lines << tr("Open a video to see each codeword's usage in it.");
    } else if (!methods::hasAssignment(session_->method())) {
        lines << tr("Choosing a codeword highlights its patches with the ONCE method only.");
    }
    if (!filter_->searchValid()) {
        lines << tr("The search is not a list of codeword ids (e.g. 7 or 3, 10-20).");
    }
    status_->setText(lines.join(QLatin1Char(' ')));
}

void CodebookExplorer::updateDetail() {
    const std::int64_t k = currentCodeword();
    if (k < 0) {
        detail_->setText(model_->codewords() > 0
                             ? tr("Choose a codeword to highlight its patches in every frame.")
                             : QString());
        return;
    }
    QStringList parts;
    parts << tr("Codeword %1").arg(k);
    if (model_->hasCorpusUsage()) {
        const double share =
            model_->corpusTotalTokens() > 0
                ? 100.0 * double(model_->corpusTokens(k)) / double(model_->corpusTotalTokens())
                : 0.0;
        parts << tr("corpus: %1 tokens (%2 %) from %3 representatives in %n video(s)", "",
                    int(model_->corpusVideos(k)))
                     .arg(model_->corpusTokens(k))
                     .arg(share, 0, 'f', 2)
                     .arg(model_->corpusReps(k));
    }
    if (model_->hasVideoUsage()) {
        parts << tr("this video: %n patch(es)", "", int(model_->videoUsage(k)));
    }
    if (const ExemplarSection* section = loader_->section();
        section && section->exemplars && section->exemplars->perCodeword > 0) {
        const auto& e = *section->exemplars;
        QStringList where;
        for (int j = 0; j < e.exemplarCount(k); ++j) {
            const auto& x = e.exemplar(k, j);
            const QString name =
                QFileInfo(QString::fromStdString(e.videos[std::size_t(x.video)])).fileName();
            where << (x.timeMs >= 0 ? tr("%1 at %2 s (row %3, column %4)")
                                          .arg(name)
                                          .arg(x.timeMs / 1000.0, 0, 'f', 1)
                                          .arg(x.row + 1)
                                          .arg(x.col + 1)
                                    : tr("%1 frame %2 (row %3, column %4)")
                                          .arg(name)
                                          .arg(x.frame + 1)
                                          .arg(x.row + 1)
                                          .arg(x.col + 1));
        }
        if (!where.isEmpty()) {
            parts << tr("exemplars: %1").arg(where.join(QStringLiteral("; ")));
        }
    }
    detail_->setText(parts.join(QStringLiteral(" · ")));
}

// ---- export ----

QImage CodebookExplorer::renderGrid() const {
    const int n = tileCount();
    if (n == 0) {
        return {};
    }
    constexpr int kColumns = 12, kSpacing = 4;
    const QSize tile = codewordTileSize();
    const int columns = std::min(kColumns, n);
    const int rows = (n + columns - 1) / columns;
    const QFont font;
    const int caption = QFontMetrics(font).height() + 8;
    QImage image(columns * (tile.width() + kSpacing) + kSpacing,
                 caption + rows * (tile.height() + kSpacing) + kSpacing, QImage::Format_RGB32);
    image.fill(palette().color(QPalette::Window));
    QPainter p(&image);
    p.setFont(font);
    p.setPen(palette().color(QPalette::WindowText));
    const auto codebook = session_->codebook();
    const QString name =
        codebookFile_.isEmpty() ? tr("codebook in memory") : QFileInfo(codebookFile_).fileName();
    p.drawText(QRect(kSpacing, 4, image.width() - 2 * kSpacing, caption - 4),
               Qt::AlignLeft | Qt::AlignVCenter,
               tr("%1 · %2 of %n codeword(s) · %3", "", int(codebook ? codebook->size() : 0))
                   .arg(name)
                   .arg(n)
                   .arg(sort_->currentText()));
    for (int i = 0; i < n; ++i) {
        const QRect r(kSpacing + (i % columns) * (tile.width() + kSpacing),
                      caption + kSpacing + (i / columns) * (tile.height() + kSpacing), tile.width(),
                      tile.height());
        CodewordTileData t = tileData(*model_, codewordAt(i));
        t.selected = t.codeword == currentCodeword();
        paintCodewordTile(p, r, t, palette());
    }
    return image;
}

bool CodebookExplorer::exportGrid(const QString& path, QString* error) const {
    return saveOverlayImage(renderGrid(), path, error);
}

void CodebookExplorer::exportGridInteractive() {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Codebook Grid"),
                                                      dir + QStringLiteral("/codebook_grid.png"),
                                                      tr("PNG image (*.png)"));
    if (path.isEmpty()) {
        return;
    }
    QString error;
    if (!exportGrid(path, &error)) {
        QMessageBox::warning(this, tr("Export Codebook Grid"), error);
    }
}

void CodebookExplorer::locateCorpusInteractive() {
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Locate the Corpus Folder"),
        loader_->userFolder().isEmpty() ? QFileInfo(codebookFile_).absolutePath()
                                        : loader_->userFolder());
    if (!folder.isEmpty()) {
        setCorpusFolder(folder);
    }
}

}  // namespace once::studio
