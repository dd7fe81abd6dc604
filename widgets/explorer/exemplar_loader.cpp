#include "explorer/exemplar_loader.h"

#include <QCoreApplication>
#include <QPointer>

#include "tasks/background_task.h"
#include "train/exemplar_pixels.h"

namespace once::studio {

ExemplarLoader::ExemplarLoader(QObject* parent) : QObject(parent), task_(new BackgroundTask(this)) {
    connect(task_, &BackgroundTask::finished, this, [this] {
        if (readPending_) {
            readPending_ = false;
            startRead();
        } else if (cutPending_) {
            cutPending_ = false;
            startCut();
        } else if (decoding_) {  // failed or cancelled
            decoding_ = false;
            emit stateChanged();
        }
    });
}

ExemplarLoader::~ExemplarLoader() {
    task_->cancelAndWait();
}

bool ExemplarLoader::isLoading() const {
    return task_->isRunning() || readPending_ || cutPending_;
}

void ExemplarLoader::setCodebook(const QString& file, std::int64_t codewords,
                                 const QString& userFolder) {
    ++generation_;
    file_ = file;
    codewords_ = codewords;
    userFolder_ = userFolder;
    section_.reset();
    corpusFolder_.clear();
    videosFound_ = videosFailed_ = 0;
    decoding_ = false;
    decodeDone_ = false;
    cutPending_ = false;
    if (!file_.isEmpty() && codewords_ > 0) {
        if (task_->isRunning()) {
            task_->cancel();
            readPending_ = true;
        } else {
            startRead();
        }
    }
}

void ExemplarLoader::setCorpusFolder(const QString& folder) {
    userFolder_ = folder;
    if (!section_ || !section_->exemplars || !section_->thumbnails.isEmpty()) {
        return;
    }
    decodeDone_ = false;
    if (task_->isRunning()) {
        task_->cancel();
        cutPending_ = true;
    } else {
        startCut();
    }
}

void ExemplarLoader::startRead() {
    if (file_.isEmpty()) {
        return;
    }
    const QString file = file_;
    const std::int64_t k = codewords_;
    const std::uint64_t generation = generation_;
    QPointer<ExemplarLoader> self(this);
    // The status bar shows the explorer's words for the work (their translation context).
    task_->start(QCoreApplication::translate("once::studio::CodebookExplorer",
                                             "Reading the codebook's exemplars"),
                 [self, file, k, generation](once::Progress&) -> BackgroundTask::Deliver {
                     auto section = std::make_shared<ExemplarSection>(readExemplarSection(file, k));
                     return [self, section, generation] {
                         if (!self || generation != self->generation_) {
                             return;  // another codebook came meanwhile
                         }
                         self->section_ = section;
                         emit self->sectionRead();
                         if (section->exemplars && section->thumbnails.isEmpty() &&
                             section->exemplars->perCodeword > 0) {
                             self->startCut();
                         }
                     };
                 });
}

void ExemplarLoader::startCut() {
    if (!section_ || !section_->exemplars || task_->isRunning()) {
        return;
    }
    const once::CodebookExemplars exemplars = *section_->exemplars;
    corpusFolder_ = resolveCorpusFolder(exemplars, file_, userFolder_, &videosFound_);
    if (corpusFolder_.isEmpty()) {
        decodeDone_ = true;
        emit stateChanged();
        return;
    }
    const QString folder = corpusFolder_;
    const std::uint64_t generation = generation_;
    QPointer<ExemplarLoader> self(this);
    decoding_ = true;
    emit stateChanged();
    task_->start(
        QCoreApplication::translate("once::studio::CodebookExplorer",
                                    "Cutting exemplar patches from the corpus videos"),
        [self, exemplars, folder, generation](once::Progress& progress) -> BackgroundTask::Deliver {
            // Each video's patches reach the tiles as soon as it is decoded.
            const int failed = decodeExemplarPatches(
                exemplars, folder, kDecodedPatchSide, once::kDefaultExemplarContext, progress,
                [&](DecodedPatches d) {
                    QMetaObject::invokeMethod(
                        self.data(),
                        [self, d = std::move(d), generation] {
                            if (self && generation == self->generation_) {
                                emit self->patchesCut(d);
                            }
                        },
                        Qt::QueuedConnection);
                });
            return [self, failed, generation] {
                if (self && generation == self->generation_) {
                    self->videosFailed_ = failed;
                    self->decoding_ = false;
                    self->decodeDone_ = true;
                    emit self->stateChanged();
                }
            };
        });
}

}  // namespace once::studio
