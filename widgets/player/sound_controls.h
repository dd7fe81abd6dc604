#pragma once
// The player's sound controls and the rule that ties the sound to the playhead: the sound plays
// from the playhead while the picture plays at 1×, falls silent on pause, starts again from the
// new position after a seek, a step or a loop, and stays silent at other speeds (a pitched or
// stretched sound would need a time-stretcher; the note says so). A mute button, a volume
// slider and the note: why the clip plays silently, when it does.
#include <QWidget>

class QLabel;
class QSlider;
class QToolButton;

namespace once::studio {

class AudioPlayback;

class SoundControls : public QWidget {
    Q_OBJECT
  public:
    explicit SoundControls(QWidget* parent = nullptr);

    /// The clip whose sound plays (empty: none); silent until play().
    void setSource(const QString& path);
    /// The picture plays from `seconds` at `speed` (also after a seek or a speed change).
    void play(double seconds, double speed);
    /// The picture stopped (pause, a step, the end, decoding behind the clock).
    void pause();

    AudioPlayback* playback() const { return audio_; }
    QToolButton* muteButton() const { return mute_; }
    QSlider* volumeSlider() const { return volume_; }
    /// Why there is no sound now ("" when there is, or nothing plays).
    QString note() const;

  private:
    void updateNote();

    AudioPlayback* audio_;
    QToolButton* mute_;
    QSlider* volume_;
    QLabel* note_;
    bool playing_ = false;
    double speed_ = 1.0;
};

}  // namespace once::studio
