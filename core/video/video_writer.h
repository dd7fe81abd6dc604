#pragma once
// Video output: frames of one fixed size at a fixed rate written to a clip with the system FFmpeg
// (the studio's "Export Overlaid Clip", issue 30 item 13). The container and codec follow the
// file's suffix:
//   .mp4  H.264 (libx264, CRF 18) when the installed libavcodec has it, else FFmpeg's native
//         MPEG-4 Part 2 encoder (codec() says which); yuv420p, the pixel format every player
//         decodes. 4:2:0 needs an even width and height: an odd size is padded by repeating the
//         last column or row (never scaled, so every written pixel keeps its place), and
//         outputWidth()/outputHeight() say the size in the file. The index (moov) comes last,
//         as FFmpeg writes it without a second pass ("faststart" needs to read the file back).
//   .gif  FFmpeg's native GIF encoder with one fixed palette of 6 x 7 x 6 levels (R x G x B,
//         252 colours), no dithering. A fixed palette needs one pass and constant memory (a
//         per-clip palette needs every frame before the first is written), never flickers
//         between frames, and bounds the error of every pixel (at most 26 per channel) — the
//         overlay's flat group colours stay flat instead of turning into dither noise. GIF
//         delays are whole hundredths of a second, so at most kMaxGifFps.
// The file is written to a temporary file beside it and renamed into place by finish()
// (util/atomic_file.h): a writer destroyed before finish() — cancelled, failed — leaves nothing,
// and an existing file is replaced only whole. Cancel by not calling finish(); report progress
// from the loop that feeds write().
#include <cstdint>
#include <memory>
#include <string>

#include "util/atomic_file.h"

namespace once {

/// Largest frame the writer takes, width x height (as the reader's limit, 8192 x 8192).
constexpr std::int64_t kMaxWrittenFramePixels = std::int64_t(8192) * 8192;
/// Largest width or height (H.264 levels stop at 8192; GIF stores 16-bit sizes).
constexpr int kMaxWrittenSide = 8192;
/// Most frames one clip may hold (a week at 25 fps): a bound, not a target.
constexpr std::int64_t kMaxWrittenFrames = 15'000'000;
/// Frame rates accepted: (0, kMaxWriterFps].
constexpr double kMaxWriterFps = 1000;
/// GIF stores each frame's delay in hundredths of a second; browsers slow delays under 2/100 s
/// down, so a GIF is at most 50 frames a second.
constexpr double kMaxGifFps = 50;

/// The MP4 encoder. `automatic` takes H.264 (libx264) when the installed libavcodec has it and
/// FFmpeg's native MPEG-4 Part 2 encoder otherwise — FFmpeg builds without libx264 exist (some
/// distributions leave it out for its patents). `h264` and `mpeg4` ask for one of them: an
/// absent or failing encoder is an error then, not a silent switch.
enum class Mp4Codec { automatic, h264, mpeg4 };

/// Layout of the pixels handed to write().
enum class WriterPixels {
    rgb24,  ///< R, G, B bytes
    rgba,   ///< R, G, B, A bytes (alpha ignored)
    bgra,   ///< B, G, R, A bytes: QImage::Format_RGB32/ARGB32 on a little-endian machine
};

class VideoWriter {
  public:
    /// Opens the encoder for `path` (suffix .mp4 or .gif, any case) and the temporary file
    /// beside it. Throws OnceError naming the file for an unknown suffix, a size outside
    /// 1..kMaxWrittenSide or above kMaxWrittenFramePixels, a frame rate outside
    /// (0, kMaxWriterFps] (kMaxGifFps for GIF), an output path `replace` refuses, a folder that
    /// cannot take the file, or an encoder FFmpeg cannot open (with FFmpeg's error text).
    /// `mp4Codec` chooses the MP4 encoder (ignored for GIF).
    VideoWriter(const std::string& path, int width, int height, double fps,
                OutputReplace replace = OutputReplace::regularFile,
                Mp4Codec mp4Codec = Mp4Codec::automatic);
    /// Without finish(): removes the temporary file; the path keeps what it had.
    ~VideoWriter();
    VideoWriter(const VideoWriter&) = delete;
    VideoWriter& operator=(const VideoWriter&) = delete;

    /// Encodes one width x height frame; `stride` is the bytes from one row to the next (0:
    /// packed). Throws OnceError naming the file when encoding or writing fails, and past
    /// kMaxWrittenFrames.
    void write(const std::uint8_t* pixels, WriterPixels layout, std::size_t stride = 0);
    /// Flushes the encoder, writes the container's index and renames the file into place.
    /// Throws OnceError naming the file on failure (the temporary file is removed).
    void finish();

    /// The encoder used: "libx264", "mpeg4" or "gif".
    const std::string& codec() const;
    /// Size in the file (width and height rounded up to even for MP4).
    int outputWidth() const;
    int outputHeight() const;
    std::int64_t framesWritten() const;
    const std::string& path() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// Whether `path` names a format the writer knows (.mp4 or .gif, any case).
bool isWritableVideoPath(const std::string& path);

}  // namespace once
