#include "analysis/stress_diagnostic.h"

#include <ATen/ATen.h>

#include <iomanip>
#include <numeric>
#include <sstream>

#include "compress/seeded_random.h"
#include "util/error.h"

namespace once {
namespace {

const char* kMetrics[] = {"mean", "R50", "R90", "R95", "R99"};
constexpr double kLevels[] = {50, 90, 95, 99};

at::Tensor unitRows(const at::Tensor& x) {
    at::Tensor d = x.to(at::kDouble);
    return d / d.norm(2, 1, true).clamp_min(1e-12);
}

// Mean residual and R50/R90/R95/R99 of one video's unit tokens against unit codewords.
std::vector<double> residualStats(const at::Tensor& xUnit, const at::Tensor& cUnit) {
    at::Tensor cos = std::get<0>(at::matmul(xUnit, cUnit.t()).max(1)).contiguous();
    const auto* p = cos.data_ptr<double>();
    std::vector<double> res(std::size_t(cos.size(0)));
    double sum = 0;
    for (std::size_t i = 0; i < res.size(); ++i) {
        res[i] = 1.0 - p[i];
        sum += res[i];
    }
    std::vector<double> out{res.empty() ? 0.0 : sum / double(res.size())};
    for (double l : kLevels) {
        out.push_back(percentileLinear(res, l));
    }
    return out;
}

}  // namespace

StressResult stressDiagnostic(const at::Tensor& codebook, const std::vector<at::Tensor>& videos,
                              const StressOptions& o, Progress* progress) {
    if (videos.empty()) {
        fail("the stress diagnostic needs videos", {}, "features", "one or more feature files",
             "none");
    }
    if (codebook.dim() != 2) {
        fail("codebook is not a matrix", {}, "codebook", "[K, D]",
             std::to_string(codebook.dim()) + " dimensions");
    }
    const std::int64_t K = codebook.size(0), D = codebook.size(1);
    std::vector<at::Tensor> xs;
    for (std::size_t v = 0; v < videos.size(); ++v) {
        if (videos[v].size(-1) != D) {
            fail("video tokens and codebook differ in width", {}, "video " + std::to_string(v),
                 "D = " + std::to_string(D), std::to_string(videos[v].size(-1)));
        }
        xs.push_back(unitRows(videos[v].reshape({-1, D})));
    }
    at::Tensor all = at::cat(xs);
    if (all.size(0) < K) {
        fail("fewer tokens than codewords for random exemplars", {}, "tokens",
             ">= K = " + std::to_string(K), std::to_string(all.size(0)));
    }
    StressResult r;
    r.videos = std::int64_t(videos.size());
    r.codewords = K;
    r.tokens = all.size(0);
    const std::size_t V = videos.size(), M = 5;
    if (progress) {
        progress->begin("stress diagnostic", double(1 + o.randomCodebooks));
    }
    at::Tensor cl = unitRows(codebook);
    for (const auto& x : xs) {
        r.learnedPerVideo.push_back(residualStats(x, cl));
    }
    // diff[s][v][m] = random_s − learned for video v, metric m.
    std::vector<std::vector<std::vector<double>>> diff;
    r.randomPerVideo.assign(V, std::vector<double>(M, 0.0));
    for (int s = 0; s < o.randomCodebooks; ++s) {
        const std::uint64_t seed = o.randomSeed + std::uint64_t(s);
        r.seeds.push_back(seed);
        auto perm = seededPermutation(all.size(0), seed);
        perm.resize(std::size_t(K));
        at::Tensor cr = all.index_select(0, at::tensor(perm, at::kLong));
        std::vector<std::vector<double>> d(V);
        for (std::size_t v = 0; v < V; ++v) {
            auto st = residualStats(xs[v], cr);
            for (std::size_t m = 0; m < M; ++m) {
                d[v].push_back(st[m] - r.learnedPerVideo[v][m]);
                r.randomPerVideo[v][m] += st[m] / double(o.randomCodebooks);
            }
        }
        diff.push_back(d);
        if (progress) {
            progress->update(double(s + 2));
        }
    }
    const std::size_t S = diff.size();
    auto meanDiff = [&](const std::vector<std::int64_t>& vs, const std::vector<std::int64_t>& ss,
                        std::size_t m) {
        double acc = 0;
        for (auto v : vs) {
            for (auto s : ss) {
                acc += diff[std::size_t(s)][std::size_t(v)][m];
            }
        }
        return acc / double(vs.size() * ss.size());
    };
    std::vector<std::int64_t> allV(V), allS(S);
    std::iota(allV.begin(), allV.end(), 0);
    std::iota(allS.begin(), allS.end(), 0);
    // Bootstrap: V videos with replacement, then S seeds with replacement, one stream.
    std::vector<std::vector<double>> draws(M);
    SplitMix64 rng(o.bootstrapSeed);
    for (std::int64_t b = 0; S > 0 && b < o.bootstrap; ++b) {
        std::vector<std::int64_t> pv(V), ps(S);
        for (auto& p : pv) {
            p = std::int64_t(rng.below(V));
        }
        for (auto& p : ps) {
            p = std::int64_t(rng.below(S));
        }
        for (std::size_t m = 0; m < M; ++m) {
            draws[m].push_back(meanDiff(pv, ps, m));
        }
    }
    for (std::size_t m = 0; m < M; ++m) {
        StressMetric sm;
        sm.name = kMetrics[m];
        for (std::size_t v = 0; v < V; ++v) {
            sm.learned += r.learnedPerVideo[v][m] / double(V);
            sm.random += r.randomPerVideo[v][m] / double(V);
        }
        if (S > 0) {
            sm.difference.value = meanDiff(allV, allS, m);
            sm.difference.lo = sm.difference.hi = sm.difference.value;
            if (!draws[m].empty()) {
                sm.difference.lo = percentileLinear(draws[m], 2.5);
                sm.difference.hi = percentileLinear(draws[m], 97.5);
            }
            for (std::size_t v = 0; v < V; ++v) {
                sm.positiveVideos += r.randomPerVideo[v][m] - r.learnedPerVideo[v][m] > 0 ? 1 : 0;
            }
            sm.reductionPct = sm.random > 0 ? 100.0 * sm.difference.value / sm.random : 0.0;
        }
        r.metrics.push_back(sm);
    }
    return r;
}

std::vector<CodebookComparison> compareCodebooks(const at::Tensor& reference,
                                                 const at::Tensor& other,
                                                 const std::vector<at::Tensor>& videos,
                                                 std::int64_t bootstrap,
                                                 std::uint64_t bootstrapSeed) {
    if (videos.empty()) {
        fail("the codebook comparison needs videos", {}, "features", "one or more feature files",
             "none");
    }
    if (reference.dim() != 2 || other.dim() != 2 || reference.size(1) != other.size(1)) {
        fail("the codebooks differ in width", {}, "codebook",
             "D = " + std::to_string(reference.size(-1)), std::to_string(other.size(-1)));
    }
    const std::int64_t D = reference.size(1);
    at::Tensor ra = unitRows(reference), rb = unitRows(other);
    std::vector<std::vector<double>> a, b;
    for (std::size_t v = 0; v < videos.size(); ++v) {
        if (videos[v].size(-1) != D) {
            fail("video tokens and codebook differ in width", {}, "video " + std::to_string(v),
                 "D = " + std::to_string(D), std::to_string(videos[v].size(-1)));
        }
        at::Tensor x = unitRows(videos[v].reshape({-1, D}));
        a.push_back(residualStats(x, ra));
        b.push_back(residualStats(x, rb));
    }
    const std::size_t V = videos.size();
    std::vector<std::vector<double>> draws(5);
    SplitMix64 rng(bootstrapSeed);
    for (std::int64_t d = 0; d < bootstrap; ++d) {
        std::vector<double> acc(5, 0.0);
        for (std::size_t i = 0; i < V; ++i) {
            const auto v = std::size_t(rng.below(V));
            for (std::size_t m = 0; m < 5; ++m) {
                acc[m] += (b[v][m] - a[v][m]) / double(V);
            }
        }
        for (std::size_t m = 0; m < 5; ++m) {
            draws[m].push_back(acc[m]);
        }
    }
    std::vector<CodebookComparison> out;
    for (std::size_t m = 0; m < 5; ++m) {
        CodebookComparison c;
        c.name = kMetrics[m];
        for (std::size_t v = 0; v < V; ++v) {
            c.reference += a[v][m] / double(V);
            c.other += b[v][m] / double(V);
            c.positiveVideos += b[v][m] - a[v][m] > 0 ? 1 : 0;
        }
        c.difference.value = c.other - c.reference;
        c.difference.lo = c.difference.hi = c.difference.value;
        if (!draws[m].empty()) {
            c.difference.lo = percentileLinear(draws[m], 2.5);
            c.difference.hi = percentileLinear(draws[m], 97.5);
        }
        out.push_back(c);
    }
    return out;
}

std::string comparisonTableText(const std::vector<CodebookComparison>& cs,
                                const std::string& referenceName, const std::string& otherName) {
    std::ostringstream o;
    o << otherName << " - " << referenceName << " (paired per video; positive favours "
      << referenceName << ")\n";
    for (const auto& c : cs) {
        o << std::left << std::setw(8) << c.name << std::setw(14) << std::setprecision(6)
          << c.reference << std::setw(14) << c.other << std::fixed << std::setprecision(3)
          << c.difference.value * 1e3 << " [" << c.difference.lo * 1e3 << ", "
          << c.difference.hi * 1e3 << "] x1e-3, " << c.positiveVideos << " video(s) positive\n"
          << std::defaultfloat;
    }
    return o.str();
}

std::string comparisonCsv(const std::vector<CodebookComparison>& cs) {
    std::ostringstream o;
    o << std::setprecision(12) << "metric,reference,other,difference,ci_lo,ci_hi,positive_videos\n";
    for (const auto& c : cs) {
        o << c.name << "," << c.reference << "," << c.other << "," << c.difference.value << ","
          << c.difference.lo << "," << c.difference.hi << "," << c.positiveVideos << "\n";
    }
    return o.str();
}

std::string stressTableText(const StressResult& r) {
    std::ostringstream o;
    o << "stress diagnostic: " << r.videos << " video(s), " << r.tokens << " tokens, K "
      << r.codewords << ", " << r.seeds.size() << " random-exemplar codebook(s)\n";
    o << std::left << std::setw(8) << "metric" << std::setw(14) << "learned" << std::setw(14)
      << "random" << std::setw(40) << "random - learned [95% CI] (x1e-3)" << std::setw(12)
      << "positive"
      << "reduction %\n";
    for (const auto& m : r.metrics) {
        std::ostringstream ci;
        ci << std::fixed << std::setprecision(3) << m.difference.value * 1e3 << " ["
           << m.difference.lo * 1e3 << ", " << m.difference.hi * 1e3 << "]";
        o << std::setw(8) << m.name << std::setw(14) << std::setprecision(6) << m.learned
          << std::setw(14) << m.random << std::setw(40) << ci.str() << std::setw(12)
          << (std::to_string(m.positiveVideos) + "/" + std::to_string(r.videos))
          << std::setprecision(4) << m.reductionPct << "\n";
    }
    return o.str();
}

std::string stressCsv(const StressResult& r) {
    std::ostringstream o;
    o << std::setprecision(12);
    o << "metric,learned,random,difference,ci_lo,ci_hi,positive_videos,videos,reduction_pct\n";
    for (const auto& m : r.metrics) {
        o << m.name << "," << m.learned << "," << m.random << "," << m.difference.value << ","
          << m.difference.lo << "," << m.difference.hi << "," << m.positiveVideos << "," << r.videos
          << "," << m.reductionPct << "\n";
    }
    return o.str();
}

std::string stressPerVideoCsv(const StressResult& r) {
    std::ostringstream o;
    o << std::setprecision(12) << "video,metric,learned,random\n";
    for (std::size_t v = 0; v < r.learnedPerVideo.size(); ++v) {
        for (std::size_t m = 0; m < 5; ++m) {
            o << v << "," << kMetrics[m] << "," << r.learnedPerVideo[v][m] << ","
              << (r.randomPerVideo.empty() ? 0.0 : r.randomPerVideo[v][m]) << "\n";
        }
    }
    return o.str();
}

}  // namespace once
