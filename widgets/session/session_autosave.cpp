#include "session/session_autosave.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>
#include <algorithm>
#include <optional>
#include <string>

#include "session/session_document.h"
#include "session/studio_session.h"
#include "util/error.h"

namespace once::studio {
namespace {
// Long enough to gather a burst of changes (a session restore, a dragged slider) into one write.
constexpr int kSaveDelayMs = 800;
const QString kPrefix = QStringLiteral("autosave-");

QString lockPathFor(const QString& file) {
    return file.left(file.size() - QFileInfo(file).suffix().size() - 1) + QStringLiteral(".lock");
}

/// `s` as a session text: none when empty, cut at a character boundary to the format's limit
/// (a runaway answer must not make the whole autosave fail).
std::optional<std::string> text(const QString& s) {
    if (s.isEmpty()) {
        return std::nullopt;
    }
    std::string bytes = s.toStdString();
    bytes.erase(std::remove(bytes.begin(), bytes.end(), '\0'), bytes.end());
    if (bytes.size() > once::kMaxSessionTextBytes) {
        std::size_t n = once::kMaxSessionTextBytes;
        while (n > 0 && (static_cast<unsigned char>(bytes[n]) & 0xC0) == 0x80) {
            --n;  // not inside a UTF-8 sequence
        }
        bytes.resize(n);
    }
    return bytes;
}
}  // namespace

SessionAutosave::SessionAutosave(StudioSession* session, std::function<Extras()> extras,
                                 const QString& folder, QObject* parent)
    : QObject(parent), session_(session), extras_(std::move(extras)) {
    QDir().mkpath(folder);
    // One file per window: the process id, and a count for a process with several windows.
    static int windows = 0;
    const QString base =
        QDir(folder).filePath(kPrefix + QString::number(QCoreApplication::applicationPid()) +
                              QLatin1Char('-') + QString::number(++windows));
    file_ = base + QString::fromLatin1(once::kSessionFileExtension.data(),
                                       qsizetype(once::kSessionFileExtension.size()));
    lock_ = std::make_unique<QLockFile>(lockPathFor(file_));
    lock_->setStaleLockTime(0);  // stale only when its process is gone
    if (!lock_->tryLock(0)) {
        error_ = tr("The autosave lock %1 could not be taken.").arg(lockPathFor(file_));
    }
    timer_.setSingleShot(true);
    timer_.setInterval(kSaveDelayMs);
    connect(&timer_, &QTimer::timeout, this, &SessionAutosave::saveNow);
    for (auto signal : {&StudioSession::videoChanged, &StudioSession::codebookChanged,
                        &StudioSession::modelChanged, &StudioSession::methodChanged,
                        &StudioSession::optionsChanged, &StudioSession::resultChanged}) {
        connect(session_, signal, this, &SessionAutosave::scheduleSave);
    }
}

SessionAutosave::~SessionAutosave() {
    timer_.stop();
    QFile::remove(file_);
    lock_->unlock();
}

QString SessionAutosave::defaultFolder() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("autosave"));
}

QStringList SessionAutosave::orphans(const QString& folder) {
    const QString suffix = QString::fromLatin1(once::kSessionFileExtension.data(),
                                               qsizetype(once::kSessionFileExtension.size()));
    QFileInfoList files =
        QDir(folder).entryInfoList({kPrefix + QLatin1Char('*') + suffix}, QDir::Files, QDir::Time);
    QStringList out;
    for (const QFileInfo& f : files) {
        QLockFile lock(lockPathFor(f.absoluteFilePath()));
        lock.setStaleLockTime(0);
        // Taken when nobody holds it or its holder is gone; refused while that studio runs.
        if (lock.tryLock(0)) {
            lock.unlock();
            out << f.absoluteFilePath();
        }
    }
    return out;
}

void SessionAutosave::discard(const QString& file) {
    QFile::remove(file);
    QFile::remove(lockPathFor(file));
}

void SessionAutosave::scheduleSave() {
    timer_.start();
}

bool SessionAutosave::saveNow() {
    timer_.stop();
    const Extras extras = extras_ ? extras_() : Extras{};
    once::SessionFile f = captureSession(*session_, extras.frame);
    f.question = text(extras.question);
    f.denseAnswer = text(extras.denseAnswer);
    f.compressedAnswer = text(extras.compressedAnswer);
    const bool empty = f.video.empty() && f.codebook.empty() && f.modelFolder.empty();
    try {
        if (empty) {
            QFile::remove(file_);  // nothing to lose
        } else {
            writeSessionFile(file_, f);
        }
    } catch (const once::OnceError& e) {
        error_ = QString::fromUtf8(e.what());
        return false;
    }
    error_.clear();
    ++saves_;
    emit saved();
    return true;
}

}  // namespace once::studio
