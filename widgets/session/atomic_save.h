#pragma once
// The studio's writes go through the engine's AtomicFile (util/atomic_file.h), as the CLI's do:
// the bytes are made in memory, written to a temporary file created exclusively beside the
// target and renamed over it. A symlink or special file at the chosen path is refused (the save
// dialog only confirms replacing a file), never written through.
#include <QByteArray>
#include <QString>

namespace once::studio {

/// Writes `bytes` to `path` atomically. Returns false and sets `error` (naming the file and the
/// reason) instead of throwing.
bool saveFileAtomically(const QString& path, const QByteArray& bytes, QString* error);

}  // namespace once::studio
