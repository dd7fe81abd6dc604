#pragma once
// Where the pooled tokens of a compressed video go in Qwen3.5's video prompt and which (t, h, w)
// M-RoPE position each one gets (the paper's "rebuild the positions for Z"; docs/models.md,
// Qwen3.5). Torch-free: plain vectors in and out, so the rule is checked by hand in
// tests/models/test_qwen3_5_backbone.cpp.
//
// Placement (every rule): a pooled token goes into the temporal group of its first member in
// time (the smallest source index, frame-major), between that group's <|vision_start|> and
// <|vision_end|>; within a group, pooled tokens follow their first members' raster order. The
// layout tokens (per-group timestamps, vision start/end, the outer pair of the transformers 5
// layout) all stay, also around a group that keeps no token.
//
// Positions:
//  - First (default): the pooled token takes the dense position of its first member; every
//    other token keeps its dense position. The compressed prompt is the dense prompt with rows
//    removed and the kept rows' embeddings replaced: only positions the model saw in training,
//    monotone in time with the timestamps, no rounding.
//  - Mean: the mean of the members' dense (t, h, w), each rounded to the nearest integer (half
//    away from zero); the other tokens keep their dense positions.
//  - Sequential: the compressed prompt re-packed as text, t = h = w = 0 … S-1 (LLaVA's rule; the
//    ablation that drops the grid).
// Decoding continues from max(position) + 1 (ropeDelta).
#include <cstdint>
#include <string>
#include <vector>

#include "models/qwen3_5/qwen3_5_positions.h"

namespace once {

struct Qwen3_5VideoPrompt;  // qwen3_5_processor.h

enum class PooledPositionRule { First, Mean, Sequential };

/// "first", "mean" or "sequential"; throws OnceError naming the option "positions".
PooledPositionRule parsePooledPositionRule(const std::string& name);
std::string pooledPositionRuleName(PooledPositionRule rule);

struct Qwen3_5PooledPrompt {
    std::vector<std::int64_t> ids;  ///< the prompt, one video-pad id per pooled token
    Qwen3_5Positions positions;     ///< per token of `ids`, and the decode offset
    /// Output row of the compressor placed at each video-pad of `ids`, in prompt order.
    std::vector<std::int64_t> rowOrder;
    std::int64_t contentTokens = 0;  ///< pooled tokens in the prompt (rowOrder.size())
    /// Tokens of the video span that are not content: timestamps, vision start/end.
    std::int64_t layoutTokens = 0;
};

/// The output rows in prompt order: by first member (smallest source index in
/// `groupOfToken`, −1 = dropped). Throws OnceError for a row without member or out of range.
std::vector<std::int64_t> qwen3_5PlacementOrder(const std::vector<std::int64_t>& groupOfToken,
                                                std::int64_t rows);

/// Builds the compressed prompt from the dense one. `dense` holds `dense.groupStarts.size()`
/// runs of `dense.tokensPerGroup` video-pad ids (buildQwen3_5VideoPrompt of the video);
/// `densePositions` are their qwen3_5RopeIndex positions; `groupOfToken` gives for each of the
/// groups × tokensPerGroup source tokens (frame-major) its output row in [0, rows) or −1 when
/// dropped. `videoSpanBegin`/`videoSpanEnd` bound the video's part of the prompt (for the
/// layout count). Throws OnceError when the sizes do not fit or an output row has no member.
Qwen3_5PooledPrompt qwen3_5PoolPrompt(const Qwen3_5VideoPrompt& dense,
                                      const Qwen3_5Positions& densePositions,
                                      const std::vector<std::int64_t>& groupOfToken,
                                      std::int64_t rows, PooledPositionRule rule,
                                      std::int64_t videoSpanBegin, std::int64_t videoSpanEnd);

}  // namespace once
