#pragma once
// "Export Overlaid Clip…" (issue 30, item 13): one action — in the player, its picture's context
// menu and File ▸ Export Overlay — that asks for an .mp4 or .gif file and writes the playing
// video with the codeword groups on every frame (overlay/overlay_clip_export.h) on a worker, with
// progress and Cancel in the status bar like the other long jobs. The GUI thread only asks, hands
// the worker a snapshot of the overlay, and reports the outcome.
#include <QObject>
#include <QString>

class QAction;
class QWidget;

namespace once::studio {

class BackgroundTask;
class GroupOverlay;

class ClipExporter : public QObject {
    Q_OBJECT
  public:
    ClipExporter(GroupOverlay* overlay, QObject* parent = nullptr);

    /// The video file the player plays ("" when none can be played): the clip's frames.
    void setVideo(const QString& path);
    QString video() const { return video_; }
    /// Enabled while there is a playable video with sampled frames and no export runs.
    QAction* action() const { return action_; }
    BackgroundTask* task() const { return task_; }

    /// Asks for the file (opening where the last export went), then start().
    void exportInteractive(QWidget* dialogParent);
    /// Starts writing the clip to `path` (.mp4 or .gif); false when nothing started.
    bool start(const QString& path);

  signals:
    /// The clip was written: what to tell the user (file, frames, codec, size, rate).
    void exported(const QString& message);

  private:
    void updateEnabled();

    GroupOverlay* overlay_;
    BackgroundTask* task_;
    QAction* action_;
    QString video_;
};

}  // namespace once::studio
