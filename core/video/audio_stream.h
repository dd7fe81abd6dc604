#pragma once
// Sequential decoding of a file's sound for playback: the best audio stream, decoded and
// converted (libswresample) to interleaved float32 PCM at the rate and channel count the output
// device wants, from any point. The studio's player plays it beside the picture of FrameStream
// (frame_stream.h); neither runs a third-party playback engine.
//
// Times are on the video's clock: seconds from the start of the file's video stream (the clock
// of FrameStream and readFrames), so a played sample and a shown frame with the same time are
// the same moment; a file with only sound counts from its audio stream's start.
//
// Every field of the file is untrusted: channel counts, rates and frame sizes are checked against
// the limits below before the converter or an output buffer is set up.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace once {

/// Channels a stream or an output may have (7.1 sound is 8).
constexpr int kMaxAudioChannels = 8;
/// Sample rates a stream or an output may have, in Hz.
constexpr int kMinAudioRate = 8000;
constexpr int kMaxAudioRate = 192000;
/// Largest decoded audio frame, in samples per channel (FLAC's largest block is 65535).
constexpr std::int64_t kMaxAudioFrameSamples = 65536;
/// Largest output of one next() call, in frames (samples per channel): about 22 s at 48 kHz.
constexpr std::int64_t kMaxAudioChunkFrames = std::int64_t(1) << 20;

/// The PCM the stream delivers: interleaved float32 in [-1, 1].
struct AudioFormat {
    int rate = 48000;
    int channels = 2;
};

/// What the file states about its sound.
struct AudioInfo {
    std::string codec;
    int rate = 0, channels = 0;  ///< the stream's own, before conversion
    double statedDuration = 0;   ///< seconds; 0 when the container does not say
};

/// Decoded, converted sound.
struct AudioChunk {
    std::vector<float> samples;  ///< frames() x channels, interleaved
    int channels = 0;
    double time = 0;  ///< seconds of the first frame on the video's clock
    std::int64_t frames() const {
        return channels > 0 ? std::int64_t(samples.size()) / channels : 0;
    }
};

class AudioStream {
  public:
    /// Opens the file `path` and the decoder of its best audio stream, converting to `output`.
    /// A file without an audio stream is not an error: hasAudio() is false and next() ends at
    /// once. Throws OnceError naming the file and the field for what cannot play: a missing or
    /// unreadable file, an output or stream outside the limits above, an audio codec this
    /// FFmpeg does not decode.
    AudioStream(const std::string& path, const AudioFormat& output);
    ~AudioStream();
    AudioStream(const AudioStream&) = delete;
    AudioStream& operator=(const AudioStream&) = delete;

    bool hasAudio() const;
    const AudioInfo& info() const;
    const AudioFormat& format() const;

    /// Positions the stream so that the next chunk starts at `seconds` exactly: earlier sound
    /// is cut, and silence fills in when the sound starts later (up to a minute of it).
    void seek(double seconds);
    /// The next chunk of sound (at most kMaxAudioChunkFrames frames); false at the end. Throws
    /// OnceError when a decoded frame breaks the limits (channels, rate, frame size).
    bool next(AudioChunk& chunk);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace once
