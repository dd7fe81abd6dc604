#include "analysis/group_difference.h"

#include <ATen/ATen.h>

#include <map>
#include <string>

#include "util/error.h"

namespace once {

double GroupDifference::keptShare() const {
    const std::int64_t both = same + moved;
    return both > 0 ? static_cast<double>(same) / static_cast<double>(both) : 1.0;
}

GroupDifference compareGroupings(const at::Tensor& groupOfTokenA, const at::Tensor& groupOfTokenB) {
    if (groupOfTokenA.numel() != groupOfTokenB.numel()) {
        fail("group difference: the two compressions are of different videos", {}, "tokens",
             std::to_string(groupOfTokenA.numel()) + " (A)",
             std::to_string(groupOfTokenB.numel()) + " (B)");
    }
    const at::Tensor a = groupOfTokenA.to(at::kCPU, at::kLong).contiguous().reshape({-1});
    const at::Tensor b = groupOfTokenB.to(at::kCPU, at::kLong).contiguous().reshape({-1});
    const std::int64_t* ga = a.data_ptr<std::int64_t>();
    const std::int64_t* gb = b.data_ptr<std::int64_t>();
    const std::int64_t n = a.numel();
    // Overlap counts of (A group, B group) and (B group, A group): sparse, at most N pairs.
    std::map<std::int64_t, std::map<std::int64_t, std::int64_t>> overlapAB, overlapBA;
    for (std::int64_t i = 0; i < n; ++i) {
        if (ga[i] >= 0 && gb[i] >= 0) {
            ++overlapAB[ga[i]][gb[i]];
            ++overlapBA[gb[i]][ga[i]];
        }
    }
    const auto bestMatches = [](const auto& overlap) {
        std::map<std::int64_t, std::int64_t> match;  // group → the other side's of most members
        for (const auto& [group, row] : overlap) {
            std::int64_t best = -1, count = 0;
            for (const auto& [other, c] : row) {  // ascending: a tie keeps the lower row
                if (c > count) {
                    best = other;
                    count = c;
                }
            }
            match[group] = best;
        }
        return match;
    };
    std::map<std::int64_t, std::int64_t> matchAB = bestMatches(overlapAB);
    std::map<std::int64_t, std::int64_t> matchBA = bestMatches(overlapBA);
    GroupDifference d;
    d.state.resize(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        std::uint8_t s;
        if (ga[i] < 0 && gb[i] < 0) {
            s = GroupDifference::DroppedInBoth;
            ++d.droppedInBoth;
        } else if (ga[i] < 0) {
            s = GroupDifference::DroppedInA;
            ++d.droppedInA;
        } else if (gb[i] < 0) {
            s = GroupDifference::DroppedInB;
            ++d.droppedInB;
        } else if (matchAB[ga[i]] == gb[i] && matchBA[gb[i]] == ga[i]) {
            s = GroupDifference::Same;
            ++d.same;
        } else {
            s = GroupDifference::Moved;
            ++d.moved;
        }
        d.state[static_cast<std::size_t>(i)] = s;
    }
    return d;
}

}  // namespace once
