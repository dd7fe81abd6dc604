#pragma once
// Saving and reopening a studio session (File ▸ Save Session… / Open Session…, `once-studio
// --session FILE`): the studio's side of core's session file (session/session_file.h). Saving
// takes what the document holds; reopening queues the same requests the user's actions make —
// the loads on the VideoLoader, then method, variant and budget on the CompressionController —
// so a restored session is built exactly as one opened by hand, with progress and Cancel.
#include <QString>
#include <QStringList>
#include <functional>

#include "session/session_file.h"

namespace once::studio {

class StudioSession;

/// The names a session file may use, from the registries: compression methods, ONCE's
/// variants, visual encoders, compute dtypes, and the sampling rule parser.
once::SessionVocabulary sessionVocabulary();

/// What `session` holds now, with `frame` the frame on screen (-1: none). An in-memory codebook
/// (the demo's stand-in) has no file and is left out.
once::SessionFile captureSession(const StudioSession& session, int frame);

/// Writes `file` at `path` through a temporary file renamed over it (util/atomic_file.h; a
/// symlink or special file at `path` is refused). Throws OnceError naming `path` when it cannot
/// be written.
void writeSessionFile(const QString& path, const once::SessionFile& file);

/// Reads and parses `path` (at most kMaxSessionFileBytes), then drops the inputs that are not
/// there. Throws OnceError when the file cannot be read or is no session file at all; every bad
/// field is a problem in the result.
once::ParsedSession readSessionFile(const QString& path);

/// Queues the restoration of `file` (read from `path`) on `session`: the model folder, then the
/// pipeline settings it names (backbone, sampling, dtype), the video, the codebook, and last the
/// method, variant and budget (a budget outside the method's range on the restored video is
/// clamped and reported). `done` runs on the GUI thread after that with one line per problem
/// met on the way (`problems` first, then the loads that failed); a cancel drops it.
void restoreSession(StudioSession& session, const once::SessionFile& file, const QString& path,
                    QStringList problems, std::function<void(const QStringList&)> done);

}  // namespace once::studio
