#pragma once
// Autoregressive generation over a Qwen2Model: greedy (the paper's evaluation) or sampling with
// temperature and top-p; stops on stop tokens or max new tokens; streams each token to a
// callback; honours cancellation between tokens.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "util/progress.h"

namespace once {

class Qwen2Model;
struct KvCache;

struct GenerationOptions {
    std::int64_t maxNewTokens = 16;
    double temperature = 0.0;  ///< 0: greedy (argmax, lowest id on ties)
    double topP = 1.0;         ///< nucleus sampling mass when temperature > 0
    std::uint64_t seed = 42;
    std::vector<std::int64_t> stopTokens;  ///< generation ends after emitting one of these
    /// Called after each new token (the stop token included); may throw Cancelled.
    std::function<void(std::int64_t)> onToken;
    /// Called once between the prefill and the first decoding step (e.g. to read and reset
    /// per-stage memory peaks).
    std::function<void()> onPrefilled;
    CancelToken cancel;
    /// How decoding steps run (generate() over a Qwen2Model): "auto" (a captured step graph
    /// where the device has one, i.e. CUDA; else the eager step), "eager" (Qwen2Model::forward
    /// per token), "static" (fixed shapes, not captured: what a graph replays, for tests) or
    /// "graph" (as auto, and reported where it falls back). models/qwen2/qwen2_static_decode.h.
    std::string decode = "auto";
};

struct GenerationResult {
    std::vector<std::int64_t> tokens;  ///< generated ids (a final stop token included)
    bool stoppedByToken = false;
    double prefillSeconds = 0, decodeSeconds = 0;
    std::int64_t promptLength = 0;
    std::string decodeMode = "eager";  ///< "eager", "static" or "graph": how the steps ran
    std::string decodeNote;            ///< why a requested graph was not used
};

/// The decoding loop every language model shares: `prefill()` returns the logits after the
/// prompt (the last row is used), `step(id)` those after one more token. Checks the sampling
/// options, times prefill and decoding (waiting for queued device work), streams, stops on a
/// stop token or maxNewTokens and honours cancellation between tokens.
GenerationResult runGeneration(std::int64_t promptLength,
                               const std::function<at::Tensor()>& prefill,
                               const std::function<at::Tensor(std::int64_t)>& step,
                               const GenerationOptions& options);

/// Prefills `promptEmbeddings` [S, hidden] into a fresh cache and generates.
GenerationResult generate(const Qwen2Model& model, const at::Tensor& promptEmbeddings,
                          const GenerationOptions& options);
/// Picks the next token from logits [vocab] (F32) under `options` (`generator` for sampling).
std::int64_t pickToken(const at::Tensor& logits, const GenerationOptions& options,
                       at::Generator& generator);

}  // namespace once
