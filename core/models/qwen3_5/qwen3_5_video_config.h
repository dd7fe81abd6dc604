#pragma once
// Qwen3.5's video preprocessing settings (transformers' Qwen3VLVideoProcessor) and the parts of
// its processing that need no LibTorch: the smart resize to the merge grid within the pixel
// budget and the per-temporal-group timestamps of the prompt. Parsed from untrusted files and
// fuzzed with the model config (tests/fuzz/fuzz_qwen3_5_config.cpp).
#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace once {

/// Largest frame side and pixel budget accepted from a processor file or a frame (pixels):
/// 2^15 per side, 2^31 pixels per video (Qwen3-VL's published budget is 25,165,824).
constexpr std::int64_t kMaxQwen35FrameSide = 32768;
constexpr std::int64_t kMaxQwen35PixelBudget = std::int64_t(1) << 31;
/// Most frames one processor call takes (the paper samples at most 256).
constexpr std::int64_t kMaxQwen35Frames = 4096;
/// Sizes the processor derives from the settings, bounded before anything is allocated (a
/// pixel budget of 2^31, inside the file limits, would resize a 64x48 clip to 20096x26784 a
/// frame): a resized frame holds at most 2^24 pixels (4096 x 4096; Qwen3-VL's published
/// settings give at most 786,432), a video at most 2^17 merged tokens (Qwen3.5's context is
/// 262,144 tokens; the published budget gives 12,288).
constexpr std::int64_t kMaxQwen35ResizedFramePixels = std::int64_t(1) << 24;
constexpr std::int64_t kMaxQwen35VideoTokens = std::int64_t(1) << 17;

struct Qwen3_5VideoSettings {
    // Qwen3VLVideoProcessor's class defaults.
    std::int64_t minPixels = 128 * 32 * 32;  ///< size.shortest_edge
    std::int64_t maxPixels = 32 * 32 * 768;  ///< size.longest_edge
    std::int64_t patchSize = 16, temporalPatchSize = 2, mergeSize = 2;
    double rescaleFactor = 1.0 / 255.0;
    std::array<double, 3> mean{0.5, 0.5, 0.5}, std{0.5, 0.5, 0.5};
    bool doRescale = true, doNormalize = true;
    double fps = 2.0;  ///< sampling rate the processor would use (the paper's 2 FPS)
    std::int64_t minFrames = 4, maxFrames = 768;
    bool capPixelsPerFrame = false;  ///< qwen-vl-utils' per-frame cap (transformers: off)
    std::int64_t maxVideoTokens = 768;
    std::string source;  ///< the file (and object) read; empty: class defaults
    std::string notice;  ///< non-empty when no file gave the settings

    /// The frame sampling transformers' sample_frames applies with these settings, as a rule:
    /// fps:FPS:MIN:MAX (min_frames above max_frames lowered to it, which gives the same count;
    /// max_frames above kMaxSampledFrames capped there). Throws OnceError naming the file and
    /// the fps field for a rate above 10^6 frames per second.
    std::string samplingRule() const;
    /// For the user: the rule, the file and values it came from, and the paper's rule.
    std::string samplingNotice() const;

    /// From `folder`: processor_config.json's "video_processor" (transformers 5), else
    /// video_preprocessor_config.json (hub folders), else the class defaults with a notice.
    /// Throws OnceError naming the file and field for a malformed or out-of-range value, a
    /// resampling other than bicubic (3) or do_resize false.
    static Qwen3_5VideoSettings fromFolder(const std::string& folder);
    /// From one processor object; `file` and `prefix` ("video_processor.") name it in errors.
    static Qwen3_5VideoSettings fromJson(const nlohmann::json& j, const std::string& file,
                                         const std::string& prefix = {});
};

/// transformers' smart_resize (Qwen3-VL video): (height, width) rounded to multiples of
/// `factor` (patch × merge) with t·h·w inside [minPixels, maxPixels] (t = frame count rounded to
/// the temporal patch), Python's round-half-even included. Throws OnceError for fewer frames than
/// the temporal patch, a side of zero or an aspect ratio above 200, as the reference raises, and
/// for a result beyond kMaxQwen35ResizedFramePixels or kMaxQwen35VideoTokens, naming the
/// settings' file and the size field that asked for it.
std::pair<std::int64_t, std::int64_t> qwen3_5SmartResize(std::int64_t frames, std::int64_t height,
                                                         std::int64_t width,
                                                         const Qwen3_5VideoSettings& s);

/// Seconds of each temporal group: frame times index / fps (the last frame repeated to fill
/// the last group), the mean of each group's first and last. Throws OnceError for an empty list
/// or an fps that is not a positive number.
std::vector<double> qwen3_5GroupTimestamps(const std::vector<std::int64_t>& frameIndices,
                                           double fps, std::int64_t temporalPatch);
/// The same from frame times in seconds (a reader's decoded timestamps).
std::vector<double> qwen3_5GroupTimestamps(const std::vector<double>& frameSeconds,
                                           std::int64_t temporalPatch);

}  // namespace once
