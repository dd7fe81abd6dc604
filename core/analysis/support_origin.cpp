#include "analysis/support_origin.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <sstream>

#include "compress/seeded_random.h"
#include "util/error.h"

namespace once {
namespace {

at::Tensor unitRows(const at::Tensor& x) {
    return x / x.norm(2, 1, true).clamp_min(1e-12);
}

struct View {
    at::Tensor raw, unit;  ///< [n, D] float64
    at::Tensor ids;        ///< [n] nearest codeword of the full codebook
};

struct Pooled {
    double r95 = 0, mean = 0, retainedPct = 0;
};

View makeView(const at::Tensor& video, int parity, const at::Tensor& cUnit) {
    const std::int64_t T = video.size(0), D = video.size(-1);
    at::Tensor frames = video.index_select(0, at::arange(parity, T, 2, at::kLong));
    View v;
    v.raw = frames.reshape({-1, D}).to(at::kDouble);
    v.unit = unitRows(v.raw);
    v.ids = std::get<1>(at::matmul(v.unit, cUnit.t()).max(1));
    return v;
}

// ONCE's selection on one view: the min(B, #used) codewords with the largest counts, ties to
// the lower id (compress/selection.h with Q = 1).
std::vector<std::int64_t> support(const View& v, std::int64_t K, std::int64_t budget) {
    at::Tensor counts = at::bincount(v.ids, {}, K).contiguous();
    const auto* c = counts.data_ptr<std::int64_t>();
    std::vector<std::int64_t> used;
    for (std::int64_t k = 0; k < K; ++k) {
        if (c[k] > 0) {
            used.push_back(k);
        }
    }
    std::stable_sort(used.begin(), used.end(), [&](auto a, auto b) { return c[a] > c[b]; });
    used.resize(std::size_t(std::min<std::int64_t>(budget, std::int64_t(used.size()))));
    return used;
}

// The target view reassigned to `sup`, each group pooled to the mean of its own raw tokens.
Pooled pool(const View& y, const std::vector<std::int64_t>& sup, const at::Tensor& cUnit) {
    at::Tensor s = at::tensor(sup, at::kLong);
    at::Tensor g = std::get<1>(at::matmul(y.unit, cUnit.index_select(0, s).t()).max(1));
    const std::int64_t G = std::int64_t(sup.size()), D = y.raw.size(1);
    at::Tensor sums = at::zeros({G, D}, at::kDouble).index_add_(0, g, y.raw);
    at::Tensor means = sums.index_select(0, g);  // sums and means share direction
    at::Tensor cos = (y.unit * unitRows(means)).sum(1).contiguous();
    const auto* pc = cos.data_ptr<double>();
    std::vector<double> res(std::size_t(cos.size(0)));
    double total = 0;
    for (std::size_t i = 0; i < res.size(); ++i) {
        res[i] = 1.0 - pc[i];
        total += res[i];
    }
    Pooled p;
    p.r95 = percentileLinear(res, 95);
    p.mean = total / double(res.size());
    at::Tensor kept = at::isin(y.ids, s);
    p.retainedPct = 100.0 * kept.to(at::kDouble).mean().item<double>();
    return p;
}

}  // namespace

std::vector<std::pair<std::int64_t, std::int64_t>> pairVideosByCentroid(
    const std::vector<at::Tensor>& videos, const std::vector<std::string>& groups) {
    const auto V = std::int64_t(videos.size());
    std::vector<at::Tensor> cs;
    for (const auto& v : videos) {
        cs.push_back(v.reshape({-1, v.size(-1)}).to(at::kDouble).mean(0));
    }
    at::Tensor c = unitRows(at::stack(cs));
    at::Tensor sim = at::matmul(c, c.t()).contiguous();
    const auto* ps = sim.data_ptr<double>();
    std::vector<std::tuple<double, std::int64_t, std::int64_t>> cand;
    for (std::int64_t i = 0; i < V; ++i) {
        for (std::int64_t j = i + 1; j < V; ++j) {
            cand.emplace_back(ps[i * V + j], i, j);
        }
    }
    std::stable_sort(cand.begin(), cand.end(),
                     [](const auto& a, const auto& b) { return std::get<0>(a) > std::get<0>(b); });
    std::vector<bool> taken(std::size_t(V), false);
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
    // Pass 1 keeps groups apart; pass 2 pairs whoever is left.
    for (int pass = groups.empty() ? 1 : 0; pass < 2; ++pass) {
        for (const auto& [s, i, j] : cand) {
            if (taken[std::size_t(i)] || taken[std::size_t(j)]) {
                continue;
            }
            if (pass == 0 && groups[std::size_t(i)] == groups[std::size_t(j)]) {
                continue;
            }
            taken[std::size_t(i)] = taken[std::size_t(j)] = true;
            pairs.emplace_back(i, j);
        }
    }
    return pairs;
}

SupportOriginResult supportOrigin(const at::Tensor& codebook, const std::vector<at::Tensor>& videos,
                                  const SupportOriginOptions& o, Progress* progress) {
    if (videos.size() < 2) {
        fail("the support-origin diagnostic needs at least two videos", {}, "features",
             ">= 2 feature files", std::to_string(videos.size()));
    }
    if (!o.groups.empty() && o.groups.size() != videos.size()) {
        fail("one group label per video", {}, "groups", std::to_string(videos.size()),
             std::to_string(o.groups.size()));
    }
    const std::int64_t K = codebook.size(0), D = codebook.size(1);
    for (std::size_t v = 0; v < videos.size(); ++v) {
        if (videos[v].dim() != 3 || videos[v].size(0) < 2 || videos[v].size(2) != D) {
            fail("video tokens must be [T >= 2, P, D] with the codebook's D", {},
                 "video " + std::to_string(v), "[T>=2, P, " + std::to_string(D) + "]",
                 std::to_string(videos[v].dim()) + "-d, T " + std::to_string(videos[v].size(0)) +
                     ", D " + std::to_string(videos[v].size(-1)));
        }
    }
    for (auto b : o.budgets) {
        if (b < 1) {
            fail("budget out of range", {}, "budgets", ">= 1", std::to_string(b));
        }
    }
    at::Tensor cUnit = unitRows(codebook.to(at::kDouble));
    SupportOriginResult r;
    r.videos = std::int64_t(videos.size());
    r.pairs = pairVideosByCentroid(videos, o.groups);
    std::vector<std::array<View, 2>> views;
    for (const auto& v : videos) {
        views.push_back({makeView(v, 0, cUnit), makeView(v, 1, cUnit)});
    }
    const std::size_t nB = o.budgets.size(), P = r.pairs.size();
    // effect[m][pair][budget]: m = 0 R95 (donor − current), 1 mean residual, 2 retained gain.
    std::vector<std::vector<std::vector<double>>> effect(
        3, std::vector<std::vector<double>>(P, std::vector<double>(nB, 0.0)));
    std::vector<double> cur95(nB, 0.0), don95(nB, 0.0);
    if (progress) {
        progress->begin("support-origin diagnostic", double(P));
    }
    for (std::size_t p = 0; p < P; ++p) {
        const auto [a, b] = r.pairs[p];
        for (std::size_t bi = 0; bi < nB; ++bi) {
            for (auto [v, u] : {std::pair{a, b}, std::pair{b, a}}) {
                Pooled cur[2], don[2];
                for (int dir = 0; dir < 2; ++dir) {
                    // dir 0: select on even, pool odd; dir 1: the reverse.
                    const View& target = views[std::size_t(v)][1 - dir];
                    cur[dir] =
                        pool(target, support(views[std::size_t(v)][dir], K, o.budgets[bi]), cUnit);
                    don[dir] =
                        pool(target, support(views[std::size_t(u)][dir], K, o.budgets[bi]), cUnit);
                }
                const double c95 = (cur[0].r95 + cur[1].r95) / 2,
                             d95 = (don[0].r95 + don[1].r95) / 2;
                effect[0][p][bi] += (d95 - c95) / 2;
                effect[1][p][bi] +=
                    ((don[0].mean + don[1].mean) / 2 - (cur[0].mean + cur[1].mean) / 2) / 2;
                effect[2][p][bi] += ((cur[0].retainedPct + cur[1].retainedPct) / 2 -
                                     (don[0].retainedPct + don[1].retainedPct) / 2) /
                                    2;
                cur95[bi] += c95;
                don95[bi] += d95;
            }
        }
        if (progress) {
            progress->update(double(p + 1));
        }
    }
    auto meanOver = [&](int m, const std::vector<std::int64_t>& pick, std::size_t bi) {
        double s = 0;
        for (auto p : pick) {
            s += effect[std::size_t(m)][std::size_t(p)][bi];
        }
        return s / double(pick.size());
    };
    std::vector<std::int64_t> all(P);
    std::iota(all.begin(), all.end(), 0);
    std::vector<double> maxDev;
    std::vector<std::vector<std::vector<double>>> draws(3, std::vector<std::vector<double>>(nB));
    SplitMix64 rng(o.bootstrapSeed);
    for (std::int64_t d = 0; P > 0 && d < o.bootstrap; ++d) {
        std::vector<std::int64_t> pick(P);
        for (auto& q : pick) {
            q = std::int64_t(rng.below(P));
        }
        double dev = 0;
        for (std::size_t bi = 0; bi < nB; ++bi) {
            for (int m = 0; m < 3; ++m) {
                draws[std::size_t(m)][bi].push_back(meanOver(m, pick, bi));
            }
            dev = std::max(dev, std::abs(draws[0][bi].back() - meanOver(0, all, bi)));
        }
        maxDev.push_back(dev);
    }
    r.bandHalfWidth = maxDev.empty() ? 0.0 : percentileLinear(maxDev, 95);
    const double nv = double(2 * P);
    for (std::size_t bi = 0; bi < nB && P > 0; ++bi) {
        SupportOriginBudget sb;
        sb.budget = o.budgets[bi];
        sb.currentR95 = cur95[bi] / nv;
        sb.donorR95 = don95[bi] / nv;
        const double m0 = meanOver(0, all, bi);
        sb.deltaR95 = {m0, m0 - r.bandHalfWidth, m0 + r.bandHalfWidth};
        for (std::size_t p = 0; p < P; ++p) {
            sb.positivePairs += effect[0][p][bi] > 0 ? 1 : 0;
        }
        auto pointwise = [&](int m) {
            const double v = meanOver(m, all, bi);
            const auto& ds = draws[std::size_t(m)][bi];
            return ds.empty() ? Estimate{v, v, v}
                              : Estimate{v, percentileLinear(ds, 2.5), percentileLinear(ds, 97.5)};
        };
        sb.deltaMeanResidual = pointwise(1);
        sb.retainedGainPts = pointwise(2);
        r.budgets.push_back(sb);
    }
    for (std::size_t p = 0; p < P; ++p) {
        r.pairDeltaR95.push_back(effect[0][p]);
        const auto [a, b] = r.pairs[p];
        at::Tensor ca = videos[std::size_t(a)].reshape({-1, D}).to(at::kDouble).mean(0);
        at::Tensor cb = videos[std::size_t(b)].reshape({-1, D}).to(at::kDouble).mean(0);
        r.pairCosines.push_back(
            (ca.dot(cb) / (ca.norm() * cb.norm()).clamp_min(1e-12)).item<double>());
    }
    return r;
}

std::string supportOriginTableText(const SupportOriginResult& r) {
    std::ostringstream o;
    o << "support origin: " << r.videos << " video(s), " << r.pairs.size()
      << " disjoint pair(s); donor - current (positive favours current-video support)\n";
    o << std::left << std::setw(8) << "budget" << std::setw(12) << "cur R95" << std::setw(12)
      << "donor R95" << std::setw(36) << "dR95 [simult. 95%] (x1e-3)" << std::setw(10)
      << "pos/pairs" << std::setw(34) << "dMean [95%] (x1e-3)"
      << "retained gain pts [95%]\n";
    for (const auto& b : r.budgets) {
        auto ci = [](const Estimate& e, double scale) {
            std::ostringstream s;
            s << std::fixed << std::setprecision(3) << e.value * scale << " [" << e.lo * scale
              << ", " << e.hi * scale << "]";
            return s.str();
        };
        o << std::setw(8) << b.budget << std::setw(12) << std::setprecision(5) << b.currentR95
          << std::setw(12) << b.donorR95 << std::setw(36) << ci(b.deltaR95, 1e3) << std::setw(10)
          << (std::to_string(b.positivePairs) + "/" + std::to_string(r.pairs.size()))
          << std::setw(34) << ci(b.deltaMeanResidual, 1e3) << ci(b.retainedGainPts, 1) << "\n";
    }
    return o.str();
}

std::string supportOriginCsv(const SupportOriginResult& r) {
    std::ostringstream o;
    o << std::setprecision(12);
    o << "budget,current_r95,donor_r95,delta_r95,band_lo,band_hi,positive_pairs,pairs,"
         "delta_mean_residual,mean_ci_lo,mean_ci_hi,retained_gain_pts,retained_ci_lo,"
         "retained_ci_hi\n";
    for (const auto& b : r.budgets) {
        o << b.budget << "," << b.currentR95 << "," << b.donorR95 << "," << b.deltaR95.value << ","
          << b.deltaR95.lo << "," << b.deltaR95.hi << "," << b.positivePairs << ","
          << r.pairs.size() << "," << b.deltaMeanResidual.value << "," << b.deltaMeanResidual.lo
          << "," << b.deltaMeanResidual.hi << "," << b.retainedGainPts.value << ","
          << b.retainedGainPts.lo << "," << b.retainedGainPts.hi << "\n";
    }
    return o.str();
}

}  // namespace once
