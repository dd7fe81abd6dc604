#include "player/video_player_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "overlay/group_overlay.h"
#include "player/clip_exporter.h"
#include "player/playback_buffer.h"
#include "player/playback_view.h"
#include "player/sound_controls.h"

namespace once::studio {
namespace {
QString clock(double seconds) {
    const qint64 s = qint64(std::max(0.0, seconds));
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}
// The clock's tick: a frame of 60 fps video at most waits this long to be shown.
constexpr int kTickMs = 15;
// Frame step for a stream without a stated rate.
constexpr double kDefaultFps = 25.0;
}  // namespace

VideoPlayerPanel::VideoPlayerPanel(GroupOverlay* overlay, QWidget* parent)
    : QWidget(parent),
      overlay_(overlay),
      buffer_(new PlaybackBuffer(this)),
      clipExporter_(new ClipExporter(overlay, this)) {
    view_ = new PlaybackView(overlay_, this);
    view_->setContextMenuPolicy(Qt::ActionsContextMenu);
    view_->addAction(clipExporter_->action());
    exportClip_ = new QToolButton(this);
    exportClip_->setDefaultAction(clipExporter_->action());
    exportClip_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto button = [this](QStyle::StandardPixmap icon, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setIcon(style()->standardIcon(icon));
        b->setToolTip(tip);
        b->setAccessibleName(tip);
        return b;
    };
    play_ = button(QStyle::SP_MediaPlay, tr("Play or pause (Space)"));
    // Window-wide while the player is shown; text fields take their own spaces first.
    play_->setShortcut(QKeySequence(Qt::Key_Space));
    play_->setAccessibleName(tr("Play"));
    stepBack_ = button(QStyle::SP_MediaSeekBackward, tr("Previous frame of the video"));
    stepForward_ = button(QStyle::SP_MediaSeekForward, tr("Next frame of the video"));
    speed_ = new QComboBox(this);
    for (double s : {0.25, 0.5, 1.0, 2.0, 4.0}) {
        speed_->addItem(tr("%1×").arg(s), s);
    }
    speed_->setCurrentIndex(2);
    speed_->setToolTip(tr("Playback speed"));
    loop_ = new QCheckBox(tr("Loop"), this);
    loop_->setToolTip(tr("Start again from the beginning at the end of the clip"));
    groups_ = new QCheckBox(tr("Groups"), this);
    groups_->setChecked(true);
    groups_->setToolTip(tr("Draw the codeword groups of the sampled frame shown over the video"));
    position_ = new QSlider(Qt::Horizontal, this);
    position_->setAccessibleName(tr("Playback position"));
    position_->setMinimumWidth(60);
    time_ = new QLabel(this);
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    sound_ = new SoundControls(this);
    clock_ = new QTimer(this);
    clock_->setTimerType(Qt::PreciseTimer);
    clock_->setInterval(kTickMs);

    auto* controls = new QHBoxLayout;
    controls->addWidget(stepBack_);
    controls->addWidget(play_);
    controls->addWidget(stepForward_);
    controls->addWidget(position_, 1);
    controls->addWidget(time_);
    auto* options = new QHBoxLayout;
    options->addWidget(speed_);
    options->addWidget(loop_);
    options->addWidget(groups_);
    options->addWidget(sound_, 1);
    options->addWidget(exportClip_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(view_, 1);
    layout->addLayout(controls);
    layout->addLayout(options);
    layout->addWidget(note_);

    connect(play_, &QToolButton::clicked, this, &VideoPlayerPanel::togglePlayback);
    connect(stepBack_, &QToolButton::clicked, this, [this] { stepFrames(-1); });
    connect(stepForward_, &QToolButton::clicked, this, [this] { stepFrames(1); });
    connect(speed_, &QComboBox::currentIndexChanged, this, [this] {
        base_ = playhead_;  // the new speed counts from here
        elapsed_.restart();
        if (playing_) {
            sound_->play(playhead_, speed());  // silent at other speeds than 1×
        }
    });
    connect(groups_, &QCheckBox::toggled, view_, &PlaybackView::setShowsGroups);
    connect(position_, &QSlider::sliderMoved, this, [this](int ms) { seek(ms / 1000.0); });
    connect(clock_, &QTimer::timeout, this, &VideoPlayerPanel::tick);
    connect(buffer_, &PlaybackBuffer::opened, this, &VideoPlayerPanel::updateDuration);
    connect(buffer_, &PlaybackBuffer::framesAdded, this, [this] {
        updateDuration();
        if (!playing_) {
            showFrameAt(playhead_);  // a paused player shows the frame once it is decoded
        }
    });
    connect(buffer_, &PlaybackBuffer::failed, this, [this](const QString& message) {
        pause();
        playable_ = false;
        for (QWidget* w : {static_cast<QWidget*>(play_), static_cast<QWidget*>(stepBack_),
                           static_cast<QWidget*>(stepForward_), static_cast<QWidget*>(position_)}) {
            w->setEnabled(false);
        }
        clipExporter_->setVideo(QString());  // what the core cannot play it cannot export
        note_->setText(tr("Playback is not available: %1").arg(message));
        note_->setVisible(true);
    });
    connect(overlay_, &GroupOverlay::currentFrameChanged, this, &VideoPlayerPanel::onFrameChosen);
    setSource(QString());
}

VideoPlayerPanel::~VideoPlayerPanel() {
    clock_->stop();
    buffer_->open(QString());  // joins the worker before the widgets go
}

void VideoPlayerPanel::setSource(const QString& path) {
    pause();
    source_ = path;
    playable_ = !path.isEmpty() && QFileInfo(path).isFile();
    playhead_ = base_ = 0;
    duration_ = 0;
    shownTime_ = -1;
    view_->setFrame(QImage(), -1);
    buffer_->open(playable_ ? path : QString());
    sound_->setSource(playable_ ? path : QString());
    clipExporter_->setVideo(playable_ ? path : QString());
    for (QWidget* w : {static_cast<QWidget*>(play_), static_cast<QWidget*>(stepBack_),
                       static_cast<QWidget*>(stepForward_), static_cast<QWidget*>(position_)}) {
        w->setEnabled(playable_);
    }
    position_->setRange(0, 0);
    position_->setValue(0);
    note_->setText(playable_ ? QString()
                             : (path.isEmpty() ? tr("No video to play.")
                                               : tr("%1 cannot be played here (a frame folder or "
                                                    "a feature file).")
                                                     .arg(QFileInfo(path).fileName())));
    note_->setVisible(!playable_);
    updateTime();
}

QString VideoPlayerPanel::note() const {
    return note_->isVisibleTo(this) ? note_->text() : QString();
}

QString VideoPlayerPanel::timeText() const {
    return time_->text();
}

double VideoPlayerPanel::position() const {
    return playhead_;
}

double VideoPlayerPanel::duration() const {
    return duration_;
}

double VideoPlayerPanel::speed() const {
    return speed_->currentData().toDouble();
}

double VideoPlayerPanel::frameStep() const {
    const double fps = buffer_->fps();
    return 1.0 / (fps > 0 ? fps : kDefaultFps);
}

void VideoPlayerPanel::togglePlayback() {
    playing_ ? pause() : play();
}

void VideoPlayerPanel::play() {
    if (!playable_ || playing_) {
        return;
    }
    const double last = buffer_->lastFrameTime();
    if (last >= 0 && playhead_ >= last) {
        seek(0);  // Play at the end starts again
    }
    playing_ = true;
    stalled_ = false;
    base_ = playhead_;
    elapsed_.restart();
    clock_->start();
    sound_->play(playhead_, speed());
    updatePlayIcon();
}

void VideoPlayerPanel::pause() {
    playing_ = false;
    clock_->stop();
    sound_->pause();
    updatePlayIcon();
}

void VideoPlayerPanel::updatePlayIcon() {
    play_->setIcon(style()->standardIcon(playing_ ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

void VideoPlayerPanel::seek(double seconds) {
    if (!playable_) {
        return;
    }
    const double end = duration_ > 0 ? duration_ : seconds;
    playhead_ = std::clamp(std::isfinite(seconds) ? seconds : 0.0, 0.0, std::max(0.0, end));
    base_ = playhead_;
    elapsed_.restart();
    buffer_->setCursor(playhead_);
    showFrameAt(playhead_);
    updateTime();
    if (playing_) {
        stalled_ = false;
        sound_->play(playhead_, speed());  // again from the new position
    }
}

void VideoPlayerPanel::stepFrames(int frames) {
    pause();
    const double from = shownTime_ >= 0 ? shownTime_ : playhead_;
    // Half a frame past the wanted one: frame times are not exactly on the nominal rate.
    seek(std::max(0.0, from + (frames + 0.5) * frameStep()));
    // The overlay follows a step like a playing clock.
    const int frame = overlay_->frameAtTime(playhead_);
    if (frame >= 0) {
        followingPlayer_ = true;
        overlay_->setCurrentFrame(frame);
        followingPlayer_ = false;
    }
}

void VideoPlayerPanel::tick() {
    if (!playing_) {
        return;
    }
    double t = base_ + double(elapsed_.elapsed()) / 1000.0 * speed();
    const double last = buffer_->lastFrameTime();
    if (last >= 0 && t >= last + frameStep()) {
        if (loop_->isChecked()) {
            seek(0);
            return;
        }
        seek(last);
        pause();
        emit finished();
        return;
    }
    if (!buffer_->holdsUpTo(t)) {
        // Decoding is behind the clock: wait at the frame on screen instead of skipping (the
        // sound waits too, and goes on from there).
        base_ = playhead_;
        elapsed_.restart();
        buffer_->setCursor(playhead_);
        if (!stalled_) {
            stalled_ = true;
            sound_->pause();
        }
        return;
    }
    if (stalled_) {
        stalled_ = false;
        sound_->play(t, speed());
    }
    playhead_ = t;
    buffer_->setCursor(t);
    showFrameAt(t);
    updateTime();
    // The last sampled frame at or before the playhead becomes the overlay's frame.
    const int frame = overlay_->frameAtTime(t);
    if (frame >= 0) {
        followingPlayer_ = true;
        overlay_->setCurrentFrame(frame);
        followingPlayer_ = false;
    }
}

void VideoPlayerPanel::showFrameAt(double seconds) {
    const PlaybackBuffer::Frame f = buffer_->frameAt(seconds);
    if (!f.image.isNull() && f.time != shownTime_) {
        shownTime_ = f.time;
        view_->setFrame(f.image, f.time);
    }
}

void VideoPlayerPanel::onFrameChosen(int frame) {
    if (followingPlayer_ || !playable_ || frame < 0 || frame >= overlay_->frameCount()) {
        return;
    }
    seek(overlay_->frameTime(frame));
}

void VideoPlayerPanel::updateDuration() {
    const double last = buffer_->lastFrameTime();
    const double d = last >= 0 ? last + frameStep() : buffer_->statedDuration();
    if (d != duration_) {
        duration_ = d;
        position_->setRange(0, int(std::lround(duration_ * 1000.0)));
        updateTime();
    }
}

void VideoPlayerPanel::updateTime() {
    if (!position_->isSliderDown()) {
        position_->setValue(int(std::lround(playhead_ * 1000.0)));
    }
    time_->setText(tr("%1 / %2").arg(clock(playhead_), clock(duration_)));
}

}  // namespace once::studio
