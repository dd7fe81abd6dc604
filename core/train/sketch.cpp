#include "train/sketch.h"

#include <ATen/ATen.h>

#include <cmath>
#include <limits>

#include "compress/seeded_random.h"
#include "train/spherical_kmeans.h"
#include "train/stage_a_manifest.h"
#include "util/error.h"

namespace once {

void SketchOptions::validate() const {
    auto bad = [](const std::string& field, const std::string& expected, const std::string& found) {
        fail("invalid Stage-A option", {}, field, expected, found);
    };
    if (bins < 1 || bins > kMaxSketchBins) {
        bad("bins", "1.." + std::to_string(kMaxSketchBins), std::to_string(bins));
    }
    if (!std::isfinite(tokensPerRep) || !(tokensPerRep > 0)) {
        bad("R", "a finite number > 0", std::to_string(tokensPerRep));
    }
    if (mMin < 1 || mMin > kMaxStageACount) {
        bad("m-min", "1.." + std::to_string(kMaxStageACount), std::to_string(mMin));
    }
    // Groups never span bins (each bin is partitioned on its own), so every non-empty bin needs a
    // representative or its tokens are summarised by none and Σ w_j = N (the cache's contract)
    // breaks. m = min(N, clip(⌈N/R⌉, m_min, m_max)) >= min(N, L) >= the non-empty bins for every
    // video exactly when m_min >= L (the cap never lowers m below m_min): refused up front, before
    // any Stage-A work.
    if (mMin < bins) {
        bad("m-min", ">= bins (" + std::to_string(bins) + "): one representative per timeline bin",
            std::to_string(mMin));
    }
    if (mMax < mMin || mMax > kMaxStageACount) {
        bad("m-max", std::to_string(mMin) + ".." + std::to_string(kMaxStageACount) + " (>= m-min)",
            std::to_string(mMax));
    }
    if (iterations < 0 || iterations > 1'000'000) {
        bad("iters", "0..1000000", std::to_string(iterations));
    }
}

std::int64_t sketchSize(std::int64_t numTokens, const SketchOptions& o) {
    // Clamped in double before the conversion: ⌈N/R⌉ is huge or not a number for a tiny or
    // invalid R, and converting such a double to an integer is undefined.
    const std::int64_t hi = std::max(o.mMin, o.mMax);
    const double target = std::ceil(double(numTokens) / o.tokensPerRep);
    std::int64_t m = hi;
    if (target < double(o.mMin)) {
        m = o.mMin;
    } else if (target < double(hi)) {
        m = std::int64_t(target);
    }
    return std::min(numTokens, m);
}

std::vector<std::int64_t> spreadAcrossBins(std::int64_t m, const std::vector<std::int64_t>& sizes) {
    std::vector<std::int64_t> out(sizes.size(), 0);
    std::vector<std::size_t> open;
    for (std::size_t b = 0; b < sizes.size(); ++b) {
        if (sizes[b] > 0) {
            open.push_back(b);
        }
    }
    if (open.empty() || m <= 0) {
        return out;
    }
    if (m < std::int64_t(open.size())) {
        for (std::int64_t j = 0; j < m; ++j) {  // evenly spaced bins, centred
            out[open[std::size_t((2 * j + 1) * std::int64_t(open.size()) / (2 * m))]] = 1;
        }
        return out;
    }
    // Water filling: bins smaller than the fair share are filled first; the rest share what is
    // left equally, the remainder going one each to the earliest bins.
    std::int64_t left = m;
    while (left > 0 && !open.empty()) {
        const auto n = std::int64_t(open.size());
        const std::int64_t share = left / n;
        auto small = std::find_if(open.begin(), open.end(),
                                  [&](std::size_t b) { return sizes[b] <= share; });
        if (small != open.end()) {
            out[*small] = sizes[*small];
            left -= sizes[*small];
            open.erase(small);
            continue;
        }
        for (std::int64_t i = 0; i < n; ++i) {
            out[open[std::size_t(i)]] = share + (i < left % n ? 1 : 0);
        }
        left = 0;
    }
    return out;
}

std::vector<int> frameBins(std::int64_t numFrames, const at::Tensor& frameTimes, int bins) {
    std::vector<double> t(static_cast<std::size_t>(numFrames));
    if (frameTimes.defined() && frameTimes.numel() == numFrames) {
        at::Tensor ft = frameTimes.to(at::kDouble).contiguous();
        std::copy_n(ft.data_ptr<double>(), numFrames, t.begin());
    } else {
        for (std::int64_t i = 0; i < numFrames; ++i) {
            t[std::size_t(i)] = double(i);
        }
    }
    if (bins < 1) {
        fail("at least one timeline bin is needed", {}, "bins", ">= 1", std::to_string(bins));
    }
    std::vector<int> out(static_cast<std::size_t>(numFrames), 0);
    if (numFrames == 0) {
        return out;
    }
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (!std::isfinite(t[i])) {
            fail("a frame time is not a finite number", {}, "frame_times", "finite seconds",
                 std::to_string(t[i]) + " at frame " + std::to_string(i));
        }
    }
    const double lo = *std::min_element(t.begin(), t.end());
    const double hi = *std::max_element(t.begin(), t.end());
    if (!std::isfinite(hi - lo)) {
        fail("the frame times span more than a finite number of seconds", {}, "frame_times",
             "a finite span", std::to_string(lo) + " .. " + std::to_string(hi));
    }
    for (std::size_t i = 0; i < t.size(); ++i) {
        double tau = hi > lo ? (t[i] - lo) / (hi - lo) : 0.0;  // in [0, 1]
        out[i] = std::clamp(int(std::floor(tau * bins)), 0, bins - 1);
    }
    return out;
}

