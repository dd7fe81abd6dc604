#pragma once
// Qwen3.5's 3-D M-RoPE positions of a prompt (Qwen3_5Model.get_rope_index of transformers 5),
// without LibTorch. Text tokens advance one position on all three axes; the video tokens of one
// temporal group (the Qwen3-VL prompt puts each group between its own timestamp and vision
// start/end tokens) share the temporal position of the group's first token, and their height
// and width positions run over the merged grid from that same start; the next token then starts
// max(h, w) / merge positions later.
#include <cstdint>
#include <vector>

namespace once {

/// One video's patch grid as the processor reports it (video_grid_thw): t temporal groups of
/// h × w patches; h and w are multiples of the spatial merge size.
struct Qwen3_5Grid {
    std::int64_t t = 0, h = 0, w = 0;
    std::int64_t patches() const { return t * h * w; }
};

struct Qwen3_5Positions {
    std::vector<std::int64_t> t, h, w;  ///< one entry per token
    /// max(position) + 1 - length: what decoding adds to the running token count.
    std::int64_t ropeDelta = 0;
};

/// Positions of `ids`, whose runs of `videoTokenId` are the temporal groups of `videos` in order
/// (t groups per video, each (h/merge)·(w/merge) tokens long). Throws OnceError naming
/// "input_ids" when the runs do not match the grids.
Qwen3_5Positions qwen3_5RopeIndex(const std::vector<std::int64_t>& ids, std::int64_t videoTokenId,
                                  const std::vector<Qwen3_5Grid>& videos, std::int64_t merge);

}  // namespace once
