// clang-format off
// fuzz-sources: core/models/qwen3_5/qwen3_5_config.cpp core/models/qwen3_5/qwen3_5_video_config.cpp core/models/processor_ranges.cpp core/models/qwen3_5/qwen3_5_positions.cpp core/util/error.cpp core/util/atomic_file.cpp core/util/json_file.cpp core/util/regular_file.cpp core/video/sampling_rule.cpp
// clang-format on
// libFuzzer target for a Qwen3.5 folder's settings: config.json (Qwen3_5Config::parse), the video
// processor object (Qwen3_5VideoSettings::fromJson, the frame sampling rule it asks for, then
// smart resize and timestamps with values from the input) and the M-RoPE position rule over token
// ids from the input. The first
// byte picks the reader; the rest is its input. Any input must parse or throw OnceError; what
// parses must hold only values its reader promises.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "models/processor_ranges.h"
#include "models/qwen3_5/qwen3_5_config.h"
#include "models/qwen3_5/qwen3_5_positions.h"
#include "models/qwen3_5/qwen3_5_video_config.h"
#include "util/error.h"
#include "util/json_file.h"
#include "video/sampling_rule.h"

// A reader that lets through a value it promises to refuse aborts.
using once::fuzz::check;

namespace {

void checkConfig(const once::Qwen3_5Config& c) {
    const auto& t = c.text;
    check(t.vocabSize > 0 && t.vocabSize <= once::kMaxQwen35Vocab);
    check(t.hiddenSize > 0 && t.numHeads > 0 && t.numKvHeads > 0 && t.numHeads % t.numKvHeads == 0);
    check(t.numLayers > 0 && std::int64_t(t.fullAttention.size()) == t.numLayers);
    check(t.rotaryDim >= 2 && t.rotaryDim % 2 == 0 && t.rotaryDim <= t.headDim);
    check(2 * (t.mropeSection[0] + t.mropeSection[1] + t.mropeSection[2]) == t.rotaryDim);
    check(t.linearNumValueHeads % t.linearNumKeyHeads == 0 && t.convKernel >= 1);
    check(t.rmsNormEps > 0 && std::isfinite(t.ropeTheta) && t.ropeTheta > 0);
    const auto& v = c.vision;
    check(v.numHeads > 0 && v.hiddenSize % v.numHeads == 0 && v.headDim() % 4 == 0);
    check(v.positionGridSide * v.positionGridSide == v.numPositionEmbeddings);
    check(v.outHiddenSize == t.hiddenSize && v.inChannels == 3);
    for (std::int64_t id :
         {c.imageTokenId, c.videoTokenId, c.visionStartTokenId, c.visionEndTokenId}) {
        check(id >= 0 && id < t.vocabSize);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) {
        return 0;
    }
    const int which = data[0] % 3;
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        if (which == 0) {
            checkConfig(once::Qwen3_5Config::parse(text, "config.json"));
        } else if (which == 1) {
            const nlohmann::json j = once::parseJsonText(text, "processor_config.json");
            const once::Qwen3_5VideoSettings s = once::Qwen3_5VideoSettings::fromJson(
                j, "processor_config.json", "video_processor.");
            check(s.minPixels >= 1 && s.minPixels <= s.maxPixels && s.fps > 0);
            check(s.rescaleFactor >= once::kMinRescaleFactor &&
                  s.rescaleFactor <= once::kMaxRescaleFactor);
            for (int k = 0; k < 3; ++k) {
                check(std::abs(s.mean[k]) <= once::kMaxAbsImageMean &&
                      s.std[k] >= once::kMinImageStd && s.std[k] <= once::kMaxImageStd);
            }
            // The sampling the settings ask for is a rule the rule parser takes back unchanged.
            if (s.fps <= 1e6) {
                const std::string rule = s.samplingRule();
                check(once::SamplingRule::parse(rule).toString() == rule);
                check(s.samplingNotice().find(rule) != std::string::npos);
            }
            // Frame counts and sizes from the input's first bytes.
            const std::int64_t frames = size > 1 ? data[1] % 16 : 2;
            const std::int64_t h = size > 2 ? data[2] * 37 : 405, w = size > 3 ? data[3] * 53 : 720;
            const auto [rh, rw] = once::qwen3_5SmartResize(frames, h, w, s);
            const std::int64_t factor = s.patchSize * s.mergeSize;
            check(rh > 0 && rw > 0 && rh % factor == 0 && rw % factor == 0);
            check(rh <= once::kMaxQwen35FrameSide && rw <= once::kMaxQwen35FrameSide);
            check(rh * rw <= once::kMaxQwen35ResizedFramePixels);  // bounded before allocating
            std::vector<std::int64_t> idx;
            for (std::int64_t i = 0; i < frames; ++i) {
                idx.push_back(i * 7);
            }
            const auto ts = once::qwen3_5GroupTimestamps(idx, s.fps, s.temporalPatchSize);
            check(std::int64_t(ts.size()) ==
                  (frames + s.temporalPatchSize - 1) / s.temporalPatchSize);
        } else {
            // Token ids 0..3 (3 = the video token) and one grid from the first bytes.
            if (text.size() < 3) {
                return 0;
            }
            const once::Qwen3_5Grid g{text[0] % 5, text[1] % 9, text[2] % 9};
            std::vector<std::int64_t> ids;
            for (std::size_t i = 3; i < text.size() && i < 4096; ++i) {
                ids.push_back(std::uint8_t(text[i]) % 4);
            }
            const once::Qwen3_5Positions p = once::qwen3_5RopeIndex(ids, 3, {g}, 2);
            check(p.t.size() == ids.size() && p.h.size() == ids.size() && p.w.size() == ids.size());
        }
    } catch (const once::OnceError&) {
    }
    return 0;
}
