#pragma once
// The JSON `once serve` answers with, in the OpenAI shapes clients parse (chat.completion,
// chat.completion.chunk as server-sent events, the error object), plus an extra `once` member
// with what a video-token server adds: visual tokens before and after compression, per-stage
// timings, the video's cache state and — when asked — the kept groups, so a client can draw
// what was kept. Extra members are ignored by OpenAI clients (the official Python package keeps
// them as attributes).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "serve/serve_engine.h"

namespace once::serve {

/// {"error": {"message", "type", "param", "code"}} — `param` and `code` null when empty.
nlohmann::json errorJson(const std::string& message, const std::string& type,
                         const std::string& param, const std::string& code = {});

/// The kept groups of a compressed answer: {"frames": T, "patches": P, "grid": [h, w],
/// "dropped": tokens in no group, "rows": [{"row": m, "codeword": k (−1: none), "size": n,
/// "members": [{"frame": t, "patches": [p, …]}, …]}, …]} in output-row order; null when dense.
nlohmann::json keptGroupsJson(const EngineAnswer& a);

/// usage: prompt_tokens, completion_tokens, total_tokens.
nlohmann::json usageJson(const EngineAnswer& a);

/// The `once` member: method, budget, visual_tokens {before, after, content, layout}, video
/// {sha256, cached, sampling, frames, patches, grid}, timings (seconds per stage, queue
/// included), stages, token_ids, prefill_flops, and groups when `withGroups`.
nlohmann::json onceJson(const EngineAnswer& a, bool withGroups);

/// "stop" (a stop token ended it) or "length" (max_tokens did).
std::string finishReason(const EngineAnswer& a);

/// A whole non-streamed chat.completion.
nlohmann::json completionJson(const std::string& id, std::int64_t created, const std::string& model,
                              const EngineAnswer& a, bool withGroups);

/// The answer of POST /v1/once/compress: {"id", "object": "once.compression", "created",
/// "model", "once": onceJson with the groups, plus "compression": {"outputs", "used_codewords",
/// "coverage", "prepare_ms", "prepared_now", "step_seconds": {assign, select, reassign, pool}}}.
/// Not a chat.completion: there is no message, so no OpenAI client mistakes it for one.
nlohmann::json compressionJson(const std::string& id, std::int64_t created,
                               const std::string& model, const EngineAnswer& a);

/// One chat.completion.chunk with `choices` (an array; empty for the usage chunk).
nlohmann::json chunkJson(const std::string& id, std::int64_t created, const std::string& model,
                         nlohmann::json choices);

/// One server-sent event: "data: <json>\n\n".
std::string sseData(const nlohmann::json& j);

}  // namespace once::serve
