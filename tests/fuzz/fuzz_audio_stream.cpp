// clang-format off
// fuzz-sources: core/video/ffmpeg_audio_stream.cpp core/video/ffmpeg_container.cpp core/util/error.cpp core/util/json_file.cpp core/util/regular_file.cpp core/util/progress.cpp
// fuzz-needs: torch
// fuzz-pkgconfig: libavformat libavcodec libavutil libswresample
// fuzz-max-len: 65536
// clang-format on
// libFuzzer target for the player's audio decoder (video/audio_stream.h): every byte of a media
// file is untrusted. Input: 1 byte choosing the output format, 1 byte a seek position, then the
// file's bytes (written to a temporary file: the decoder reads files only). Any input must
// either throw OnceError or give chunks of the asked channel count, each of 1 to
// kMaxAudioChunkFrames frames, with finite, non-decreasing times; a seek's first chunk starts
// at the asked time.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "fuzz_check.h"
#include "util/error.h"
#include "video/audio_stream.h"

using once::fuzz::check;

namespace {
const std::string& scratchPath() {
    static const std::string path = "/tmp/fuzz_audio_stream_" + std::to_string(::getpid()) + ".bin";
    return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) {
        return 0;
    }
    static const once::AudioFormat kFormats[] = {{48000, 2}, {44100, 1}, {8000, 8}, {192000, 2}};
    const once::AudioFormat format = kFormats[data[0] % 4];
    const double seekTo = data[1] < 128 ? -1.0 : (data[1] - 128) / 16.0;
    {
        std::ofstream out(scratchPath(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data + 2), std::streamsize(size - 2));
    }
    try {
        once::AudioStream s(scratchPath(), format);
        if (seekTo >= 0) {
            s.seek(seekTo);
        }
        once::AudioChunk c;
        double last = -1e300;
        // Bounded: a few seconds of sound say what a whole file would.
        for (int i = 0; i < 64 && s.next(c); ++i) {
            check(c.channels == format.channels);
            check(c.frames() >= 1 && c.frames() <= once::kMaxAudioChunkFrames);
            check(c.samples.size() == std::size_t(c.frames()) * std::size_t(format.channels));
            check(std::isfinite(c.time));
            check(i > 0 || seekTo < 0 || c.time >= seekTo - 1e-9);
            check(c.time >= last - 1e-6);
            last = c.time;
        }
    } catch (const once::OnceError&) {
    }
    return 0;
}
