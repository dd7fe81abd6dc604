#pragma once
// Which frames of a video go to the encoder (DESIGN §4, research §2).
//
// Syntax of a rule string (SamplingRule::parse / toString):
//   uniform:N               N frames at linspace(0, total-1, N) truncated to int (the
//                           LLaVA-OneVision evaluation code: np.linspace(..., dtype=int));
//                           N > total repeats frames, as that code does.
//   fps:F                   F frames per second of video, as qwen_vl_utils.smart_nframes:
//   fps:F:MIN:MAX           n = frames / video_fps * F clamped to [MIN, MAX] (defaults 4, 256)
//                           and to the frame count, then floored (without Qwen's factor-2
//                           rounding, which belongs to that backbone); indices
//                           torch.linspace(0, total-1, n) (float32) rounded half to even.
//   ...@S-E                 optional window suffix in seconds: only frames whose nominal time
//                           index/fps lies in [S, E] are candidates ("@10-20", "@5-" = to the
//                           end). Indices stay absolute (frame numbers of the whole video).
#include <cstdint>
#include <string>
#include <vector>

namespace once {

/// Most frames one rule may sample (N of uniform:N, MIN and MAX of fps:F:MIN:MAX). The decoded
/// frames are held in memory at once (T x H x W x 3 bytes), so T is bounded; 4096 is 16 times
/// the largest count the paper's backbones use (256).
constexpr int kMaxSampledFrames = 4096;
/// Most frames a rule may return when the window holds fewer distinct frames than it asks for
/// (uniform:N with N above the frame count repeats frames, as LLaVA-OneVision's evaluation code
/// does). Beyond this the rule is refused rather than copying a frame thousands of times.
constexpr int kMaxRepeatedSampledFrames = 256;
/// Largest window bound in seconds (about 116 days): larger values cannot name a frame of a
/// real video and would overflow the frame arithmetic.
constexpr double kMaxWindowSeconds = 1e7;

/// Most frames a video may have (about 38 days at 30 fps); a container claiming more is refused
/// (and float32 frame arithmetic, which the fps rule follows for parity, stays meaningful).
constexpr std::int64_t kMaxVideoFrames = 100'000'000;

struct SamplingRule {
    enum class Kind { Uniform, Fps };
    Kind kind = Kind::Uniform;
    int count = 32;                      ///< Uniform: number of frames
    double fps = 1;                      ///< Fps: frames per second of video
    int minFrames = 4, maxFrames = 256;  ///< Fps: clamp of the frame count
    double start = 0, end = -1;          ///< window in seconds; end < 0: to the end

    /// Throws OnceError (field "sampling") naming the bad part of `text`: counts outside
    /// 1..kMaxSampledFrames, fps or window bounds that are not finite, negative fps, window
    /// bounds above kMaxWindowSeconds.
    static SamplingRule parse(const std::string& text);
    /// Canonical text form; parse(toString()) gives the same rule.
    std::string toString() const;
};

/// Frame indices (ascending, absolute, each in 0..totalFrames-1) for a video of `totalFrames`
/// frames at `fps` frames per second. Empty when the window holds no frame. Throws OnceError
/// when totalFrames is outside 1..kMaxVideoFrames, when the rule needs an fps and `fps` is not a
/// positive finite number, and when it would repeat frames to return more than
/// kMaxRepeatedSampledFrames indices.
std::vector<std::int64_t> sampleIndices(const SamplingRule& rule, std::int64_t totalFrames,
                                        double fps);

}  // namespace once
