// clang-format off
// fuzz-sources: core/serve/chat_request.cpp core/serve/media_url.cpp core/serve/api_error.cpp core/video/sampling_rule.cpp core/util/json_file.cpp core/util/regular_file.cpp core/util/safe_path.cpp core/util/error.cpp
// fuzz-max-len: 16384
// clang-format on
// libFuzzer target for the bodies of `once serve`'s POST /v1/chat/completions and
// POST /v1/once/compress (serve/chat_request.h; both parsers get every input, so the seeds of
// either reach both): any bytes must either parse into a request that keeps the limits
// (text, tokens, budget, one video, decoded data within the video limit, a once-video: hash of
// 64 lowercase hex digits) or throw OnceError
// (ApiError included); never crash, hang or allocate past the limits. Small limits, so that the
// fuzzer reaches them.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "serve/chat_request.h"
#include "util/error.h"

namespace {
// A once-video: hash is exactly 64 lowercase hex digits and nothing else of the video is set.
bool badHash(const once::serve::VideoSource& v) {
    return v.isCached() &&
           (v.cachedSha256.size() != 64 ||
            v.cachedSha256.find_first_not_of("0123456789abcdef") != std::string::npos ||
            !v.bytes.empty() || !v.filePath.empty());
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    once::serve::RequestLimits limits;
    limits.maxBodyBytes = 12000;
    limits.maxVideoBytes = 4096;
    limits.maxTextBytes = 2048;
    limits.maxNewTokens = 64;
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    try {
        const once::serve::CompressRequest r = once::serve::parseCompressRequest(body, limits);
        if (r.video.bytes.size() > limits.maxVideoBytes || r.once.dense ||
            (r.once.budget && *r.once.budget < 1) || (r.video.isData() && r.video.bytes.empty()) ||
            badHash(r.video)) {
            std::abort();  // a compression outside the limits was accepted
        }
    } catch (const once::OnceError&) {
    }
    try {
        const once::serve::ChatRequest r = once::serve::parseChatRequest(body, limits);
        if (r.question.size() > limits.maxTextBytes || r.system.size() > limits.maxTextBytes ||
            r.video.bytes.size() > limits.maxVideoBytes ||
            (r.maxTokens && (*r.maxTokens < 1 || *r.maxTokens > limits.maxNewTokens)) ||
            (r.once.budget && *r.once.budget < 1) || (r.once.budget && r.once.dense) ||
            (r.video.isData() && r.video.bytes.empty()) || badHash(r.video) || r.topP <= 0 ||
            r.topP > 1 || r.temperature < 0 || r.temperature > 2) {
            std::abort();  // a request outside the limits was accepted
        }
    } catch (const once::OnceError&) {
    }
    return 0;
}
