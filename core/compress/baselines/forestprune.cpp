// ForestPrune (CVPR 2026 Findings), following luminousllsa/ForestPrune
// llava/model/llava_arch_forest.py as its scripts run it (METHOD=forestprune, KEEP_RATIO,
// TAU, TAU_SPATIAL, GPRUNE_RATIO; GraphPrunerConfig for the rest):
//   graph pruner  per frame, k = round(P·gprune_ratio) tokens: cosine graph A (entries below
//                 `similarity` zeroed), A/temperature, |A| < 1e-6 set to −5000, row softmax;
//                 score_j = (‖x‖ᵀ A^iterate_num)_j / degree_j, degree = positive entries of a row.
//   forest        frame by frame, a kept token joins the tree holding the earlier node of
//                 highest cosine ≥ tau whose normalised Chebyshev grid distance is ≤ 1 −
//                 tau_spatial (ties: smaller distance, then lower tree id; forest_matcher.h), as a
//                 child of that tree's newest node; otherwise it starts a new tree.
//   budget        K = round(total·keep_ratio / gprune_ratio) with keep_ratio = B / N (B when
//                 P·gprune_ratio is whole). With more than K roots, the most cosine-similar pair
//                 of remaining roots (earlier one the parent) merges, greedily, until K remain.
//   selection     the K nodes of smallest depth + frame / frame_divisor, in source order.
// The merge sequence does not depend on K, so prepare() plans all of it once (a heap of each
// root's best later root, O(R²) instead of the public loop's O(R³)) and a budget only replays
// its first R − K merges. Ties (exact equality) go to the lower index everywhere, which is what
// the public code's CUDA kernels do (docs/baselines.md). Deviations: the grid is the video's (the
// public code takes a square of side int(√P)); K is also capped at B so that M <= B.
// Cost: graph pruner O(T·P²·D); forest O(T²·k²·D·w) with k = P·gprune_ratio and w the share of
// grid rows within reach (each frame against the earlier kept nodes of those rows, in float32);
// root merging O(R²·D) with R <= T·k roots; compress() O(T·k·log(T·k)).
#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <queue>

#include "compress/baselines/baseline_common.h"
#include "compress/baselines/forest_matcher.h"
#include "util/error.h"

namespace once::baselines {
namespace {

struct ForestPruneParams {
    double tau = 0.9;
    double tauSpatial = 0.8;
    double gpruneRatio = 0.5;
    double temperature = 0.03;
    double similarity = 0.5;
    std::int64_t iterateNum = 5;
    double frameDivisor = 1000;
};

/// Python's round() of a double: to nearest, halves to even (the default rounding mode).
std::int64_t pyRound(double x) {
    return std::int64_t(std::nearbyint(x));
}

/// Tokens the graph pruner keeps per frame: int(round(P·ratio)), at most P.
std::int64_t keptPerFrame(std::int64_t patches, double ratio) {
    return std::min(patches, pyRound(double(patches) * ratio));
}

/// K for budget B: the public round(total·keep_ratio / gprune_ratio) with keep_ratio = B / N
/// (in its order of operations), capped at B and at the `total` kept nodes.
std::int64_t nodesForBudget(std::int64_t total, std::int64_t n, double ratio, std::int64_t budget) {
    const double keepRatio = double(budget) / double(n);
    return std::min({pyRound(double(total) * keepRatio / ratio), budget, total});
}

class ForestPrune final : public BaselineCompressor {
  public:
    explicit ForestPrune(ForestPruneParams params)
        : BaselineCompressor("forestprune"), params_(params) {}

  protected:
    void prepareMore() override {
        pruneFrames();
        buildForest();
        planRootMerges();
    }

    CompressionResult run(std::int64_t budget, std::uint64_t /*seed*/) override {
        const PreparedVideo& v = video();
        const auto total = std::int64_t(frame_.size());
        const std::int64_t k = nodesForBudget(total, v.numTokens(), params_.gpruneRatio, budget);
        if (k <= 0) {
            return emptyResult(v, budget);
        }
        std::vector<std::int64_t> parent = parent_;
        const auto roots = std::int64_t(roots_);
        for (std::int64_t m = 0; m < roots - k && m < std::int64_t(merges_.size()); ++m) {
            parent[std::size_t(merges_[std::size_t(m)].second)] = merges_[std::size_t(m)].first;
        }
        // A parent always has the lower id (an earlier frame, or the earlier root of a merge).
        std::vector<std::int64_t> depth(static_cast<std::size_t>(total), 0);
        std::vector<double> negKey(static_cast<std::size_t>(total));
        for (std::size_t g = 0; g < std::size_t(total); ++g) {
            if (parent[g] >= 0) {
                depth[g] = depth[std::size_t(parent[g])] + 1;
            }
            negKey[g] = -(double(depth[g]) + double(frame_[g]) / params_.frameDivisor);
        }
        std::vector<std::int64_t> kept;
        for (std::int64_t g : topKIndices(negKey, k)) {
            kept.push_back(frame_[std::size_t(g)] * v.patches + position_[std::size_t(g)]);
        }
        std::sort(kept.begin(), kept.end());
        std::vector<std::int64_t> group(std::size_t(v.numTokens()), -1);
        for (std::size_t i = 0; i < kept.size(); ++i) {
            group[std::size_t(kept[i])] = std::int64_t(i);
        }
        at::Tensor rows =
            v.x.view({-1, v.dim})
                .index_select(0, at::tensor(at::ArrayRef<std::int64_t>(kept), at::kLong));
        return makeResult(rows, group, v, budget);
    }

