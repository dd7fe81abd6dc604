#pragma once
// Playback of the opened video, tied to the overlay (issue 30): the frames come from the core's
// own decoder on a worker (player/playback_buffer.h), so no third-party playback engine can take
// the studio down on a file the core reads. The picture shows the codeword groups of the sampled
// frame at or before the playhead (player/playback_view.h), and while playing that sampled frame
// becomes the overlay's current frame; choosing a frame in the strip moves the playhead there.
// Play/pause, frame steps, speed and loop; the sound follows the playhead at 1× through the core's
// audio decoder and Qt's audio output only, silent with a note when it cannot play
// (player/sound_controls.h). The clip with the groups on every frame is exported from here
// (player/clip_exporter.h).
#include <QElapsedTimer>
#include <QWidget>

#include "player/playback_view.h"  // view() is part of the panel's interface

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace once::studio {

class ClipExporter;
class GroupOverlay;
class PlaybackBuffer;
class SoundControls;

class VideoPlayerPanel : public QWidget {
    Q_OBJECT
  public:
    explicit VideoPlayerPanel(GroupOverlay* overlay, QWidget* parent = nullptr);
    ~VideoPlayerPanel() override;

    /// Plays `path` (a file; a frame folder or an empty path shows a note instead). The
    /// playhead goes to the start, paused, showing the first frame.
    void setSource(const QString& path);
    QString source() const { return source_; }
    QToolButton* playButton() const { return play_; }
    QToolButton* stepBackButton() const { return stepBack_; }
    QToolButton* stepForwardButton() const { return stepForward_; }
    QComboBox* speedBox() const { return speed_; }
    QCheckBox* loopBox() const { return loop_; }
    /// "Groups": the codeword groups drawn over the playing picture (on by default).
    QCheckBox* groupsBox() const { return groups_; }
    QSlider* positionSlider() const { return position_; }
    PlaybackView* view() const { return view_; }
    PlaybackBuffer* buffer() const { return buffer_; }
    /// Mute, volume and why there is no sound; its playback() takes a test sink.
    SoundControls* sound() const { return sound_; }
    /// "Export Overlaid Clip…" of this video (a button here and the picture's context menu).
    ClipExporter* clipExporter() const { return clipExporter_; }
    QToolButton* exportClipButton() const { return exportClip_; }
    /// The note under the controls ("" when the video can be played).
    QString note() const;
    /// "position / duration" beside the slider ("0:03 / 0:16").
    QString timeText() const;
    bool isPlaying() const { return playing_; }
    /// The playhead in seconds.
    double position() const;
    /// The clip's duration in seconds (the container's until the end was decoded; 0 unknown).
    double duration() const;
    /// Time of the frame on screen (-1: none yet).
    double shownFrameTime() const { return shownTime_; }
    /// Playback speed factor (1 = real time).
    double speed() const;

  public slots:
    void togglePlayback();
    void play();
    void pause();
    /// Moves the playhead to `seconds` (clamped to the clip), keeping play or pause.
    void seek(double seconds);
    /// One frame of the video forward or back (pauses).
    void stepFrames(int frames);

  signals:
    /// Playback reached the end of the clip (not looping) and stopped there.
    void finished();

  private:
    void tick();
    void showFrameAt(double seconds);
    void onFrameChosen(int frame);
    void updateDuration();
    void updateTime();
    void updatePlayIcon();
    double frameStep() const;

    GroupOverlay* overlay_;
    PlaybackBuffer* buffer_;
    ClipExporter* clipExporter_;
    QToolButton* exportClip_;
    PlaybackView* view_;
    QToolButton* play_;
    QToolButton* stepBack_;
    QToolButton* stepForward_;
    QComboBox* speed_;
    QCheckBox* loop_;
    QCheckBox* groups_;
    QSlider* position_;
    QLabel* time_;
    QLabel* note_;
    SoundControls* sound_;
    QTimer* clock_;
    QElapsedTimer elapsed_;
    QString source_;
    bool playable_ = false;
    bool playing_ = false;
    double base_ = 0;      ///< playhead when the clock was last (re)started
    double playhead_ = 0;  ///< seconds
    double duration_ = 0;
    double shownTime_ = -1;
    bool followingPlayer_ = false;
    bool stalled_ = false;  ///< the clock waits for decoding (the sound waits with it)
};

}  // namespace once::studio
