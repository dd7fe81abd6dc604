#include "analysis/diagnostics.h"

#include <ATen/ATen.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "compress/seeded_random.h"
#include "train/spherical_kmeans.h"
#include "util/error.h"

namespace once {

namespace {

constexpr double kLevels[] = {50, 90, 95, 99};

struct VideoStats {
    std::vector<std::pair<std::int64_t, double>> mass;  // (code, Σ w) sorted by code
    double weight = 0, weightedResidual = 0;
    double r[4] = {0, 0, 0, 0};
};

// Σ w per code of each video, and its residual summaries, from per-row nearest codes.
std::vector<VideoStats> perVideo(const TokenSet& t, const Nearest& nn, const at::Tensor& w) {
    std::vector<std::vector<std::int64_t>> rows(std::size_t(t.numVideos));
    at::Tensor vid = t.video.to(at::kLong).contiguous();
    const auto* pv = vid.data_ptr<std::int64_t>();
    for (std::int64_t i = 0; i < vid.size(0); ++i) {
        if (pv[i] < 0 || pv[i] >= t.numVideos) {
            fail("a row's video index is out of range", {}, "video",
                 "0.." + std::to_string(t.numVideos - 1), std::to_string(pv[i]));
        }
        rows[std::size_t(pv[i])].push_back(i);
    }
    at::Tensor ids = nn.ids.contiguous();
    at::Tensor cos = nn.cosines.to(at::kDouble).contiguous();
    const auto* pid = ids.data_ptr<std::int64_t>();
    const auto* pc = cos.data_ptr<double>();
    const auto* pw = w.data_ptr<double>();
    std::vector<VideoStats> out(rows.size());
    for (std::size_t v = 0; v < rows.size(); ++v) {
        std::map<std::int64_t, double> m;
        std::vector<double> res;
        for (std::int64_t i : rows[v]) {
            m[pid[i]] += pw[i];
            res.push_back(1.0 - pc[i]);
            out[v].weight += pw[i];
            out[v].weightedResidual += pw[i] * (1.0 - pc[i]);
        }
        out[v].mass.assign(m.begin(), m.end());
        for (int l = 0; l < 4; ++l) {
            out[v].r[l] = res.empty() ? 0.0 : percentileLinear(res, kLevels[l]);
        }
    }
    return out;
}

// Nearest codewords of every row of the set, tile by tile (rows normalised per tile: the same
// values as normalising the whole set, one row at a time).
Nearest nearestOverTiles(const TokenSet& t, const at::Tensor& codebookUnit, std::int64_t tileRows) {
    const std::int64_t n = t.rows();
    // A multiple of nearestCentroids' own tile: the same products over the same rows as one
    // call over the whole set, hence the same bits whatever tileRows is.
    const std::int64_t inner = nearestCentroidsTile(codebookUnit.size(0), codebookUnit.size(1));
    const std::int64_t tile = (std::max<std::int64_t>(tileRows, 1) + inner - 1) / inner * inner;
    Nearest out{at::empty({n}, at::kLong), at::empty({n}, at::kFloat)};
    for (std::int64_t b = 0; b < n; b += tile) {
        const std::int64_t e = std::min(n, b + tile);
        const at::Tensor rows = t.x.defined() ? t.x.slice(0, b, e) : t.readRows(b, e);
        if (rows.dim() != 2 || rows.size(0) != e - b || rows.size(1) != t.width()) {
            fail("a tile of rows has the wrong shape", {}, "rows",
                 "[" + std::to_string(e - b) + ", " + std::to_string(t.width()) + "]",
                 std::to_string(rows.dim()) + " dimensions");
        }
        Nearest nn = nearestCentroids(normalizeRows(rows), codebookUnit);
        out.ids.slice(0, b, e).copy_(nn.ids);
        out.cosines.slice(0, b, e).copy_(nn.cosines);
    }
    return out;
}

struct Summary {
    double active = 0, entropy = 0, mce = 0, r[4] = {0, 0, 0, 0};
    std::vector<double> mass;
};

// Statistics of a multiset of videos (indices may repeat: bootstrap draws).
Summary summarise(const std::vector<VideoStats>& vs, const std::vector<std::int64_t>& pick,
                  std::int64_t k) {
    Summary s;
    s.mass.assign(std::size_t(k), 0.0);
    double wsum = 0, wres = 0;
    for (std::int64_t v : pick) {
        const auto& st = vs[std::size_t(v)];
        for (const auto& [code, m] : st.mass) {
            s.mass[std::size_t(code)] += m;
        }
        wsum += st.weight;
        wres += st.weightedResidual;
        for (int l = 0; l < 4; ++l) {
            s.r[l] += st.r[l] / double(pick.size());
        }
    }
    double total = 0, h = 0;
    std::int64_t active = 0;
    for (double m : s.mass) {
        total += m;
        active += m > 0 ? 1 : 0;
    }
    for (double m : s.mass) {
        if (m > 0) {
            h -= (m / total) * std::log(m / total);
        }
    }
    s.active = 100.0 * double(active) / double(k);
    s.entropy = 100.0 * std::exp(h) / double(k);
    s.mce = wsum > 0 ? wres / wsum : 0;
    return s;
}

Estimate interval(double value, const std::vector<double>& draws) {
    if (draws.empty()) {
        return {value, value, value};
    }
    return {value, percentileLinear(draws, 2.5), percentileLinear(draws, 97.5)};
}

nlohmann::json est(const Estimate& e) {
    return {{"value", e.value}, {"ci95", {e.lo, e.hi}}};
}

}  // namespace

double percentileLinear(std::vector<double> v, double p) {
    if (v.empty()) {
        return 0;
    }
    std::sort(v.begin(), v.end());
    const double pos = p / 100.0 * double(v.size() - 1);
    const auto lo = std::size_t(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (pos - double(lo)) * (v[hi] - v[lo]);
}

Diagnostics diagnoseCodebook(const at::Tensor& codebook, const TokenSet& t,
                             const DiagnosticsOptions& o, Progress* progress,
                             std::int64_t tileRows) {
    if (!t.x.defined() && (!t.readRows || !t.gatherRows)) {
        fail("no rows to diagnose", {}, "rows", "a tensor or a row reader", "neither");
    }
    if (codebook.dim() != 2 || (t.x.defined() && t.x.dim() != 2) || codebook.size(1) != t.width()) {
        fail("codebook and rows differ in width", {}, "D", std::to_string(codebook.size(-1)),
             std::to_string(t.x.defined() ? t.x.size(-1) : t.width()));
    }
    if (t.weights.numel() != t.rows() || t.video.numel() != t.rows()) {
        fail("weights or videos do not match the rows", {}, "weights",
             std::to_string(t.rows()) + " values",
             std::to_string(t.weights.numel()) + " weights, " + std::to_string(t.video.numel()) +
                 " videos");
    }
    const std::int64_t k = codebook.size(0), n = t.rows();
    at::Tensor w = t.weights.to(at::kDouble).contiguous();
    at::Tensor cn = normalizeRows(codebook);
    if (progress)
        progress->begin("diagnostics: nearest codewords", 1 + o.randomCodebooks);
    Nearest nn = nearestOverTiles(t, cn, tileRows);
    std::vector<VideoStats> vs = perVideo(t, nn, w);
    nn = Nearest{};
    std::vector<std::int64_t> all(vs.size());
    std::iota(all.begin(), all.end(), 0);

    Diagnostics d;
    d.codewords = k;
    d.rows = n;
    d.videos = t.numVideos;
    d.sourceTokens = w.sum().item<double>();
    Summary full = summarise(vs, all, k);

    // Equal-count deciles of codes ranked by mass (ties: lower code first).
    std::vector<std::int64_t> order(static_cast<std::size_t>(k));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
        return full.mass[std::size_t(a)] > full.mass[std::size_t(b)];
    });
    const double total = std::accumulate(full.mass.begin(), full.mass.end(), 0.0);
    for (std::int64_t dec = 0; dec < 10; ++dec) {
        double share = 0;
        for (std::int64_t r = dec * k / 10; r < (dec + 1) * k / 10; ++r) {
            share += full.mass[std::size_t(order[std::size_t(r)])];
        }
        d.decileShares.push_back(total > 0 ? share / total : 0);
    }

