#pragma once
// The encode job (DESIGN §1 front half): video -> sampled frames -> visual encoder -> feature
// file with frame times, grid, backbone, sampling rule and the source's SHA-256.
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "encode/decode_encode.h"
#include "features/feature_file.h"
#include "models/visual_encoder.h"
#include "util/atomic_file.h"
#include "util/progress.h"
#include "video/sampling_rule.h"
#include "video/video_reader.h"

namespace once {

struct EncodeOptions {
    std::string backbone = "demo";
    EncoderOptions encoder;
    SamplingRule sampling;               ///< default uniform:32 (LLaVA-OneVision)
    std::string storeDtype = "float32";  ///< dtype of the stored features: float32 | bfloat16
    VideoLimits videoLimits{};           ///< decoding limits (docs/security.md)
    /// What may stand at an output's name (`--overwrite`: anything but a folder); in a batch
    /// also files the tool did not write (encode/batch_outputs.h).
    OutputReplace replace = OutputReplace::regularFile;
};

struct EncodeReport {
    std::string video, output, backbone, sampling, sourceSha256;
    VideoInfo info;
    /// frames: of the features (Qwen3.5: temporal pairs); sampledFrames: decoded from the video.
    std::int64_t frames = 0, sampledFrames = 0, patches = 0, dim = 0;
    int gridH = 0, gridW = 0;
    double decodeSeconds = 0, encodeSeconds = 0, totalSeconds = 0;
    std::vector<std::string> notices;  ///< the encoder's (VisualEncoder::notices)
};

/// Encodes one video with an encoder the caller keeps (so a batch loads weights once): the
/// features on the CPU in options.storeDtype, with the source's SHA-256, ready to save.
EncodedVideo encodeVideo(const std::string& video, VisualEncoder& encoder,
                         const EncodeOptions& options, Progress* progress = nullptr,
                         EncodeReport* report = nullptr);

/// Makes the encoder from `options`, encodes `video` and writes `output` atomically.
EncodeReport encodeVideoToFile(const std::string& video, const std::string& output,
                               const EncodeOptions& options, Progress* progress = nullptr);

/// One-object JSON summary (what `once encode --json` prints; util/json_text.h writes it,
/// whatever bytes the video's name holds).
nlohmann::json encodeReportJson(const EncodeReport& report);

}  // namespace once
