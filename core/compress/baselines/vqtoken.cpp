// VQToken's per-video adaptive k-means (Zhang et al.), following Hai-chao-Zhang/VQToken
// VQToken/cluster.py (AdaptiveKMeansTorch with method "elbow", KMeansTorch), the path the
// released model runs (token_dynamics_only_base):
//   X       the video's tokens flattened to [N, D] and L2-normalised;
//   init    k-means++: the first centre uniformly, each next one with probability ∝ squared
//           Euclidean distance to the nearest chosen centre + 1e-6;
//   Lloyd   assign by cosine (argmin 1 − cos), centre = mean of its members (kept when empty),
//           stop when ‖C − C'‖_F < tol (keeping C and its labels) or after max_iteration;
//   elbow   fit every K in [k_min, k_max], distortion Σ‖x − c‖², Δ² of the distortion curve;
//           K = max(argmax Δ² + 4, k_min): the public arithmetic, which adds 4 to an index into
//           the range rather than to its first K, so K lands in 12…22 for the default range;
//           then a fresh fit with that K.
// Budget: k_min and k_max are capped at the budget (and at N), and K at k_max, so M <= budget;
// with fewer than three K values there is no curvature and K = k_max. The output tokens are
// the cluster means of the original (unnormalised) features, empty clusters dropped, in
// cluster order. Randomness: one SplitMix64(seed) stream drives every fit in turn (the public
// code draws from torch's global generator); the multinomial draw is u · Σw against the
// running sum of w.
#include <ATen/ATen.h>

#include <algorithm>
#include <limits>

#include "compress/baselines/baseline_common.h"
#include "compress/seeded_random.h"
#include "util/error.h"

namespace once::baselines {
namespace {

struct VqParams {
    std::int64_t kMin = 12, kMax = 32, maxIteration = 100;
    double tol = 1e-4;
};

struct Fit {
    at::Tensor labels;     // [N] int64
    at::Tensor centroids;  // [K, D]
};

class VqToken final : public BaselineCompressor {
  public:
    explicit VqToken(VqParams params) : BaselineCompressor("vqtoken"), params_(params) {}

  protected:
    void prepareMore() override { unit_ = normalizeRows(video().x.view({-1, video().dim})); }

    CompressionResult run(std::int64_t budget, std::uint64_t seed) override {
        const PreparedVideo& v = video();
        const std::int64_t n = v.numTokens();
        const std::int64_t kMax = std::min({params_.kMax, budget, n});
        const std::int64_t kMin = std::min({params_.kMin, kMax});
        SplitMix64 rng(seed);
        std::int64_t k = kMax;
        if (kMax - kMin + 1 >= 3) {
            std::vector<double> distortion;
            for (std::int64_t kk = kMin; kk <= kMax; ++kk) {
                Fit f = fit(kk, rng);
                distortion.push_back(
                    (unit_ - f.centroids.index_select(0, f.labels)).pow(2).sum().item<double>());
            }
            std::int64_t best = 0;
            double bestCurve = 0;
            for (std::size_t i = 0; i + 2 < distortion.size(); ++i) {
                const double curve =
                    (distortion[i + 2] - distortion[i + 1]) - (distortion[i + 1] - distortion[i]);
                if (i == 0 || curve > bestCurve) {
                    bestCurve = curve;
                    best = std::int64_t(i);
                }
            }
            k = std::min(std::max(best + 4, kMin), kMax);
        }
        Fit f = fit(k, rng);
        // Compact the used clusters into output rows, in cluster order.
        at::Tensor counts = at::bincount(f.labels, {}, k);
        std::vector<std::int64_t> rowOf(std::size_t(k), -1);
        std::int64_t m = 0;
        for (std::int64_t c = 0; c < k; ++c) {
            if (counts[c].item<std::int64_t>() > 0) {
                rowOf[std::size_t(c)] = m++;
            }
        }
        const std::int64_t* label = f.labels.data_ptr<std::int64_t>();
        std::vector<std::int64_t> group(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i) {
            group[std::size_t(i)] = rowOf[std::size_t(label[i])];
        }
        const at::Tensor g = at::tensor(at::ArrayRef<std::int64_t>(group), at::kLong);
        at::Tensor sums =
            at::zeros({m, v.dim}, at::kDouble).index_add_(0, g, v.x.view({-1, v.dim}));
        at::Tensor sizes = at::bincount(g, {}, m).to(at::kDouble).unsqueeze(1);
        return makeResult(sums / sizes, group, v, budget);
    }