    // Random-exemplar codebooks: K distinct rows of the same set, per seed.
    std::vector<std::vector<double>> diffMean, diffR95;  // [seed][video]
    if (o.randomCodebooks > 0 && n >= k) {
        d.hasRandom = true;
        for (int s = 0; s < o.randomCodebooks; ++s) {
            std::uint64_t seed = o.randomSeed + std::uint64_t(s);
            d.randomSeeds.push_back(seed);
            auto perm = seededPermutation(n, seed);
            perm.resize(std::size_t(k));
            at::Tensor rc =
                normalizeRows(t.x.defined() ? t.x.index_select(0, at::tensor(perm, at::kLong))
                                            : t.gatherRows(perm));
            std::vector<VideoStats> rv = perVideo(t, nearestOverTiles(t, rc, tileRows), w);
            std::vector<double> dm, dr;
            for (std::size_t v = 0; v < vs.size(); ++v) {
                auto mean = [](const VideoStats& q) {
                    return q.weight > 0 ? q.weightedResidual / q.weight : 0.0;
                };
                dm.push_back(mean(rv[v]) - mean(vs[v]));
                dr.push_back(rv[v].r[2] - vs[v].r[2]);
            }
            diffMean.push_back(dm);
            diffR95.push_back(dr);
            if (progress)
                progress->update(double(s + 2));
        }
    }
    auto pairedMean = [&](const std::vector<std::vector<double>>& diff,
                          const std::vector<std::int64_t>& videos,
                          const std::vector<std::int64_t>& seeds) {
        double acc = 0;
        for (std::int64_t v : videos) {
            for (std::int64_t s : seeds) {
                acc += diff[std::size_t(s)][std::size_t(v)];
            }
        }
        return acc / double(videos.size() * seeds.size());
    };
    std::vector<std::int64_t> allSeeds(static_cast<std::size_t>(o.randomCodebooks));
    std::iota(allSeeds.begin(), allSeeds.end(), 0);

