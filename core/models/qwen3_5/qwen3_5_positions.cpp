#include "models/qwen3_5/qwen3_5_positions.h"

#include <algorithm>
#include <string>

#include "util/error.h"

namespace once {

Qwen3_5Positions qwen3_5RopeIndex(const std::vector<std::int64_t>& ids, std::int64_t videoTokenId,
                                  const std::vector<Qwen3_5Grid>& videos, std::int64_t merge) {
    if (merge < 1) {
        fail("spatial merge size must be positive", {}, "spatial_merge_size", ">= 1",
             std::to_string(merge));
    }
    // Every temporal group is its own grid of t = 1, as the reference splits video_grid_thw.
    std::vector<std::pair<std::int64_t, std::int64_t>> groups;  // merged (h, w)
    for (const Qwen3_5Grid& g : videos) {
        if (g.t < 1 || g.h < merge || g.w < merge || g.h % merge || g.w % merge) {
            fail("the video grid does not fit the merge size", {}, "video_grid_thw",
                 "t >= 1, h and w multiples of " + std::to_string(merge),
                 std::to_string(g.t) + " x " + std::to_string(g.h) + " x " + std::to_string(g.w));
        }
        for (std::int64_t i = 0; i < g.t; ++i) {
            groups.emplace_back(g.h / merge, g.w / merge);
        }
    }
    Qwen3_5Positions p;
    const std::size_t n = ids.size();
    p.t.reserve(n);
    p.h.reserve(n);
    p.w.reserve(n);
    std::int64_t current = 0, maxPos = -1;
    std::size_t group = 0;
    for (std::size_t i = 0; i < n;) {
        if (ids[i] != videoTokenId) {
            p.t.push_back(current);
            p.h.push_back(current);
            p.w.push_back(current);
            maxPos = std::max(maxPos, current);
            ++current;
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < n && ids[end] == videoTokenId) {
            ++end;
        }
        if (group >= groups.size()) {
            fail("more runs of video tokens than temporal groups", {}, "input_ids",
                 std::to_string(groups.size()) + " runs", "a run at token " + std::to_string(i));
        }
        const auto [gh, gw] = groups[group++];
        if (std::int64_t(end - i) != gh * gw) {
            fail("a run of video tokens does not match its grid", {}, "input_ids",
                 std::to_string(gh * gw) + " tokens (" + std::to_string(gh) + " x " +
                     std::to_string(gw) + ")",
                 std::to_string(end - i) + " at token " + std::to_string(i));
        }
        for (std::int64_t r = 0; r < gh; ++r) {
            for (std::int64_t c = 0; c < gw; ++c) {
                p.t.push_back(current);
                p.h.push_back(current + r);
                p.w.push_back(current + c);
            }
        }
        maxPos = std::max({maxPos, current + gh - 1, current + gw - 1});
        current += std::max(gh, gw);
        i = end;
    }
    if (group != groups.size()) {
        fail("fewer runs of video tokens than temporal groups", {}, "input_ids",
             std::to_string(groups.size()) + " runs", std::to_string(group));
    }
    p.ropeDelta = maxPos + 1 - std::int64_t(n);
    return p;
}

}  // namespace once
