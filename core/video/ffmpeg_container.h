#pragma once
// One container file opened safely for core/video's FFmpeg readers (internal to core/video): only
// the file itself is read, never a URL, playlist or script it names, a cancelled Progress stops
// blocking reads, and the decoders that probing opens refuse frames above the pixel limit. The
// video Source and the AudioStream each open their stream of it.
extern "C" {
#include <libavformat/avformat.h>
}

#include <cstdint>
#include <string>

#include "util/progress.h"

namespace once::ffmpeg {

/// FFmpeg's text for an error code.
std::string avError(int code);

class Container {
  public:
    /// Opens `path` and finds its streams; throws OnceError naming the file when it is missing,
    /// a folder, not a regular file, not a container FFmpeg reads, or refers to other files.
    Container(const std::string& path, Progress* progress, std::int64_t maxFramePixels);
    ~Container();
    Container(const Container&) = delete;
    Container& operator=(const Container&) = delete;

    AVFormatContext* get() const { return fmt_; }

  private:
    void open(const std::string& path, Progress* progress, std::int64_t maxFramePixels);
    static int ioOpen(AVFormatContext* s, AVIOContext** pb, const char* url, int flags,
                      AVDictionary** options);
    /// The demuxer FFmpeg would pick for the file, refused when it reads other files.
    const AVInputFormat* probeFormat(const std::string& path, Progress* progress);
    void refusedOther(const std::string& path) const;

    std::string url_;
    std::string refused_;  ///< first URL io_open refused
    AVFormatContext* fmt_ = nullptr;
};

}  // namespace once::ffmpeg
