#include "models/qwen3_5/qwen3_5_pooled_prompt.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/qwen3_5/qwen3_5_processor.h"
#include "util/error.h"

namespace once {

PooledPositionRule parsePooledPositionRule(const std::string& name) {
    if (name == "first") {
        return PooledPositionRule::First;
    }
    if (name == "mean") {
        return PooledPositionRule::Mean;
    }
    if (name == "sequential") {
        return PooledPositionRule::Sequential;
    }
    fail("unknown rule for the positions of pooled tokens", {}, "positions",
         "first, mean or sequential", name);
}

std::string pooledPositionRuleName(PooledPositionRule rule) {
    switch (rule) {
        case PooledPositionRule::First:
            return "first";
        case PooledPositionRule::Mean:
            return "mean";
        case PooledPositionRule::Sequential:
            return "sequential";
    }
    return "first";
}

std::vector<std::int64_t> qwen3_5PlacementOrder(const std::vector<std::int64_t>& groupOfToken,
                                                std::int64_t rows) {
    const std::int64_t none = std::numeric_limits<std::int64_t>::max();
    std::vector<std::int64_t> first(std::size_t(std::max<std::int64_t>(rows, 0)), none);
    for (std::size_t i = 0; i < groupOfToken.size(); ++i) {
        const std::int64_t r = groupOfToken[i];
        if (r >= rows) {
            fail("a source token names an output row that does not exist", {}, "groupOfToken",
                 "-1 or a row < " + std::to_string(rows), std::to_string(r));
        }
        if (r >= 0) {
            first[std::size_t(r)] = std::min(first[std::size_t(r)], std::int64_t(i));
        }
    }
    std::vector<std::int64_t> order;
    for (std::int64_t r = 0; r < rows; ++r) {
        if (first[std::size_t(r)] == none) {
            fail("a compressed token has no source token, so it has no place in the prompt", {},
                 "groupOfToken", "at least one token per output row",
                 "none for row " + std::to_string(r));
        }
        order.push_back(r);
    }
    std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
        return first[std::size_t(a)] < first[std::size_t(b)];
    });
    return order;
}

