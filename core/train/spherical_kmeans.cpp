#include "train/spherical_kmeans.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>

#include "compress/assign_backend.h"
#include "compress/top_l_scan.h"
#include "util/error.h"

namespace once {
namespace {

// From this many centroids and this width on, the nearest one comes from the compressor's
// assignment kernel. Below, its 16 F32 re-scores per row cost more than the BF16 product saves
// (8,192 × 1,024 × 64: 22 ms against 8 ms through the tile loop below).
constexpr std::int64_t kLargeK = 512, kWideD = 256;

}  // namespace

at::Tensor normalizeRows(const at::Tensor& x) {
    at::Tensor f = x.to(at::kFloat).contiguous();
    at::Tensor n = f.norm(2, {-1}, true).clamp_min(1e-12);
    return f / n;
}

std::int64_t nearestCentroidsTile(std::int64_t k, std::int64_t d, std::int64_t tileRows) {
    if (k >= kLargeK && d >= kWideD) {
        return std::max(1, AssignOptions{}.tileRows);  // the assignment kernel's own tiles
    }
    const std::int64_t cacheRows = (std::int64_t(1) << 20) / std::max<std::int64_t>(k, 1);
    return std::max<std::int64_t>(1, std::min(tileRows, std::max<std::int64_t>(cacheRows, 1024)));
}

Nearest nearestCentroids(const at::Tensor& xUnit, const at::Tensor& centroidsUnit,
                         std::int64_t tileRows) {
    const std::int64_t n = xUnit.size(0), k = centroidsUnit.size(0);
    Nearest out{at::empty({n}, at::kLong), at::empty({n}, at::kFloat)};
    if (n == 0) {
        return out;
    }
    if (k >= kLargeK && xUnit.size(1) >= kWideD) {
        // Many centroids: step 1 of the compressor with L = 1, whose float32 kernel on CPUs with
        // AVX512-BF16 takes the exact F32 argmax from the BF16 product (certified_topl.h), 3–4×
        // faster than the F32 GEMM; the same rule (cosine, ties to the lower index).
        AssignOptions o;
        o.topL = 1;
        Assignment a;
        makeAssignBackend("cpu")->assign(xUnit, centroidsUnit.to(at::kFloat).contiguous(), o, a,
                                         nullptr);
        out.ids = a.topIds.select(1, 0).to(at::kLong).contiguous();
        out.cosines = a.topScores.select(1, 0).contiguous();
        return out;
    }
    // Tiles of about 4 MiB of scores, reused: they stay in cache between the GEMM and the
    // argmax scan (AVX-512 where available, top_l_scan.h), instead of a fresh N×K-sized buffer
    // and ATen's max(1) per call. At least 1024 rows, though: every GEMM call packs all the
    // centroids, and at K = 8192 a 128-row tile spent more time packing them than multiplying
    // (one iteration at 65,536 × 8192 × 896: 7.7 s with 128 rows, docs/performance.md).
    const std::int64_t tile = std::min(nearestCentroidsTile(k, xUnit.size(1), tileRows), n);
    const at::Tensor x = xUnit.to(at::kFloat).contiguous();
    const at::Tensor ct = centroidsUnit.to(at::kFloat).t();
    at::Tensor buffer = at::empty({tile, k}, at::kFloat);
    std::int64_t* ids = out.ids.data_ptr<std::int64_t>();
    float* cosines = out.cosines.data_ptr<float>();
    for (std::int64_t b = 0; b < n; b += tile) {
        const std::int64_t e = std::min(n, b + tile);
        at::Tensor s = buffer.narrow(0, 0, e - b);
        at::mm_out(s, x.slice(0, b, e), ct);
        const float* sp = s.data_ptr<float>();
        at::parallel_for(b, e, 64, [&](std::int64_t r0, std::int64_t r1) {
            for (std::int64_t r = r0; r < r1; ++r) {
                std::int32_t id = 0;
                scanTopL(sp + (r - b) * k, k, 1, &id, cosines + r);  // ties: lower index
                ids[r] = id;
            }
        });
    }
    return out;
}

namespace {

// Moves the worst-fitting row of a group with ≥ 2 rows into every empty group.
void reseedEmptyGroups(at::Tensor& assign, const at::Tensor& cosines, at::Tensor& counts) {
    auto* cnt = counts.data_ptr<std::int64_t>();
    const std::int64_t k = counts.size(0);
    auto* a = assign.data_ptr<std::int64_t>();
    at::Tensor cosCopy = cosines.to(at::kDouble).contiguous();
    auto* c = cosCopy.data_ptr<double>();
    const std::int64_t n = assign.size(0);
    for (std::int64_t g = 0; g < k; ++g) {
        if (cnt[g] > 0) {
            continue;
        }
        std::int64_t best = -1;
        for (std::int64_t i = 0; i < n; ++i) {
            if (cnt[a[i]] >= 2 && (best < 0 || c[i] < c[best])) {
                best = i;
            }
        }
        if (best < 0) {
            return;  // fewer distinct rows than groups: nothing can be moved
        }
        --cnt[a[best]];
        a[best] = g;
        cnt[g] = 1;
        c[best] = 2.0;  // never move the same row twice
    }
}

}  // namespace

SphericalLloydResult sphericalLloyd(const at::Tensor& xUnit, const at::Tensor& weights,
                                    const at::Tensor& init, int iterations,
                                    const std::function<void(int, double)>& onIteration,
                                    std::int64_t tileRows) {
    if (xUnit.dim() != 2 || init.dim() != 2 || init.size(1) != xUnit.size(1)) {
        fail("spherical Lloyd: rows and centroids must be 2-D with the same width", {}, "centroids",
             "[k, " + std::to_string(xUnit.size(-1)) + "]", std::to_string(init.size(-1)));
    }
    if (iterations < 1) {
        fail("spherical Lloyd needs at least one iteration", {}, "iterations", ">= 1",
             std::to_string(iterations));
    }
    const std::int64_t k = init.size(0);
    at::Tensor w = weights.defined() ? weights.to(at::kFloat).contiguous()
                                     : at::ones({xUnit.size(0)}, at::kFloat);
    at::Tensor wx = xUnit * w.unsqueeze(1);
    SphericalLloydResult r;
    r.centroids = normalizeRows(init);
    for (int it = 0; it < iterations; ++it) {
        Nearest nn = nearestCentroids(xUnit, r.centroids, tileRows);
        at::Tensor assign = nn.ids.contiguous();
        at::Tensor counts = at::bincount(assign, {}, k).to(at::kLong).contiguous();
        reseedEmptyGroups(assign, nn.cosines, counts);
        // index_add_ on the CPU accumulates rows sequentially in index order: deterministic.
        at::Tensor sums = at::zeros({k, xUnit.size(1)}, at::kFloat).index_add_(0, assign, wx);
        at::Tensor keep = counts.gt(0).unsqueeze(1);
        r.centroids = at::where(keep, normalizeRows(sums), r.centroids);
        r.assign = assign;
        r.mass = at::zeros({k}, at::kDouble).index_add_(0, assign, w.to(at::kDouble));
        at::Tensor cos = (xUnit * r.centroids.index_select(0, assign)).sum(1);
        r.objective = (cos.to(at::kDouble) * w.to(at::kDouble)).sum().item<double>();
        if (onIteration) {
            onIteration(it + 1, r.objective);
        }
    }
    return r;
}

}  // namespace once
