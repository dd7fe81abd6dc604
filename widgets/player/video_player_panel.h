#pragma once
// Playback of the opened video with Qt Multimedia, tied to the overlay: while playing, the
// sampled frame at or before the playhead becomes the current frame; choosing a frame in the
// strip seeks the player there.
#include <QWidget>

class QAudioOutput;
class QLabel;
class QMediaDevices;
class QMediaPlayer;
class QSlider;
class QToolButton;
class QVideoWidget;

namespace once::studio {

class GroupOverlay;

class VideoPlayerPanel : public QWidget {
    Q_OBJECT
  public:
    explicit VideoPlayerPanel(GroupOverlay* overlay, QWidget* parent = nullptr);

    /// Plays `path` (a file; a frame folder or an empty path shows a note instead).
    void setSource(const QString& path);
    QMediaPlayer* player() const { return player_; }
    QToolButton* playButton() const { return play_; }
    QToolButton* muteButton() const { return mute_; }
    /// The note under the controls ("" when the video can be played).
    QString note() const;
    /// "position / duration" beside the slider ("0:03 / 0:16").
    QString timeText() const;
    QVideoWidget* videoWidget() const { return video_; }

  public slots:
    void togglePlayback();

  private:
    void onPosition(qint64 ms);
    void onFrameChosen(int frame);
    void updateTime(qint64 ms);
    /// Attaches an audio output only while the machine has an audio device (see the .cpp).
    void followAudioDevices();

    GroupOverlay* overlay_;
    QMediaPlayer* player_;
    QAudioOutput* audio_ = nullptr;  ///< null while there is no audio device
    QMediaDevices* devices_ = nullptr;
    QVideoWidget* video_;
    QToolButton* play_;
    QToolButton* mute_;
    QSlider* position_;
    QLabel* time_;
    QLabel* note_;
    bool followingPlayer_ = false;
};

}  // namespace once::studio