Qwen3_5PooledPrompt qwen3_5PoolPrompt(const Qwen3_5VideoPrompt& dense,
                                      const Qwen3_5Positions& densePos,
                                      const std::vector<std::int64_t>& groupOfToken,
                                      std::int64_t rows, PooledPositionRule rule,
                                      std::int64_t spanBegin, std::int64_t spanEnd) {
    const std::vector<std::int64_t>& denseIds = dense.ids;
    const std::vector<std::int64_t>& groupStarts = dense.groupStarts;
    const std::int64_t tokensPerGroup = dense.tokensPerGroup, videoTokenId = dense.videoTokenId;
    const std::int64_t S = std::int64_t(denseIds.size());
    const std::int64_t groups = std::int64_t(groupStarts.size());
    const std::int64_t N = groups * tokensPerGroup;
    if (tokensPerGroup < 1 || std::int64_t(groupOfToken.size()) != N) {
        fail("the compressed tokens do not match the video's prompt", {}, "groupOfToken",
             std::to_string(N) + " source tokens (" + std::to_string(groups) + " groups of " +
                 std::to_string(tokensPerGroup) + ")",
             std::to_string(groupOfToken.size()));
    }
    if (std::int64_t(densePos.t.size()) != S || std::int64_t(densePos.h.size()) != S ||
        std::int64_t(densePos.w.size()) != S) {
        fail("positions do not match the prompt", {}, "positions", std::to_string(S) + " tokens",
             std::to_string(densePos.t.size()));
    }
    if (rows < 0 || !(0 <= spanBegin && spanBegin <= spanEnd && spanEnd <= S)) {
        fail("the video span does not fit the prompt", {}, "video span",
             "0 <= begin <= end <= " + std::to_string(S),
             std::to_string(spanBegin) + ".." + std::to_string(spanEnd));
    }
    for (std::int64_t g = 0; g < groups; ++g) {
        const std::int64_t s = groupStarts[std::size_t(g)];
        if (s < 0 || s + tokensPerGroup > S ||
            (g > 0 && s < groupStarts[std::size_t(g - 1)] + tokensPerGroup)) {
            fail("a temporal group does not fit the prompt", {}, "groupStarts",
                 "increasing runs inside " + std::to_string(S) + " tokens",
                 std::to_string(s) + " (group " + std::to_string(g) + ")");
        }
    }
    // First member (smallest source index) and the sums of the members' dense positions.
    const std::int64_t none = std::numeric_limits<std::int64_t>::max();
    std::vector<std::int64_t> first(std::size_t(rows), none), count(std::size_t(rows), 0);
    std::vector<double> sumT(std::size_t(rows), 0), sumH(std::size_t(rows), 0),
        sumW(std::size_t(rows), 0);
    for (std::int64_t i = 0; i < N; ++i) {
        const std::int64_t r = groupOfToken[std::size_t(i)];
        if (r < 0) {
            continue;
        }
        if (r >= rows) {
            fail("a source token names an output row that does not exist", {}, "groupOfToken",
                 "-1 or a row < " + std::to_string(rows), std::to_string(r));
        }
        const std::size_t at =
            std::size_t(groupStarts[std::size_t(i / tokensPerGroup)] + i % tokensPerGroup);
        first[std::size_t(r)] = std::min(first[std::size_t(r)], i);
        ++count[std::size_t(r)];
        sumT[std::size_t(r)] += double(densePos.t[at]);
        sumH[std::size_t(r)] += double(densePos.h[at]);
        sumW[std::size_t(r)] += double(densePos.w[at]);
    }
    // Ties cannot happen: a source token belongs to one row.
    const std::vector<std::int64_t> order = qwen3_5PlacementOrder(groupOfToken, rows);

    Qwen3_5PooledPrompt out;
    out.contentTokens = rows;
    out.layoutTokens = (spanEnd - spanBegin) - N;
    out.ids.reserve(std::size_t(S - N + rows));
    std::vector<std::int64_t> t, h, w;
    std::size_t next = 0;  // into `order`
    std::int64_t i = 0;
    for (std::int64_t g = 0; g < groups; ++g) {
        const std::int64_t s = groupStarts[std::size_t(g)];
        for (; i < s; ++i) {  // text and layout tokens before the group's run
            out.ids.push_back(denseIds[std::size_t(i)]);
            t.push_back(densePos.t[std::size_t(i)]);
            h.push_back(densePos.h[std::size_t(i)]);
            w.push_back(densePos.w[std::size_t(i)]);
        }
        const std::int64_t groupEnd = (g + 1) * tokensPerGroup;  // source index bound
        while (next < order.size() && first[std::size_t(order[next])] < groupEnd) {
            const std::int64_t r = order[next++];
            const std::size_t k = std::size_t(r);
            out.ids.push_back(videoTokenId);
            out.rowOrder.push_back(r);
            if (rule == PooledPositionRule::Mean) {
                const double n = double(count[k]);
                t.push_back(std::llround(sumT[k] / n));
                h.push_back(std::llround(sumH[k] / n));
                w.push_back(std::llround(sumW[k] / n));
            } else {
                const std::int64_t f = first[k];
                const std::size_t at =
                    std::size_t(groupStarts[std::size_t(f / tokensPerGroup)] + f % tokensPerGroup);
                t.push_back(densePos.t[at]);
                h.push_back(densePos.h[at]);
                w.push_back(densePos.w[at]);
            }
        }
        i = s + tokensPerGroup;
    }
    for (; i < S; ++i) {
        out.ids.push_back(denseIds[std::size_t(i)]);
        t.push_back(densePos.t[std::size_t(i)]);
        h.push_back(densePos.h[std::size_t(i)]);
        w.push_back(densePos.w[std::size_t(i)]);
    }
    const std::int64_t L = std::int64_t(out.ids.size());
    if (rule == PooledPositionRule::Sequential) {
        for (std::int64_t k = 0; k < L; ++k) {
            t[std::size_t(k)] = h[std::size_t(k)] = w[std::size_t(k)] = k;
        }
    }
    std::int64_t maxPos = -1;
    for (std::int64_t k = 0; k < L; ++k) {
        maxPos = std::max({maxPos, t[std::size_t(k)], h[std::size_t(k)], w[std::size_t(k)]});
    }
    out.positions.t = std::move(t);
    out.positions.h = std::move(h);
    out.positions.w = std::move(w);
    out.positions.ropeDelta = maxPos + 1 - L;
    return out;
}

}  // namespace once