std::int64_t resolveCappedMMax(const std::vector<std::int64_t>& tokenCounts,
                               const SketchOptions& options, std::int64_t cap) {
    auto total = [&](std::int64_t mMax) {
        SketchOptions o = options;
        o.mMax = mMax;
        std::int64_t sum = 0;
        for (std::int64_t n : tokenCounts) {
            // Saturates: with m_max near kMaxStageACount a large corpus would overflow.
            if (__builtin_add_overflow(sum, n < 0 ? std::max(mMax, o.mMin) : sketchSize(n, o),
                                       &sum)) {
                return std::numeric_limits<std::int64_t>::max();
            }
        }
        return sum;
    };
    if (cap <= 0 || total(options.mMax) <= cap) {
        return options.mMax;
    }
    std::int64_t lo = options.mMin, hi = options.mMax;  // total is monotone in m_max
    if (total(lo) > cap) {
        fail("the representative cap is too small for m_min on this corpus", {}, "cap",
             ">= " + std::to_string(total(lo)), std::to_string(cap));
    }
    while (lo < hi) {
        std::int64_t mid = (lo + hi + 1) / 2;
        if (total(mid) <= cap) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

namespace {

// Per group of `r`, the member of highest cosine to the group's final centroid (ties: the lower
// member), as an index into the video's tokens through `tokenOf`; -1 for an empty group. The
// representative's most typical patch: what the codebook explorer shows for it.
at::Tensor groupMedoids(const at::Tensor& rowsUnit, const SphericalLloydResult& r,
                        const std::vector<std::int64_t>& tokenOf) {
    const std::int64_t k = r.centroids.size(0);
    const at::Tensor assign = r.assign.to(at::kLong).contiguous();
    const at::Tensor cosine =
        (rowsUnit * r.centroids.index_select(0, assign)).sum(1).to(at::kFloat).contiguous();
    const std::int64_t* a = assign.data_ptr<std::int64_t>();
    const float* c = cosine.data_ptr<float>();
    std::vector<std::int64_t> best(static_cast<std::size_t>(k), -1);
    for (std::int64_t i = 0; i < assign.size(0); ++i) {
        auto& b = best[static_cast<std::size_t>(a[i])];
        if (b < 0 || c[i] > c[b]) {
            b = i;
        }
    }
    at::Tensor out = at::empty({k}, at::kLong);
    std::int64_t* o = out.data_ptr<std::int64_t>();
    for (std::int64_t g = 0; g < k; ++g) {
        const std::int64_t b = best[static_cast<std::size_t>(g)];
        o[g] = b < 0 ? -1 : tokenOf[static_cast<std::size_t>(b)];
    }
    return out;
}

}  // namespace

VideoSketch sketchVideo(const at::Tensor& features, const at::Tensor& frameTimes,
                        const SketchOptions& options, std::int64_t videoIndex) {
    if (features.dim() != 3 && features.dim() != 2) {
        fail("features must be [T, P, D] or [N, D]", {}, "features", "3-D or 2-D",
             std::to_string(features.dim()) + "-D");
    }
    options.validate();
    if (features.size(-1) < 1) {
        fail("features have no width", {}, "features", "D >= 1", "D = 0");
    }
    if (!at::isfinite(features).all().item<bool>()) {
        fail("features hold NaN or infinite values", {}, "features", "finite values",
             std::to_string(at::isfinite(features).logical_not().sum().item<std::int64_t>()) +
                 " non-finite values");
    }
    at::Tensor x3 = features.dim() == 3 ? features : features.unsqueeze(1);
    const std::int64_t frames = x3.size(0), perFrame = x3.size(1), d = x3.size(2);
    const std::int64_t n = frames * perFrame;
    if (n > std::numeric_limits<std::int32_t>::max()) {  // source counts are stored as int32
        fail("a video has too many tokens to sketch", {}, "features",
             "at most " + std::to_string(std::numeric_limits<std::int32_t>::max()) + " tokens",
             std::to_string(n));
    }
    at::Tensor xUnit = normalizeRows(x3.reshape({n, d}));
    std::vector<int> fb = frameBins(frames, frameTimes, options.bins);

    std::vector<std::vector<std::int64_t>> members(std::size_t(options.bins));
    for (std::int64_t f = 0; f < frames; ++f) {
        auto& v = members[std::size_t(fb[std::size_t(f)])];
        for (std::int64_t p = 0; p < perFrame; ++p) {
            v.push_back(f * perFrame + p);
        }
    }
    std::vector<std::int64_t> sizes;
    for (const auto& v : members) {
        sizes.push_back(std::int64_t(v.size()));
    }
    std::vector<std::int64_t> perBin = spreadAcrossBins(sketchSize(n, options), sizes);

    std::vector<at::Tensor> reps, weights, binIds, medoids;
    for (int b = 0; b < options.bins; ++b) {
        const std::int64_t mb = perBin[std::size_t(b)];
        if (mb == 0) {
            continue;
        }
        const auto& idx = members[std::size_t(b)];
        at::Tensor rows = xUnit.index_select(0, at::tensor(idx, at::kLong));
        // Distinct seed tokens from a seed that depends on (seed, video, bin) only.
        SplitMix64 mix(options.seed ^ (0x5851F42D4C957F2Dull * std::uint64_t(videoIndex + 1)) ^
                       (0x14057B7EF767814Full * std::uint64_t(b + 1)));
        auto perm = seededPermutation(std::int64_t(idx.size()), mix.next());
        perm.resize(std::size_t(mb));
        at::Tensor init = rows.index_select(0, at::tensor(perm, at::kLong));
        SphericalLloydResult r = sphericalLloyd(rows, {}, init, options.iterations);
        at::Tensor nonEmpty = r.mass.gt(0).nonzero().squeeze(1);
        medoids.push_back(groupMedoids(rows, r, idx).index_select(0, nonEmpty));
        reps.push_back(r.centroids.index_select(0, nonEmpty));
        weights.push_back(r.mass.index_select(0, nonEmpty).to(at::kInt));
        binIds.push_back(at::full({nonEmpty.size(0)}, b, at::kInt));
    }
    VideoSketch s;
    s.numTokens = n;
    if (reps.empty()) {
        s.reps = at::empty({0, d}, at::kFloat);
        s.weights = at::empty({0}, at::kInt);
        s.bins = at::empty({0}, at::kInt);
        s.medoids = at::empty({0}, at::kLong);
        return s;
    }
    s.reps = at::cat(reps);
    s.medoids = at::cat(medoids);
    s.weights = at::cat(weights);
    s.bins = at::cat(binIds);
    return s;
}

}  // namespace once
