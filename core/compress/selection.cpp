#include "compress/selection.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <numeric>

namespace once {
namespace {

// Codewords with votes > 0 and not yet taken, by (votes desc, index asc).
std::vector<std::int32_t> ranked(const std::vector<std::int64_t>& votes,
                                 const std::vector<char>& taken) {
    std::vector<std::int32_t> ids;
    for (std::size_t k = 0; k < votes.size(); ++k) {
        if (votes[k] > 0 && !taken[k]) {
            ids.push_back(std::int32_t(k));
        }
    }
    std::sort(ids.begin(), ids.end(), [&](std::int32_t a, std::int32_t b) {
        return votes[std::size_t(a)] != votes[std::size_t(b)]
                   ? votes[std::size_t(a)] > votes[std::size_t(b)]
                   : a < b;
    });
    return ids;
}

}  // namespace

std::int64_t countUsedCodewords(const Assignment& a) {
    return (a.counts > 0).sum().item<std::int64_t>();
}

std::vector<std::int32_t> selectCodewords(const Assignment& a, std::int64_t budget, int rounds,
                                          const std::vector<std::int64_t>& tokens) {
    const std::int64_t k = a.codebookSize, l = a.listSize();
    const std::int32_t* ids = a.topIds.data_ptr<std::int32_t>();
    const bool all = tokens.empty();
    const std::int64_t n = all ? a.numTokens : std::int64_t(tokens.size());
    auto tokenAt = [&](std::int64_t j) { return all ? j : tokens[std::size_t(j)]; };

    std::vector<std::int64_t> counts(std::size_t(k), 0);
    for (std::int64_t j = 0; j < n; ++j) {
        ++counts[std::size_t(ids[tokenAt(j) * l])];
    }
    std::int64_t used = 0;
    for (auto c : counts) {
        used += c > 0;
    }
    const std::int64_t total = std::min(budget, used);
    std::vector<std::int32_t> selected;
    std::vector<char> taken(std::size_t(k), 0);
    rounds = std::max(1, rounds);
    for (int q = 0; q < rounds && std::int64_t(selected.size()) < total; ++q) {
        const std::int64_t left = total - std::int64_t(selected.size());
        const std::int64_t want = (left + (rounds - q) - 1) / (rounds - q);
        std::vector<std::int64_t> votes(std::size_t(k), 0);
        if (q == 0) {
            votes = counts;
        } else {
            for (std::int64_t j = 0; j < n; ++j) {
                const std::int32_t* list = ids + tokenAt(j) * l;
                bool served = false;
                for (std::int64_t p = 0; p < l && !served; ++p) {
                    served = taken[std::size_t(list[p])];
                }
                if (!served) {
                    ++votes[std::size_t(list[0])];
                }
            }
        }
        std::vector<std::int32_t> order = ranked(votes, taken);
        if (std::int64_t(order.size()) < want) {
            // Everyone is served: fill the round from the remaining used codewords by n_k.
            std::vector<char> takenNow = taken;
            for (auto c : order) {
                takenNow[std::size_t(c)] = 1;
            }
            for (auto c : ranked(counts, takenNow)) {
                order.push_back(c);
            }
        }
        for (std::int64_t p = 0; p < want && p < std::int64_t(order.size()); ++p) {
            selected.push_back(order[std::size_t(p)]);
            taken[std::size_t(order[std::size_t(p)])] = 1;
        }
    }
    return selected;
}

}  // namespace once