  private:
    /// The graph pruner of every frame: fills frame_, position_ (ascending within a frame, the
    /// order CUDA's unsorted topk gathers them in) and unit_ (their unit vectors, [total, D]).
    void pruneFrames() {
        const PreparedVideo& v = video();
        const std::int64_t k = keptPerFrame(v.patches, params_.gpruneRatio);
        frame_.clear();
        position_.clear();
        unit_ = at::empty({v.frames * std::max<std::int64_t>(k, 0), v.dim}, at::kDouble);
        for (std::int64_t t = 0; t < v.frames && k > 0; ++t) {
            const at::Tensor norms = v.x[t].norm(2, -1);
            const at::Tensor unit = v.x[t] / norms.clamp_min(1e-12).unsqueeze(1);  // F.normalize
            at::Tensor a = at::matmul(unit, unit.t());
            a.masked_fill_(a < params_.similarity, 0.0);
            a.div_(params_.temperature);
            a.masked_fill_(a.abs() < 1e-6, -5000.0);
            a = at::softmax(a, 1);
            const at::Tensor degree = (a > 0).sum(1).to(at::kDouble);
            // wᵀ A^n as n vector–matrix products (the public code forms A^n).
            at::Tensor w = norms.unsqueeze(0);
            for (std::int64_t i = 0; i < params_.iterateNum; ++i) {
                w = at::matmul(w, a);
            }
            at::Tensor score = (w.squeeze(0) / degree).contiguous();
            score.masked_fill_(at::isnan(score), 0.0);
            std::vector<double> s(score.data_ptr<double>(),
                                  score.data_ptr<double>() + score.numel());
            std::vector<std::int64_t> top = topKIndices(s, k);
            std::sort(top.begin(), top.end());
            for (std::int64_t p : top) {
                frame_.push_back(t);
                position_.push_back(p);
            }
            unit_.slice(0, t * k, (t + 1) * k)
                .copy_(unit.index_select(0, at::tensor(at::ArrayRef<std::int64_t>(top))));
        }
    }

    /// History trees over the kept nodes (ids in frame order): parent_.
    void buildForest() {
        const PreparedVideo& v = video();
        const auto total = std::int64_t(frame_.size());
        parent_.assign(std::size_t(total), -1);
        std::vector<std::int64_t> tree(std::size_t(total), -1);
        std::vector<std::int64_t> tail;  // newest node of each tree
        ForestMatcher match(unit_, position_, v.gridH, v.gridW, params_.tau, params_.tauSpatial);
        for (std::int64_t begin = 0, end = 0; begin < total; begin = end) {
            while (end < total && frame_[std::size_t(end)] == frame_[std::size_t(begin)]) {
                ++end;
            }
            const std::vector<std::int64_t> best = match.frame(begin, end, tree);
            const std::vector<std::int64_t> oldTail = tail;
            for (std::int64_t j = begin; j < end; ++j) {
                if (const std::int64_t i = best[std::size_t(j - begin)]; i >= 0) {
                    const std::int64_t id = tree[std::size_t(i)];
                    tree[std::size_t(j)] = id;
                    parent_[std::size_t(j)] = oldTail[std::size_t(id)];
                    tail[std::size_t(id)] = j;  // the newest joiner becomes the tail
                }
            }
            for (std::int64_t j = begin; j < end; ++j) {
                if (tree[std::size_t(j)] < 0) {
                    tree[std::size_t(j)] = std::int64_t(tail.size());
                    tail.push_back(j);
                }
            }
        }
    }

