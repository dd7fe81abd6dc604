#pragma once
// The player's frames (issue 30): a worker thread decodes the video with the core's own decoder
// (video/frame_stream.h) and keeps the frames around the playhead — a little behind it for
// stepping back, a few seconds ahead for smooth playback — so no third-party playback engine
// runs in the studio's process: a file the core reads is a file the player plays. The GUI moves
// the cursor and asks for the frame at a time; the worker seeks when the cursor jumps outside
// what it holds and otherwise decodes ahead, one frame at a time, so a cursor move or a new
// video is taken within one frame's decoding.
#include <QImage>
#include <QObject>
#include <QString>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace once::studio {

class PlaybackBuffer : public QObject {
    Q_OBJECT
  public:
    /// How much the buffer holds: seconds behind and ahead of the cursor, a frame count that
    /// bounds its memory, and the largest frame (bigger videos are scaled down to it).
    struct Window {
        double behind = 1.0;
        double ahead = 2.0;
        int maxFrames = 96;
        int maxWidth = 960, maxHeight = 540;
    };
    struct Frame {
        QImage image;      ///< null when the buffer does not hold the frame (yet)
        double time = -1;  ///< seconds from the stream's start
    };

    explicit PlaybackBuffer(QObject* parent = nullptr);
    PlaybackBuffer(const Window& window, QObject* parent);
    /// Stops and joins the worker.
    ~PlaybackBuffer() override;

    /// Decodes `path` from its start on the worker; an empty path closes. The previous
    /// video's frames go at once.
    void open(const QString& path);
    QString path() const;
    /// Where the playhead is (seconds); the worker keeps the frames around it.
    void setCursor(double seconds);
    double cursor() const;
    /// The frame shown at `seconds`: the last one at or before it (the first frame for a time
    /// before it). Null image when the buffer does not hold it yet.
    Frame frameAt(double seconds) const;
    /// True when the frames up to `seconds` are decoded (or the stream ended before it), so a
    /// playing clock may move on to it.
    bool holdsUpTo(double seconds) const;
    /// Time of the stream's last frame once the worker reached the end, else -1.
    double lastFrameTime() const;
    /// The duration the container states (0 unknown) and the frame rate (0 unknown), known
    /// once opened() was signalled.
    double statedDuration() const;
    double fps() const;
    int cachedFrames() const;
    /// Seeks the worker made since open() (the tests check that stepping within the window
    /// does not seek).
    int seekCount() const;

  signals:
    /// The stream opened on the worker (queued to the GUI thread).
    void opened();
    /// New frames are in the buffer.
    void framesAdded();
    /// The stream could not be opened or decoded: the core's message (names file and field).
    void failed(const QString& message);

  private:
    void run(std::string path, quint64 generation);
    /// Decodes more only when the cursor's window is not full yet (called with mutex_ held).
    bool needsWork() const;
    void evict();

    Window window_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::thread worker_;
    // Guarded by mutex_:
    QString path_;
    quint64 generation_ = 0;
    bool stop_ = false;
    double cursor_ = 0;
    std::map<double, QImage> frames_;
    double runFrom_ = 0;     ///< the frames decoded since the last seek start here
    double decodedTo_ = -1;  ///< time of the last decoded frame of this run (-1: none)
    bool atEnd_ = false;     ///< this run reached the end of the stream
    double lastFrame_ = -1;  ///< the stream's last frame time, once known
    double stated_ = 0, fps_ = 0;
    int seeks_ = 0;
};

}  // namespace once::studio
