// The audio decoder of a build without FFmpeg (ONCE_WITH_FFMPEG=OFF): every file is refused
// with that reason. The decoder itself is ffmpeg_audio_stream.cpp.
#include "video/audio_stream.h"

#include "util/error.h"

namespace once {

#ifndef ONCE_HAVE_FFMPEG
struct AudioStream::Impl {
    AudioInfo info;
    AudioFormat out;
};

AudioStream::AudioStream(const std::string& path, const AudioFormat&) {
    fail("this build has no audio decoding (configured with ONCE_WITH_FFMPEG=OFF)", path, "decoder",
         "a build with FFmpeg", "none");
}
AudioStream::~AudioStream() = default;
bool AudioStream::hasAudio() const {
    return false;
}
const AudioInfo& AudioStream::info() const {
    return impl_->info;
}
const AudioFormat& AudioStream::format() const {
    return impl_->out;
}
void AudioStream::seek(double) {}
bool AudioStream::next(AudioChunk&) {
    return false;
}

#endif

}  // namespace once
