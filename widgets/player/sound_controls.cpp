#include "player/sound_controls.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include "player/audio_playback.h"

namespace once::studio {

SoundControls::SoundControls(QWidget* parent) : QWidget(parent), audio_(new AudioPlayback(this)) {
    mute_ = new QToolButton(this);
    mute_->setCheckable(true);
    mute_->setIcon(style()->standardIcon(QStyle::SP_MediaVolume));
    mute_->setToolTip(tr("Mute the sound"));
    mute_->setAccessibleName(tr("Mute"));
    volume_ = new QSlider(Qt::Horizontal, this);
    volume_->setRange(0, 100);
    volume_->setValue(100);
    volume_->setMaximumWidth(80);
    volume_->setToolTip(tr("Volume"));
    volume_->setAccessibleName(tr("Volume"));
    note_ = new QLabel(this);
    note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    note_->setWordWrap(true);  // a long reason wraps instead of widening the player
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mute_);
    layout->addWidget(volume_);
    layout->addWidget(note_, 1);

    connect(mute_, &QToolButton::toggled, this, [this](bool muted) {
        audio_->setMuted(muted);
        mute_->setIcon(
            style()->standardIcon(muted ? QStyle::SP_MediaVolumeMuted : QStyle::SP_MediaVolume));
        mute_->setToolTip(muted ? tr("Unmute the sound") : tr("Mute the sound"));
    });
    connect(volume_, &QSlider::valueChanged, this,
            [this](int value) { audio_->setVolume(value / 100.0); });
    connect(audio_, &AudioPlayback::noteChanged, this, &SoundControls::updateNote);
    updateNote();
}

void SoundControls::setSource(const QString& path) {
    playing_ = false;
    audio_->setSource(path);
    updateNote();
}

void SoundControls::play(double seconds, double speed) {
    playing_ = true;
    speed_ = speed;
    if (speed == 1.0) {
        audio_->start(seconds);
    } else {
        audio_->stop();
    }
    updateNote();
}

void SoundControls::pause() {
    if (playing_) {
        playing_ = false;
        audio_->stop();
    }
    updateNote();
}

QString SoundControls::note() const {
    return note_->text();
}

void SoundControls::updateNote() {
    QString text = audio_->note();
    if (text.isEmpty() && playing_ && speed_ != 1.0) {
        text = tr("No sound at %1× (the sound plays at 1× only)").arg(speed_);
    }
    note_->setText(text);
    note_->setToolTip(text);
    note_->setVisible(!text.isEmpty());
}

}  // namespace once::studio
