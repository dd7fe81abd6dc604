#include "overlay/overlay_clip_export.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <memory>

#include "overlay/group_overlay.h"
#include "overlay/overlay_export.h"
#include "overlay/overlay_painter.h"
#include "util/error.h"
#include "util/progress.h"
#include "video/frame_stream.h"
#include "video/video_writer.h"

namespace once::studio {
// The translation context of the clip export's texts.
class OverlayClipExport {
    Q_DECLARE_TR_FUNCTIONS(OverlayClipExport)
};

namespace {
// A small caption in the bottom-left corner, white on a translucent box: legible on any frame
// and covering as few patches as possible.
void drawCaption(QPainter& p, const QSize& size, const QString& text) {
    QFont font = p.font();
    font.setPixelSize(std::clamp(size.height() / 20, 9, 28));
    p.setFont(font);
    const int margin = std::max(2, font.pixelSize() / 4);
    QRect box = QFontMetrics(font).boundingRect(text).adjusted(-margin, -margin, margin, margin);
    box.moveBottomLeft(QPoint(margin, size.height() - 1 - margin));
    p.fillRect(box, QColor(0, 0, 0, 160));
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, text);
}
}  // namespace

QString overlayClipCaption(double seconds, int frame) {
    return OverlayClipExport::tr("%1 s · groups of frame %2")
        .arg(seconds, 0, 'f', 2)
        .arg(frame + 1);
}

OverlayClipResult exportOverlaidClip(const GroupOverlay& overlay, const std::string& video,
                                     const std::string& output, once::Progress& progress,
                                     const OverlayClipOptions& options) {
    if (overlay.frameCount() <= 0) {
        fail("there is no overlay to draw on the clip: open a video first", video, "overlay",
             "sampled frames", "none");
    }
    if (!isWritableVideoPath(output)) {  // before decoding anything
        fail("unknown video format: the file name must end in .mp4 or .gif", output, "suffix",
             ".mp4 or .gif", QFileInfo(QString::fromStdString(output)).suffix().toStdString());
    }
    const int side = OverlayExportLimits::kMaxFrameWidth;
    FrameStream stream(video, side, side);
    double fps = stream.info().fps > 0 ? stream.info().fps : kClipDefaultFps;
    // GIF delays are whole hundredths of a second: a faster clip keeps every step-th frame.
    const bool gif = QFileInfo(QString::fromStdString(output)).suffix().toLower() == "gif";
    const std::int64_t step =
        gif && fps > kMaxGifFps ? std::int64_t(std::ceil(fps / kMaxGifFps)) : std::int64_t(1);
    fps /= double(step);
    const double stated = stream.statedDuration();
    progress.begin(OverlayClipExport::tr("Writing the overlaid clip").toStdString(),
                   stated > 0 ? std::ceil(stated * fps) : 0.0);

    std::unique_ptr<VideoWriter> writer;  // opened at the first frame, which fixes the size
    QImage canvas;
    OverlayPaintOptions paint;
    PlaybackFrame frame;
    for (std::int64_t index = 0; stream.next(frame); ++index) {
        progress.throwIfCancelled();
        if (index % step != 0) {
            continue;
        }
        if (!writer) {
            writer = std::make_unique<VideoWriter>(output, frame.width, frame.height, fps);
            // RGBX: the same byte order on every machine (R, G, B, X), which the writer reads.
            canvas = QImage(frame.width, frame.height, QImage::Format_RGBX8888);
        }
        paint.picture = QImage(frame.rgb.data(), frame.width, frame.height, frame.width * 3,
                               QImage::Format_RGB888);
        const int sampled = std::max(0, overlay.frameAtTime(frame.time));
        {
            QPainter p(&canvas);
            paintFrameOverlay(p, QRectF(canvas.rect()), overlay, sampled, paint);
            if (options.caption) {
                drawCaption(p, canvas.size(), overlayClipCaption(frame.time, sampled));
            }
        }
        writer->write(canvas.constBits(), WriterPixels::rgba, std::size_t(canvas.bytesPerLine()));
        progress.update(double(writer->framesWritten()));
    }
    if (!writer) {
        fail("the video has no frames to write", video, "frames", "at least one frame", "none");
    }
    writer->finish();
    OverlayClipResult result;
    result.frames = writer->framesWritten();
    result.codec = writer->codec();
    result.width = writer->outputWidth();
    result.height = writer->outputHeight();
    result.fps = fps;
    return result;
}

}  // namespace once::studio