    // Video-level bootstrap: draw b takes V videos with replacement (then, for the paired
    // random-exemplar effects, n seeds with replacement) from one SplitMix64 stream.
    std::vector<double> bActive, bEntropy, bMce, bR[4], bDm, bDr;
    SplitMix64 rng(o.bootstrapSeed);
    if (progress && o.bootstrap > 0)
        progress->begin("diagnostics: bootstrap", double(o.bootstrap));
    const auto nv = std::uint64_t(vs.size());
    for (std::int64_t b = 0; b < o.bootstrap && nv > 0; ++b) {
        std::vector<std::int64_t> pick(vs.size());
        for (auto& p : pick) {
            p = std::int64_t(rng.below(nv));
        }
        Summary s = summarise(vs, pick, k);
        bActive.push_back(s.active);
        bEntropy.push_back(s.entropy);
        bMce.push_back(s.mce);
        for (int l = 0; l < 4; ++l) {
            bR[l].push_back(s.r[l]);
        }
        if (d.hasRandom) {
            std::vector<std::int64_t> seeds(allSeeds.size());
            for (auto& q : seeds) {
                q = std::int64_t(rng.below(allSeeds.size()));
            }
            bDm.push_back(pairedMean(diffMean, pick, seeds));
            bDr.push_back(pairedMean(diffR95, pick, seeds));
        }
        if (progress && (b % 64 == 0))
            progress->update(double(b));
    }
    d.activeCodesPct = interval(full.active, bActive);
    d.entropyCapacityPct = interval(full.entropy, bEntropy);
    d.meanCosineError = interval(full.mce, bMce);
    for (int l = 0; l < 4; ++l) {
        d.residuals["R" + std::to_string(int(kLevels[l]))] = interval(full.r[l], bR[l]);
    }
    if (d.hasRandom) {
        d.diffMeanResidual = interval(pairedMean(diffMean, all, allSeeds), bDm);
        d.diffR95 = interval(pairedMean(diffR95, all, allSeeds), bDr);
        d.fullR95 = full.r[2];
        double fm = 0;
        for (const auto& q : vs)
            fm += (q.weight > 0 ? q.weightedResidual / q.weight : 0.0);
        d.fullMeanResidual = fm / double(vs.size());
        d.randomMeanResidual = d.fullMeanResidual + d.diffMeanResidual.value;
        d.randomR95 = d.fullR95 + d.diffR95.value;
    }
    return d;
}

std::string Diagnostics::toJson(int indent) const {
    nlohmann::json j;
    j["codewords"] = codewords;
    j["rows"] = rows;
    j["videos"] = videos;
    j["source_tokens"] = sourceTokens;
    j["active_codes_pct"] = activeCodesPct.value;
    j["entropy_capacity_pct"] = entropyCapacityPct.value;
    j["mean_cosine_error"] = meanCosineError.value;
    j["decile_shares"] = decileShares;
    nlohmann::json ci;
    ci["active_codes_pct"] = {activeCodesPct.lo, activeCodesPct.hi};
    ci["entropy_capacity_pct"] = {entropyCapacityPct.lo, entropyCapacityPct.hi};
    ci["mean_cosine_error"] = {meanCosineError.lo, meanCosineError.hi};
    nlohmann::json rp;
    for (const auto& [name, e] : residuals) {
        rp[name] = e.value;
        ci[name] = {e.lo, e.hi};
        j[name] = e.value;  // also at the top level (R50, R90, …), beside the other headlines
    }
    j["residual_percentiles"] = rp;
    j["ci95"] = ci;
    if (hasRandom) {
        j["random_exemplar"] = {{"seeds", randomSeeds},
                                {"full_mean_residual", fullMeanResidual},
                                {"random_mean_residual", randomMeanResidual},
                                {"full_R95", fullR95},
                                {"random_R95", randomR95},
                                {"random_minus_full_mean_residual", est(diffMeanResidual)},
                                {"random_minus_full_R95", est(diffR95)}};
    }
    return j.dump(indent);
}

}  // namespace once
