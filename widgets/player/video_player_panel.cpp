#include "player/video_player_panel.h"

#include <QAudioDevice>
#include <QAudioOutput>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QMediaDevices>
#include <QMediaPlayer>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>
#include <QVideoWidget>

#include "overlay/group_overlay.h"

namespace once::studio {
namespace {
QString clock(qint64 ms) {
    const qint64 s = ms / 1000;
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}
}  // namespace

VideoPlayerPanel::VideoPlayerPanel(GroupOverlay* overlay, QWidget* parent)
    : QWidget(parent), overlay_(overlay) {
    // Debian's Qt 6.4 picks its GStreamer backend first, which crashes when GStreamer plugins
    // are missing; the FFmpeg backend ships in the same package and decodes what the core's
    // FFmpeg reader does. Must be set before the first media object exists.
    if (!qEnvironmentVariableIsSet("QT_MEDIA_BACKEND")) {
        qputenv("QT_MEDIA_BACKEND", "ffmpeg");
    }
    player_ = new QMediaPlayer(this);
    video_ = new QVideoWidget(this);
    video_->setMinimumSize(160, 90);
    player_->setVideoOutput(video_);

    play_ = new QToolButton(this);
    play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    play_->setToolTip(tr("Play or pause (Space)"));
    // Window-wide while the player is shown; text fields take their own spaces first.
    play_->setShortcut(QKeySequence(Qt::Key_Space));
    play_->setAccessibleName(tr("Play"));
    mute_ = new QToolButton(this);
    mute_->setCheckable(true);
    mute_->setIcon(style()->standardIcon(QStyle::SP_MediaVolume));
    position_ = new QSlider(Qt::Horizontal, this);
    position_->setAccessibleName(tr("Playback position"));
    time_ = new QLabel(this);
    updateTime(0);
    note_ = new QLabel(tr("No video to play."), this);
    note_->setWordWrap(true);

    auto* controls = new QHBoxLayout;
    controls->addWidget(play_);
    controls->addWidget(position_, 1);
    controls->addWidget(time_);
    controls->addWidget(mute_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(video_, 1);
    layout->addLayout(controls);
    layout->addWidget(note_);

    connect(play_, &QToolButton::clicked, this, &VideoPlayerPanel::togglePlayback);
    connect(mute_, &QToolButton::toggled, this, [this](bool muted) {
        if (audio_ != nullptr) {
            audio_->setMuted(muted);
        }
    });
    devices_ = new QMediaDevices(this);
    connect(devices_, &QMediaDevices::audioOutputsChanged, this,
            &VideoPlayerPanel::followAudioDevices);
    followAudioDevices();
    connect(player_, &QMediaPlayer::durationChanged, this, [this](qint64 ms) {
        position_->setRange(0, static_cast<int>(ms));
        updateTime(player_->position());
    });
    // A loaded clip shows its first frame paused (issue 16: the paused player was black with no
    // duration until Play); the frame chosen in the strip is then shown at once as well.
    connect(player_, &QMediaPlayer::mediaStatusChanged, this, [this](QMediaPlayer::MediaStatus s) {
        if (s == QMediaPlayer::LoadedMedia &&
            player_->playbackState() == QMediaPlayer::StoppedState) {
            player_->pause();
            onFrameChosen(overlay_->currentFrame());
        }
    });
    connect(player_, &QMediaPlayer::positionChanged, this, &VideoPlayerPanel::onPosition);
    connect(position_, &QSlider::sliderMoved, player_,
            [this](int ms) { player_->setPosition(ms); });
    connect(
        player_, &QMediaPlayer::playbackStateChanged, this, [this](QMediaPlayer::PlaybackState s) {
            play_->setIcon(style()->standardIcon(
                s == QMediaPlayer::PlayingState ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
        });
    connect(player_, &QMediaPlayer::errorOccurred, this,
            [this](QMediaPlayer::Error, const QString& message) {
                note_->setText(tr("Playback is not available: %1").arg(message));
                note_->setVisible(true);
            });
    connect(overlay_, &GroupOverlay::currentFrameChanged, this, &VideoPlayerPanel::onFrameChosen);
    setSource(QString());
}

void VideoPlayerPanel::setSource(const QString& path) {
    player_->stop();
    const bool playable = !path.isEmpty() && QFileInfo(path).isFile();
    player_->setSource(playable ? QUrl::fromLocalFile(path) : QUrl());
    updateTime(0);
    play_->setEnabled(playable);
    position_->setEnabled(playable);
    note_->setText(playable ? QString()
                            : (path.isEmpty() ? tr("No video to play.")
                                              : tr("%1 cannot be played here (a frame folder or a "
                                                   "feature file).")
                                                    .arg(QFileInfo(path).fileName())));
    note_->setVisible(!playable);
}

void VideoPlayerPanel::followAudioDevices() {
    // Qt's FFmpeg backend renders audio on its own thread, which dereferences a null sink and
    // crashes the whole studio when the machine has no audio device (headless and remote
    // machines, issue 16), muted or not. So an audio output exists only while a device does;
    // otherwise the picture plays alone.
    const bool haveDevice = !QMediaDevices::audioOutputs().isEmpty();
    if (haveDevice && audio_ == nullptr) {
        audio_ = new QAudioOutput(QMediaDevices::defaultAudioOutput(), this);
        audio_->setMuted(mute_->isChecked());
        player_->setAudioOutput(audio_);
    } else if (haveDevice) {
        audio_->setDevice(QMediaDevices::defaultAudioOutput());
    } else if (audio_ != nullptr) {
        player_->setAudioOutput(nullptr);
        delete audio_;
        audio_ = nullptr;
    }
    mute_->setEnabled(haveDevice);
    mute_->setToolTip(haveDevice ? tr("Mute")
                                 : tr("Sound is off: this machine has no audio device."));
}

QString VideoPlayerPanel::timeText() const {
    return time_->text();
}

void VideoPlayerPanel::updateTime(qint64 ms) {
    time_->setText(tr("%1 / %2").arg(clock(ms), clock(player_->duration())));
}

QString VideoPlayerPanel::note() const {
    return note_->isVisibleTo(this) ? note_->text() : QString();
}

void VideoPlayerPanel::togglePlayback() {
    if (player_->playbackState() == QMediaPlayer::PlayingState) {
        player_->pause();
    } else {
        player_->play();
    }
}

void VideoPlayerPanel::onPosition(qint64 ms) {
    if (!position_->isSliderDown()) {
        position_->setValue(static_cast<int>(ms));
    }
    updateTime(ms);
    if (player_->playbackState() != QMediaPlayer::PlayingState) {
        return;
    }
    // The last sampled frame at or before the playhead.
    const double t = ms / 1000.0;
    int frame = 0;
    for (int i = 0; i < overlay_->frameCount(); ++i) {
        if (overlay_->frameTime(i) <= t + 1e-3) {
            frame = i;
        }
    }
    followingPlayer_ = true;
    overlay_->setCurrentFrame(frame);
    followingPlayer_ = false;
}

void VideoPlayerPanel::onFrameChosen(int frame) {
    if (followingPlayer_ || player_->source().isEmpty()) {
        return;
    }
    player_->setPosition(static_cast<qint64>(overlay_->frameTime(frame) * 1000.0));
}

}  // namespace once::studio
