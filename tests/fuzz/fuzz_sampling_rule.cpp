// clang-format off
// fuzz-sources: core/video/sampling_rule.cpp core/util/error.cpp
// clang-format on
// libFuzzer target for sampling-rule strings and the frame indices they select. Input: 8 bytes
// of frame count, 8 bytes of a double frame rate (any bits: NaN, Inf, negative), then the rule
// text. Any input must either give indices inside the video, at most kMaxSampledFrames of them,
// or throw OnceError; a rule must also read back from its own toString().
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "util/error.h"
#include "video/sampling_rule.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 16) {
        return 0;
    }
    std::int64_t total = 0;
    double fps = 0;
    std::memcpy(&total, data, 8);
    std::memcpy(&fps, data + 8, 8);
    const std::string text(reinterpret_cast<const char*>(data + 16), size - 16);
    once::SamplingRule rule;
    try {
        rule = once::SamplingRule::parse(text);
    } catch (const once::OnceError&) {
        return 0;
    }
    if (once::SamplingRule::parse(rule.toString()).toString() != rule.toString()) {
        std::abort();  // the canonical form does not read back
    }
    // Frame counts beyond a day of 1000 fps video are not worth the fuzzer's time.
    for (std::int64_t frames : {total, total % 100000, std::int64_t(1), std::int64_t(60)}) {
        try {
            const auto idx = once::sampleIndices(rule, frames, fps);
            if (idx.size() > std::size_t(once::kMaxSampledFrames)) {
                std::abort();
            }
            for (std::size_t i = 0; i < idx.size(); ++i) {
                if (idx[i] < 0 || idx[i] >= frames || (i > 0 && idx[i] < idx[i - 1])) {
                    std::abort();  // an index outside the video, or out of order
                }
            }
        } catch (const once::OnceError&) {
        }
    }
    return 0;
}
