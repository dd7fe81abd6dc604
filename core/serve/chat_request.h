#pragma once
// The body of POST /v1/chat/completions: the OpenAI chat format with the video as a `video_url`
// content part (as vLLM takes it) and ONCE's compression per request in an extra `once` object:
//   {"model": "…", "messages": [{"role": "system", "content": "…"},
//     {"role": "user", "content": [{"type": "video_url", "video_url": {"url": "file:///…"}},
//                                  {"type": "text", "text": "What happens?"}]}],
//    "max_tokens": 64, "temperature": 0, "stream": true, "stream_options": {"include_usage": true},
//    "once": {"method": "once", "budget": 64, "params": {"variant": "full"},
//             "return_groups": true, "sampling": "uniform:16"}}
// Every byte is untrusted: the body's size and nesting are limited before nlohmann parses it,
// every field is type-checked, and an error names the field (`param` of the OpenAI error).
// Torch-free (fuzzed: tests/fuzz/fuzz_chat_request.cpp).
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "serve/media_url.h"

namespace once::serve {

struct RequestLimits {
    std::size_t maxBodyBytes = std::size_t(512) << 20;
    std::size_t maxVideoBytes = std::size_t(256) << 20;  ///< decoded bytes of a video
    /// Deepest nesting of the body: a chat request nests 6 levels (object, messages, message,
    /// content, part, video_url); 16 leaves room and keeps nlohmann's recursion shallow.
    int maxJsonDepth = 16;
    std::size_t maxTextBytes = std::size_t(64) << 10;  ///< question and system prompt, each
    std::int64_t maxNewTokens = 4096;
};

/// The `once` member: which compressor, at which budget, with what parameters.
struct CompressionRequest {
    /// Budget B; nullopt with `dense` false: the server's default (--budget, or dense).
    std::optional<std::int64_t> budget;
    bool dense = false;  ///< "dense": true, or "budget": null — all visual tokens
    std::string method;  ///< registry name; empty: the server's --method
    std::map<std::string, std::string> params;  ///< method parameters (numbers as written)
    bool returnGroups = false;                  ///< answer with the kept groups
    std::string sampling;                       ///< frame sampling rule; empty: the server's
};

struct ChatRequest {
    std::string model;     ///< empty: the served model
    std::string system;    ///< system (or developer) message; empty: the prompt's default
    std::string question;  ///< the user message's text parts, joined by newlines
    VideoSource video;
    bool stream = false;
    bool includeUsage = false;  ///< stream_options.include_usage: a last chunk with usage
    std::optional<std::int64_t> maxTokens;  ///< max_completion_tokens or max_tokens
    double temperature = 0;  ///< absent: greedy (the evaluation's setting), not OpenAI's 1
    double topP = 1;
    std::uint64_t seed = 42;  ///< sampling and compressor seed
    CompressionRequest once;
};

/// The body of POST /v1/once/compress: the video and the compression of a chat request without
/// the conversation, for a client that only wants the kept groups (the studio's overlay and
/// budget sweep while connected):
///   {"model": "…", "video_url": {"url": "file:///…"}, "seed": 42,
///    "once": {"method": "once", "budget": 64, "params": {…}, "sampling": "uniform:16"}}
/// The groups are always returned (`once.return_groups` is accepted and ignored); dense is
/// refused (there is nothing to compress).
struct CompressRequest {
    std::string model;
    VideoSource video;
    std::uint64_t seed = 42;
    CompressionRequest once;
};

/// Parses and checks a request body. Throws ApiError (413 for a body over
/// limits.maxBodyBytes or a video over limits.maxVideoBytes, 400 for anything else) whose
/// where().field names the offending member, e.g. "messages[1].content[0].video_url.url".
ChatRequest parseChatRequest(std::string_view body, const RequestLimits& limits);
/// Parses and checks a /v1/once/compress body, with the same limits and errors.
CompressRequest parseCompressRequest(std::string_view body, const RequestLimits& limits);

}  // namespace once::serve