    /// The public greedy merge of excess roots, all of it: repeatedly the remaining pair
    /// (p, c), p < c, of highest cosine (first in row-major order on ties) makes c a child of p.
    /// Each remaining root keeps its best later root in a max-heap (ties: lower p); an entry
    /// whose child was merged meanwhile is recomputed when it surfaces.
    void planRootMerges() {
        std::vector<std::int64_t> rootIds;
        for (std::size_t g = 0; g < parent_.size(); ++g) {
            if (parent_[g] < 0) {
                rootIds.push_back(std::int64_t(g));
            }
        }
        roots_ = rootIds.size();
        merges_.clear();
        const auto r = std::int64_t(rootIds.size());
        if (r < 2) {
            return;
        }
        at::Tensor xr = unit_.index_select(0, at::tensor(at::ArrayRef<std::int64_t>(rootIds)));
        const at::Tensor sim = at::matmul(xr, xr.t()).contiguous();
        const double* sp = sim.data_ptr<double>();
        std::vector<char> removed(std::size_t(r), 0);
        struct Entry {
            double s;
            std::int64_t p, c;
        };
        auto later = [](const Entry& a, const Entry& b) {  // the heap's top is the max
            return a.s < b.s || (a.s == b.s && a.p > b.p);
        };
        std::priority_queue<Entry, std::vector<Entry>, decltype(later)> heap(later);
        auto pushBest = [&](std::int64_t p) {
            std::int64_t best = -1;
            for (std::int64_t c = p + 1; c < r; ++c) {
                if (!removed[std::size_t(c)] && (best < 0 || sp[p * r + c] > sp[p * r + best])) {
                    best = c;
                }
            }
            if (best >= 0) {
                heap.push({sp[p * r + best], p, best});
            }
        };
        for (std::int64_t p = 0; p < r; ++p) {
            pushBest(p);
        }
        while (!heap.empty() && std::int64_t(merges_.size()) < r - 1) {
            const Entry e = heap.top();
            heap.pop();
            if (removed[std::size_t(e.p)]) {
                continue;
            }
            if (!removed[std::size_t(e.c)]) {
                removed[std::size_t(e.c)] = 1;
                merges_.emplace_back(rootIds[std::size_t(e.p)], rootIds[std::size_t(e.c)]);
            }
            pushBest(e.p);
        }
    }

    ForestPruneParams params_;
    std::vector<std::int64_t> frame_, position_;  // per kept node, in id order
    at::Tensor unit_;                             // [total, D] unit vectors of the kept nodes
    std::vector<std::int64_t> parent_;            // forest parents (−1: root)
    std::size_t roots_ = 0;
    std::vector<std::pair<std::int64_t, std::int64_t>> merges_;  // (parent, child) node ids
};

const CompressorParams kDefaults = {{"tau", "0.9"},           {"tau_spatial", "0.8"},
                                    {"gprune_ratio", "0.5"},  {"temperature", "0.03"},
                                    {"similarity", "0.5"},    {"iterate_num", "5"},
                                    {"frame_divisor", "1000"}};

ForestPruneParams readParams(const CompressorParams& q) {
    const auto& d = compressorInfo("forestprune").defaults;
    ForestPruneParams p;
    p.tau = paramDouble("forestprune", q, d, "tau");
    p.tauSpatial = paramDouble("forestprune", q, d, "tau_spatial");
    p.gpruneRatio = paramDouble("forestprune", q, d, "gprune_ratio");
    p.temperature = paramDouble("forestprune", q, d, "temperature");
    p.similarity = paramDouble("forestprune", q, d, "similarity");
    p.iterateNum = paramInt("forestprune", q, d, "iterate_num");
    p.frameDivisor = paramDouble("forestprune", q, d, "frame_divisor");
    if (!(p.gpruneRatio > 0 && p.gpruneRatio <= 1) || !(p.temperature > 0) || p.iterateNum < 0 ||
        !(p.frameDivisor > 0)) {
        fail("parameter of method 'forestprune' out of range", {}, "forestprune",
             "0 < gprune_ratio <= 1, temperature > 0, iterate_num >= 0, frame_divisor > 0",
             "gprune_ratio=" + std::to_string(p.gpruneRatio) + " temperature=" +
                 std::to_string(p.temperature) + " iterate_num=" + std::to_string(p.iterateNum) +
                 " frame_divisor=" + std::to_string(p.frameDivisor));
    }
    return p;
}

const bool registered = [] {
    registerCompressor(
        {"forestprune",
         "ForestPrune: per-frame graph pruning, then history trees across frames; the roots and "
         "shallowest nodes are kept, excess roots merged greedily",
         "luminousllsa/ForestPrune llava/model/llava_arch_forest.py", kDefaults, false,
         "ForestPrune", false,
         [](const BudgetShape& s, const CompressorParams& q) {
             // The output stops changing once K reaches every kept node.
             const double ratio = readParams(q).gpruneRatio;
             const std::int64_t total = s.frames * keptPerFrame(s.patches, ratio);
             std::int64_t max = std::max<std::int64_t>(
                 total, std::int64_t((double(total) - 0.5) * double(s.tokens()) * ratio /
                                     double(std::max<std::int64_t>(total, 1))));
             while (total > 0 && nodesForBudget(total, s.tokens(), ratio, max) < total) {
                 ++max;
             }
             return BudgetRange{1, std::max<std::int64_t>(max, 1),
                                "the forest's roots first, then its shallowest nodes"};
         }},
        [](const CompressorSpec& spec) {
            return std::make_unique<ForestPrune>(readParams(spec.params));
        });
    return true;
}();

}  // namespace
}  // namespace once::baselines
