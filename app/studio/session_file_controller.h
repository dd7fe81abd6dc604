#pragma once
// The main window's session files: File ▸ Open Session… / Save Session…, a session given on the
// command line (--open-session) or picked from the recent files, the autosave that keeps what is
// open while the window lives, and the offer to restore a crashed run's autosave at the next
// start (issue 30). Reading, writing and restoring are session/session_document.h's; this class
// asks the user, reports, and adds what the session does not hold itself (the frame on screen,
// the last question and its answers). It also asks whether to re-encode the video after a model
// folder brought another encoder (issue 16), the other question the session puts to the user
// while a session is being restored.
//
// It owns no widget of the window: it reaches the session, the overlay and the question panel
// it is given, opens its dialogs over the window, and hands messages, errors and the files it
// used back through signals (the window logs them, shows them and adds them to the recent files).
#include <QMessageBox>
#include <QObject>
#include <QPointer>
#include <QStringList>

namespace once::studio {

class GroupOverlay;
class QuestionPanel;
class SessionAutosave;
class StudioSession;

class SessionFileController : public QObject {
    Q_OBJECT
  public:
    /// Autosaves into `autosaveFolder` from now on and, once the event loop runs, offers back
    /// the newest autosave a crashed run left there. Dialogs open over `window`, which owns this.
    SessionFileController(StudioSession* session, GroupOverlay* overlay, QuestionPanel* question,
                          const QString& autosaveFolder, QWidget* window);
    ~SessionFileController() override;

    /// The suffix of session files, with its dot.
    static QString sessionSuffix();
    /// Whether `path` names a session file (by its suffix, as the recent files and drops do).
    static bool isSessionFile(const QString& path);

    /// The offer to re-encode the video with an opened model folder's encoder (null when none
    /// is open).
    QMessageBox* reencodeOffer() const { return reencodeBox_; }
    /// The offer to restore the session of a run that crashed (null when none is open).
    QMessageBox* recoveryOffer() const { return recoveryBox_; }
    /// Keeps what is open in an autosave file while the window lives (null after endAutosave()).
    SessionAutosave* autosave() const { return autosave_; }
    /// Removes this run's autosave: the window closed cleanly, so there is nothing to offer back
    /// at the next start.
    void endAutosave();

  public slots:
    /// File ▸ Open Session… / Save Session…: ask for a file, then as below.
    void openSession();
    void saveSession();
    /// Reopens the session in `path`: what cannot be restored is listed in one dialog when the
    /// rest has loaded (sessionRestored tells when).
    void openSessionFile(const QString& path);
    /// Saves the current session to `path`; false (with an error) when it fails.
    bool saveSessionFile(const QString& path);
    /// Offers back the newest autosave in `folder` left by a run that did not close.
    void offerRecovery(const QString& folder);
    /// Asks whether to re-encode a video whose features come from another encoder than the
    /// opened model folder's (StudioSession::reencodeOffered).
    void offerReencode(const QString& featuresBackbone, const QString& modelBackbone);

  signals:
    /// A session file was restored (its loads ended); `problems` lists what was skipped.
    void sessionRestored(const QStringList& problems);
    /// A line for the window's messages.
    void logged(const QString& message);
    /// A line for the window's messages that the status bar shows too, for `timeoutMs`.
    void announced(const QString& message, int timeoutMs);
    /// Something failed; the window shows it in its error box.
    void errorOccurred(const QString& title, const QString& message);
    /// A session file was opened or saved at `path` (for the recent files).
    void fileUsed(const QString& path);

  private:
    /// The frame on screen as a session keeps it (-1: no video).
    int frameOnScreen() const;

    StudioSession* session_;
    GroupOverlay* overlay_;
    QuestionPanel* question_;
    QWidget* window_;
    SessionAutosave* autosave_ = nullptr;
    QPointer<QMessageBox> reencodeBox_;
    QPointer<QMessageBox> recoveryBox_;
};

}  // namespace once::studio
