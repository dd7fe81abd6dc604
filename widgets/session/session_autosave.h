#pragma once
// Work survives a crash (issue 30): while the studio runs, what is open — video, codebook, model
// folder, method, budget, variant, frame, and the last question with its two answers — is kept
// in an autosave file (the session format of core/session/session_file.h), rewritten a moment
// after each change through a temporary file. A clean exit removes it; a run that ended any other
// way leaves it behind, and the next start offers it back.
//
// Several studios may run at once: each window writes its own file (autosave-<pid>-<n>) and
// holds a lock file beside it for as long as it runs. An autosave whose lock is stale — its
// process is gone — is a crashed run's; one whose process still runs belongs to another window.
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <functional>
#include <memory>

#include "session/session_file.h"

class QLockFile;

namespace once::studio {

class StudioSession;

class SessionAutosave : public QObject {
    Q_OBJECT
  public:
    /// What the session does not hold itself: the frame on screen and the last question and
    /// answers (empty strings: none), asked for at each save.
    struct Extras {
        int frame = -1;
        QString question, denseAnswer, compressedAnswer;
    };

    /// Saves `session` into `folder` (created when missing) a short delay after each change of
    /// its inputs, method, budget or result, and when scheduleSave() is called.
    SessionAutosave(StudioSession* session, std::function<Extras()> extras, const QString& folder,
                    QObject* parent = nullptr);
    /// Removes this run's file (a clean end).
    ~SessionAutosave() override;

    /// The folder the studio keeps autosaves in (the application's data folder).
    static QString defaultFolder();
    /// The autosaves in `folder` left by runs that ended without closing, newest first.
    static QStringList orphans(const QString& folder);
    /// Removes an orphan and its lock file (after it was restored or declined).
    static void discard(const QString& file);

    /// This run's autosave file (present once something was saved).
    QString filePath() const { return file_; }
    void scheduleSave();
    /// Writes now; false (with the reason in lastError()) when it could not.
    bool saveNow();
    QString lastError() const { return error_; }
    /// How often the file was written (the tests wait for it).
    int saves() const { return saves_; }

  signals:
    void saved();

  private:
    StudioSession* session_;
    std::function<Extras()> extras_;
    QString file_;
    std::unique_ptr<QLockFile> lock_;
    QTimer timer_;
    QString error_;
    int saves_ = 0;
};

}  // namespace once::studio
