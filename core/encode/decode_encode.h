#pragma once
// Decode → encode, written once: a video file (or frame folder) sampled by a rule, through a
// visual encoder the caller keeps, into an EncodedVideo with its frame times and provenance.
// Every caller uses it: `once encode` and batches (encode_job.h), the pipeline session, Stage A
// (`once train sketch`, the studio's trainer) and the studio's loads (which keep the frames to
// draw them).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "features/encoded_video.h"
#include "util/progress.h"
#include "video/sampling_rule.h"
#include "video/video_reader.h"

namespace once {

class VisualEncoder;
struct EncoderOptions;

struct DecodeEncodeOptions {
    SamplingRule sampling;    ///< default uniform:32 (LLaVA-OneVision)
    VideoLimits limits{};     ///< decoding limits (docs/security.md)
    bool keepFrames = false;  ///< return the sampled RGB frames (the studio draws them)
    bool hashSource = false;  ///< SHA-256 of the source into the provenance (feature files)
};

struct DecodedVideo {
    EncodedVideo video;  ///< with frame times, sampling, source name and extras filled
    at::Tensor frames;   ///< uint8 RGB [T, H, W, 3] when keepFrames, else undefined
    VideoInfo info;
    std::vector<std::int64_t> frameIndices;
    double decodeSeconds = 0, encodeSeconds = 0;
};

/// The name a feature file records as its `source`: the video's file (or frame folder's) name.
std::string videoSourceName(std::string path);

/// SHA-256 of a video file, or of a frame folder (over "name<TAB>sha256-of-file\n" lines of all
/// its files in byte order of their names).
std::string sourceSha256(const std::string& path);

/// Decodes the frames `options.sampling` selects and encodes them with `encoder`. Throws
/// OnceError from the decoder (naming the file) or the encoder, Cancelled through `progress`.
DecodedVideo decodeAndEncode(const std::string& path, VisualEncoder& encoder,
                             const DecodeEncodeOptions& options, Progress* progress = nullptr);

/// decodeAndEncode as a function of the path whose encoder (`backbone` with `encoder` options)
/// is built on first use and then kept: a corpus of feature files never loads weights, a corpus
/// of videos loads them once. Stage A's VideoEncodeFn (train/sketch_cache.h).
std::function<EncodedVideo(const std::string& path, Progress* progress)> lazyDecodeEncode(
    const std::string& backbone, const EncoderOptions& encoder, const DecodeEncodeOptions& options);

}  // namespace once