  private:
    at::Tensor initCentroids(std::int64_t k, SplitMix64& rng) const {
        const std::int64_t n = unit_.size(0);
        std::vector<std::int64_t> chosen{std::int64_t(rng.below(std::uint64_t(n)))};
        at::Tensor nearest = at::full({n}, std::numeric_limits<double>::infinity(), at::kDouble);
        for (std::int64_t c = 1; c < k; ++c) {
            const at::Tensor last = unit_[chosen.back()].unsqueeze(0);
            // Squared distances directly (the public code squares cdist's distances).
            nearest = at::minimum(nearest, (unit_ - last).pow(2).sum(1));
            const at::Tensor w = (nearest + 1e-6).contiguous();
            const double* wp = w.data_ptr<double>();
            std::vector<double> cumulative(static_cast<std::size_t>(n));
            double running = 0;
            for (std::int64_t i = 0; i < n; ++i) {
                running += wp[i];
                cumulative[std::size_t(i)] = running;
            }
            const double target = uniform01(rng.next()) * running;
            auto it = std::upper_bound(cumulative.begin(), cumulative.end(), target);
            chosen.push_back(std::min<std::int64_t>(it - cumulative.begin(), n - 1));
        }
        return unit_.index_select(0, at::tensor(at::ArrayRef<std::int64_t>(chosen), at::kLong));
    }

    Fit fit(std::int64_t k, SplitMix64& rng) const {
        at::Tensor centroids = initCentroids(k, rng);
        at::Tensor labels;
        for (std::int64_t it = 0; it < params_.maxIteration; ++it) {
            labels = (1.0 - at::matmul(unit_, normalizeRows(centroids).t())).argmin(1);
            at::Tensor counts = at::bincount(labels, {}, k).to(at::kDouble).unsqueeze(1);
            at::Tensor sums = at::zeros_like(centroids).index_add_(0, labels, unit_);
            at::Tensor updated = at::where(counts > 0, sums / counts.clamp_min(1.0), centroids);
            if ((centroids - updated).norm().item<double>() < params_.tol) {
                break;
            }
            centroids = updated;
        }
        return {labels.contiguous(), centroids};
    }

    VqParams params_;
    at::Tensor unit_;
};

const bool registered = [] {
    registerCompressor(
        {"vqtoken",
         "VQToken adaptive k-means: cosine k-means++ per video, K by the elbow rule over "
         "[k_min, k_max] capped by the budget, cluster means",
         "Hai-chao-Zhang/VQToken VQToken/cluster.py (AdaptiveKMeansTorch, elbow; KMeansTorch)",
         {{"k_min", "12"}, {"k_max", "32"}, {"max_iteration", "100"}, {"tol", "1e-4"}},
         false,
         "VQToken",
         false,
         [](const BudgetShape& s, const CompressorParams& params) {
             // The elbow rule picks K in [k_min, min(k_max, B)]: a budget above k_max changes
             // nothing, and the output count is the method's choice, not the budget.
             const auto& d = compressorInfo("vqtoken").defaults;
             const std::int64_t kMax = paramInt("vqtoken", params, d, "k_max");
             const std::int64_t kMin = paramInt("vqtoken", params, d, "k_min");
             return BudgetRange{1, std::min(kMax, s.tokens()),
                                "its own cluster count K in [" + std::to_string(kMin) + ", " +
                                    std::to_string(kMax) + "] by the elbow rule, capped by B"};
         }},
        [](const CompressorSpec& spec) {
            const auto& d = compressorInfo("vqtoken").defaults;
            VqParams p;
            p.kMin = paramInt("vqtoken", spec.params, d, "k_min");
            p.kMax = paramInt("vqtoken", spec.params, d, "k_max");
            p.maxIteration = paramInt("vqtoken", spec.params, d, "max_iteration");
            p.tol = paramDouble("vqtoken", spec.params, d, "tol");
            if (p.kMin < 1 || p.kMax < p.kMin || p.maxIteration < 1) {
                fail("parameter of method 'vqtoken' out of range", {}, "k_min, k_max",
                     "1 <= k_min <= k_max, max_iteration >= 1",
                     std::to_string(p.kMin) + ", " + std::to_string(p.kMax));
            }
            return std::make_unique<VqToken>(p);
        });
    return true;
}();

}  // namespace
}  // namespace once::baselines
