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

struct SamplingRule {
    enum class Kind { Uniform, Fps };
    Kind kind = Kind::Uniform;
    int count = 32;                      ///< Uniform: number of frames
    double fps = 1;                      ///< Fps: frames per second of video
    int minFrames = 4, maxFrames = 256;  ///< Fps: clamp of the frame count
    double start = 0, end = -1;          ///< window in seconds; end < 0: to the end

    /// Throws OnceError (field "sampling") naming the bad part of `text`.
    static SamplingRule parse(const std::string& text);
    /// Canonical text form; parse(toString()) gives the same rule.
    std::string toString() const;
};

/// Frame indices (ascending, absolute) for a video of `totalFrames` frames at `fps` frames per
/// second. Empty when the window holds no frame. Throws OnceError when totalFrames < 1 or the
/// rule needs an fps and `fps` is not positive.
std::vector<std::int64_t> sampleIndices(const SamplingRule& rule, std::int64_t totalFrames,
                                        double fps);

}  // namespace once
