#include "player/clip_exporter.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QStandardPaths>
#include <memory>

#include "common/export_folder.h"
#include "overlay/group_overlay.h"
#include "overlay/overlay_clip_export.h"
#include "tasks/background_task.h"

namespace once::studio {
namespace {
QString codecName(const std::string& encoder) {
    if (encoder == "libx264") {
        return QStringLiteral("H.264");
    }
    return encoder == "gif" ? QStringLiteral("GIF") : QStringLiteral("MPEG-4 Part 2");
}
}  // namespace

ClipExporter::ClipExporter(GroupOverlay* overlay, QObject* parent)
    : QObject(parent), overlay_(overlay), task_(new BackgroundTask(this)) {
    action_ = new QAction(tr("Export Overlaid &Clip…"), this);
    action_->setObjectName(QStringLiteral("exportOverlaidClip"));
    action_->setToolTip(
        tr("Write the video with the codeword groups drawn on every frame, as MP4 or GIF"));
    // Queued: from a context menu the dialog must open after the menu has closed (issue 30,
    // crash 2: a menu deleted under its own mouse event).
    connect(
        action_, &QAction::triggered, this,
        [this] { exportInteractive(qobject_cast<QWidget*>(this->parent())); },
        Qt::QueuedConnection);
    connect(overlay_, &GroupOverlay::changed, this, &ClipExporter::updateEnabled);
    connect(task_, &BackgroundTask::started, this, &ClipExporter::updateEnabled);
    connect(task_, &BackgroundTask::finished, this, &ClipExporter::updateEnabled);
    updateEnabled();
}

void ClipExporter::setVideo(const QString& path) {
    video_ = path;
    updateEnabled();
}

void ClipExporter::updateEnabled() {
    action_->setEnabled(!video_.isEmpty() && overlay_->frameCount() > 0 && !task_->isRunning());
}

void ClipExporter::exportInteractive(QWidget* dialogParent) {
    if (!action_->isEnabled()) {
        return;
    }
    const QString mp4 = tr("MP4 video (*.mp4)");
    const QString gif = tr("GIF animation (*.gif)");
    const QString name = QFileInfo(video_).completeBaseName() + QStringLiteral("_overlay.mp4");
    QString filter = mp4;
    QString path = QFileDialog::getSaveFileName(dialogParent, tr("Export Overlaid Clip"),
                                                exportPath(name, QStandardPaths::MoviesLocation),
                                                mp4 + QStringLiteral(";;") + gif, &filter);
    if (path.isEmpty()) {
        return;
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("mp4") && suffix != QLatin1String("gif")) {
        path += filter == gif ? QStringLiteral(".gif") : QStringLiteral(".mp4");
    }
    rememberExportFile(path);
    start(path);
}

bool ClipExporter::start(const QString& path) {
    if (!action_->isEnabled()) {
        return false;
    }
    // The worker draws from a copy: the overlay goes on changing with the GUI meanwhile.
    std::shared_ptr<const GroupOverlay> overlay = overlay_->snapshot();
    const std::string video = video_.toStdString(), output = path.toStdString();
    return task_->start(tr("Exporting the overlaid clip"), [this, overlay, video, output,
                                                            path](once::Progress& progress) {
        const OverlayClipResult r = exportOverlaidClip(*overlay, video, output, progress);
        const QString message = tr("Overlaid clip written to %1: %2 frames, %3, %4 × %5 at %6 fps.")
                                    .arg(QDir::toNativeSeparators(path))
                                    .arg(r.frames)
                                    .arg(codecName(r.codec))
                                    .arg(r.width)
                                    .arg(r.height)
                                    .arg(r.fps, 0, 'g', 4);
        return [this, message] { emit exported(message); };
    });
}

}  // namespace once::studio
