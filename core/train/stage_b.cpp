#include "train/stage_b.h"

#include <ATen/ATen.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>

#include "compress/seeded_random.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "train/cache_reader.h"
#include "train/fit_state.h"
#include "train/gumbel_noise.h"
#include "train/sinkhorn.h"
#include "train/sketch_cache.h"
#include "train/spherical_kmeans.h"
#include "util/error.h"
#include "util/sha256.h"

namespace once {

std::string FitConfig::toJson() const {
    nlohmann::json j = {{"K", codewords},
                        {"method", method},
                        {"weights", weights},
                        {"alpha", alpha},
                        {"init", init},
                        {"candidates", candidates},
                        {"init_iterations", initIterations},
                        {"batch", batch},
                        {"epsilon", epsilon},
                        {"sinkhorn_iterations", sinkhornIterations},
                        {"lr", lr},
                        {"weight_decay", weightDecay},
                        {"beta1", beta1},
                        {"beta2", beta2},
                        {"adam_eps", adamEps},
                        {"grad_clip", gradClip},
                        {"commitment", commitment},
                        {"usage", usage},
                        {"tau_start", tauStart},
                        {"tau_min", tauMin},
                        {"tau_decay", tauDecay},
                        {"epochs", epochs},
                        {"patience", patience},
                        {"lloyd_iterations", lloydIterations},
                        {"seed", seed},
                        {"selection", selection}};
    return j.dump();
}

void FitConfig::validate() const {
    auto bad = [](const std::string& field, const std::string& expected, const std::string& found) {
        fail("invalid Stage-B option", {}, field, expected, found);
    };
    auto num = [](double v) {
        std::ostringstream o;
        o << v;
        return o.str();
    };
    // Every real-valued option: finite, and inside the range where it means something.
    struct Real {
        const char* name;
        double value, lo;
        bool loOpen;  // value must be > lo (else >= lo)
        double hi;
        bool hiOpen;  // value must be < hi (else <= hi)
    };
    const double inf = std::numeric_limits<double>::infinity();
    const Real reals[] = {{"alpha", alpha, 0, false, inf, true},
                          {"epsilon", epsilon, 0, true, inf, true},
                          {"lr", lr, 0, true, inf, true},
                          {"weight-decay", weightDecay, 0, false, inf, true},
                          {"beta1", beta1, 0, false, 1, true},
                          {"beta2", beta2, 0, false, 1, true},
                          {"adam-eps", adamEps, 0, true, inf, true},
                          {"grad-clip", gradClip, 0, false, inf, true},
                          {"commitment", commitment, 0, false, inf, true},
                          {"usage", usage, 0, false, inf, true},
                          {"tau-start", tauStart, 0, true, inf, true},
                          {"tau-min", tauMin, 0, true, inf, true},
                          {"tau-decay", tauDecay, 0, true, 1, false}};
    for (const Real& r : reals) {
        const bool ok = std::isfinite(r.value) && (r.loOpen ? r.value > r.lo : r.value >= r.lo) &&
                        (r.hiOpen ? r.value < r.hi : r.value <= r.hi);
        if (!ok) {
            bad(r.name,
                std::string("a finite number ") + (r.loOpen ? "> " : ">= ") + num(r.lo) +
                    (std::isfinite(r.hi)
                         ? std::string(r.hiOpen ? " and < " : " and <= ") + num(r.hi)
                         : std::string()),
                num(r.value));
        }
    }
    if (codewords < 1)
        bad("K", ">= 1", std::to_string(codewords));
    if (method != "sinkhorn" && method != "hard-lloyd")
        bad("method", "sinkhorn|hard-lloyd", method);
    if (weights != "source-count" && weights != "uniform")
        bad("weights", "source-count|uniform", weights);
    if (init != "refined" && init != "sampled")
        bad("init", "refined|sampled", init);
    if (selection != "weighted-cosine-error")
        bad("selection", "weighted-cosine-error", selection);
    if (candidates < 1)
        bad("candidates", ">= 1", std::to_string(candidates));
    if (sinkhornIterations < 1)
        bad("sinkhorn-iters", ">= 1", std::to_string(sinkhornIterations));
    if (batch < 1)
        bad("batch", ">= 1", std::to_string(batch));
    if (epochs < 0)
        bad("epochs", ">= 0", std::to_string(epochs));
    if (patience < 1)
        bad("patience", ">= 1", std::to_string(patience));
    if (initIterations < 0)
        bad("init-iters", ">= 0", std::to_string(initIterations));
    if (lloydIterations < 0)
        bad("lloyd-iters", ">= 0", std::to_string(lloydIterations));
}

at::Tensor effectiveWeights(const at::Tensor& weights, const at::Tensor& category,
                            const std::string& mode, double alpha) {
    const std::int64_t u = weights.size(0);
    if (mode == "uniform") {
        return at::ones({u}, at::kDouble);
    }
    at::Tensor w = weights.to(at::kDouble);
    if (alpha == 0 || !category.defined()) {
        return w;
    }
    at::Tensor cat = category.to(at::kLong);
    at::Tensor labelled = cat.ge(0);
    at::Tensor idx = cat.clamp_min(0);
    at::Tensor counts = at::bincount(idx.masked_select(labelled)).to(at::kDouble);
    if (counts.numel() == 0) {
        return w;
    }
    at::Tensor p = counts / double(u);
    at::Tensor factor = p.clamp_min(1e-300).pow(-alpha).index_select(0, idx);
    return at::where(labelled, w * factor, w);
}

StepResult stageBStep(const at::Tensor& x, const at::Tensor& a, const at::Tensor& codebook,
                      const at::Tensor& gumbel, double tau, const FitConfig& cfg) {
    const std::int64_t k = codebook.size(0);
    at::Tensor norms = codebook.norm(2, {1}, true).clamp_min(1e-12);
    at::Tensor cn = codebook / norms;
    at::Tensor s = at::mm(x, cn.t());
    SinkhornPotentials pot =
        sinkhornLog(s, a.log(), at::full({k}, -std::log(double(k)), at::kFloat), cfg.epsilon,
                    cfg.sinkhornIterations);
    // Logits of the row-normalised plan (the row potential f is constant along a row and drops
    // out of softmax and argmax); the potentials are held fixed in the backward pass.
    // One B×K buffer, built in cache-sized row blocks: the step's working set is a few B×K
    // matrices at 65,536 × 8192.
    GumbelAssignment st = gumbelStraightThrough(s, pot.g, gumbel, cfg.epsilon, tau);
    at::Tensor kStar = st.hard;
    at::Tensor ys = std::move(st.soft);
    at::Tensor kNear = s.argmax(1);
    at::Tensor xx = (x * x).sum(1);
    at::Tensor cosStar = s.gather(1, kStar.unsqueeze(1)).squeeze(1);
    at::Tensor cosNear = s.gather(1, kNear.unsqueeze(1)).squeeze(1);

    StepResult r;
    r.reconstruction = (a * (xx + 1 - 2 * cosStar)).sum().item<double>();
    r.commitment = (a * (xx + 1 - 2 * cosNear)).sum().item<double>();
    at::Tensor pbar = at::mv(ys.t(), a);
    at::Tensor logUse = (pbar * double(k)).clamp_min(1e-30).log();
    r.usage = (pbar * logUse).sum().item<double>();
    r.loss = r.reconstruction + cfg.commitment * r.commitment + cfg.usage * r.usage;

    // ∂L/∂y for the straight-through path: reconstruction −2a(x − q)·c_k with q = c_{k*}
    // (2a(c_{k*}·c_k − S)), plus the usage term λ·a·(log(K p̄_k) + 1).
    at::Tensor gram = at::mm(cn, cn.t());
    at::Tensor gy = gram.index_select(0, kStar);
    gy.sub_(s).mul_(2 * a.unsqueeze(1));
    gy.addr_(a, cfg.usage * (logUse + 1));
    // Softmax backward y⊙(∂y − ⟨y, ∂y⟩), then z = (S/ε + g + noise)/τ.
    gy.mul_(ys);
    at::Tensor dot = gy.sum(1, true);
    gy.addcmul_(ys, dot, -1.0).div_(cfg.epsilon * tau);
    at::Tensor dcn = at::mm(gy.t(), x);
    at::Tensor gq = -2 * a.unsqueeze(1) * (x - cn.index_select(0, kStar));
    dcn.index_add_(0, kStar, gq);
    at::Tensor gc = -2 * cfg.commitment * a.unsqueeze(1) * (x - cn.index_select(0, kNear));
    dcn.index_add_(0, kNear, gc);
    // Through c = C/‖C‖.
    r.grad = (dcn - cn * (cn * dcn).sum(1, true)) / norms;
    return r;
}

namespace {

// The representatives as Stage B reads them: rows by index (mini-batches, candidates) and
// fixed tiles in row order (criterion). Either a tensor in memory or a mapped cache
// (train/cache_reader.h); both hand the same values to the same operations, so a fit gives the
// same bits either way.
struct Rows {
    std::int64_t count = 0, dim = 0;
    std::function<at::Tensor(const std::vector<std::int64_t>&)> gather;
    std::function<at::Tensor(std::int64_t, std::int64_t)> slice;
};

Rows tensorRows(const at::Tensor& reps) {
    return {reps.size(0), reps.size(1),
            [reps](const std::vector<std::int64_t>& idx) {
                return reps.index_select(0, at::tensor(idx, at::kLong));
            },
            [reps](std::int64_t b, std::int64_t e) { return reps.slice(0, b, e); }};
}

Rows readerRows(const CacheReader& cache) {
    return {cache.rows(), cache.dim(),
            [&cache](const std::vector<std::int64_t>& idx) { return cache.gather(idx); },
            [&cache](std::int64_t b, std::int64_t e) { return cache.slice(b, e); }};
}

// Rows of the criterion's tiles: also what one criterion pass holds in memory.
constexpr std::int64_t kCriterionTileRows = 65536;

double weightedCosineErrorRows(const Rows& reps, const at::Tensor& omega,
                               const at::Tensor& codebook) {
    at::Tensor cn = normalizeRows(codebook);
    at::Tensor w = omega.to(at::kDouble);
    double total = 0;
    for (std::int64_t b = 0; b < reps.count; b += kCriterionTileRows) {
        std::int64_t e = std::min(reps.count, b + kCriterionTileRows);
        Nearest nn = nearestCentroids(normalizeRows(reps.slice(b, e)), cn);
        total += ((1 - nn.cosines.to(at::kDouble)) * w.slice(0, b, e)).sum().item<double>();
    }
    return total / w.sum().item<double>();
}

}  // namespace

double weightedCosineError(const at::Tensor& reps, const at::Tensor& omega,
                           const at::Tensor& codebook) {
    return weightedCosineErrorRows(tensorRows(reps), omega, codebook);
}

namespace {

double uniform01(SplitMix64& rng) {  // (0, 1]
    return (double(rng.next() >> 11) + 1.0) * 0x1.0p-53;
}

// Weighted sample without replacement (Efraimidis–Spirakis keys log(u)/ω), in draw order.
std::vector<std::int64_t> weightedSample(const at::Tensor& omega, std::int64_t n,
                                         std::uint64_t seed) {
    at::Tensor w = omega.to(at::kDouble).contiguous();
    const double* pw = w.data_ptr<double>();
    const std::int64_t u = w.size(0);
    SplitMix64 rng(seed);
    std::vector<std::pair<double, std::int64_t>> keys(static_cast<std::size_t>(u));
    for (std::int64_t i = 0; i < u; ++i) {
        double key = pw[i] > 0 ? std::log(uniform01(rng)) / pw[i] : -INFINITY;
        keys[std::size_t(i)] = {key, i};
    }
    n = std::min(n, u);
    std::partial_sort(keys.begin(), keys.begin() + n, keys.end(), [](auto& l, auto& r) {
        return l.first > r.first || (l.first == r.first && l.second < r.second);
    });
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < n; ++i) {
        out.push_back(keys[std::size_t(i)].second);
    }
    return out;
}

at::Tensor gatherUnit(const Rows& reps, const std::vector<std::int64_t>& idx) {
    return normalizeRows(reps.gather(idx));
}

}  // namespace

std::string trainingDataSha256(const at::Tensor& reps, const at::Tensor& weights,
                               const at::Tensor& category) {
    Sha256 h;
    for (const at::Tensor* t : {&reps, &weights, &category}) {
        if (!t->defined()) {
            continue;
        }
        at::Tensor c = t->contiguous();
        const std::string head =
            std::string(c10::toString(c.scalar_type())) + ":" + c10::str(c.sizes()) + ";";
        h.update(head.data(), head.size());
        h.update(c.data_ptr(), std::size_t(c.numel()) * c.element_size());
    }
    return h.hexDigest();
}

namespace {

// Everything a stopped fit needs to go on exactly where its last finished epoch (Sinkhorn) or
// round (hard-lloyd) left it. Optimiser steps, noise and batches are functions of (seed, epoch,
// step), so continuing from this state gives the bits of an uninterrupted run.
struct FitState : FitStateCounters {
    at::Tensor param, m1, m2, best;
};

void saveFitState(const std::string& path, const FitState& st, const std::string& config,
                  const std::string& dataSha) {
    if (path.empty()) {
        return;
    }
    SafetensorsWriter w;
    addFiniteTensor(w, "param", st.param, path);
    addFiniteTensor(w, "m1", st.m1, path);
    addFiniteTensor(w, "m2", st.m2, path);
    addFiniteTensor(w, "best", st.best, path);
    w.setMetadata("format", kFitStateFormat);
    w.setMetadata("training_config", config);
    w.setMetadata("training_data_sha256", dataSha);
    w.setMetadata("state", nlohmann::json({{"rounds_done", st.roundsDone},
                                           {"step", st.step},
                                           {"bad", st.bad},
                                           {"best_epoch", st.bestEpoch},
                                           {"criterion", st.crit},
                                           {"history", st.history}})
                               .dump());
    w.write(path);  // atomic: a kill leaves the previous state or this one
}

// False when there is no state file; refuses one of another configuration or data, or one whose
// counters or tensors this fit could not have written (train/fit_state.h).
bool loadFitState(const std::string& path, FitState& st, const std::string& config,
                  const std::string& dataSha, const FitStateExpectation& expect) {
    std::error_code ec;
    if (path.empty() || !std::filesystem::exists(std::filesystem::symlink_status(path, ec))) {
        return false;
    }
    auto f = SafetensorsFile::open(path);
    static_cast<FitStateCounters&>(st) =
        parseFitStateHeader(f.metadata(), f.tensors(), path, config, dataSha, expect);
    st.param = loadTensor(f, "param").clone();
    st.m1 = loadTensor(f, "m1").clone();
    st.m2 = loadTensor(f, "m2").clone();
    st.best = loadTensor(f, "best").clone();
    for (const auto& [name, t] : {std::pair{"param", &st.param}, std::pair{"m1", &st.m1},
                                  std::pair{"m2", &st.m2}, std::pair{"best", &st.best}}) {
        if (!at::isfinite(*t).all().item<bool>()) {
            fail("the saved Stage-B state holds non-finite values", path, name, "finite values",
                 "NaN or infinity");
        }
    }
    if (st.m2.lt(0).any().item<bool>()) {
        fail("the saved Stage-B state's second moments are negative", path, "m2", ">= 0",
             "a negative value");
    }
    return true;
}

// A fit whose loss or criterion stops being a number has diverged: an error naming the learning
// rate, instead of a codebook silently kept from an earlier epoch.
void requireFinite(double v, const std::string& what) {
    if (!std::isfinite(v)) {
        fail("the Stage-B fit diverged: the " + what +
                 " is not a finite number; lower --lr (or check the cache)",
             {}, "lr", "a finite " + what, std::to_string(v));
    }
}

// The Gumbel noise of optimiser step t is a function of (seed, t) alone, so any epoch can be
// rerun from a saved state.
std::uint64_t stepSeed(std::uint64_t seed, std::int64_t step) {
    SplitMix64 mix(seed ^ (0xD1B54A32D192ED03ull * std::uint64_t(step + 1)));
    return mix.next();
}

}  // namespace

namespace {

// `all`: the whole representative matrix when it is in memory (hard-lloyd needs every row at
// once; undefined when streaming, then it is read whole for that control method only).
FitResult fitCodebookImpl(const Rows& reps, const at::Tensor& all, const at::Tensor& weights,
                          const at::Tensor& category, const std::string& dataSha,
                          const FitConfig& cfg, Progress* progress,
                          const std::string& resumeState) {
    const std::int64_t u = reps.count, k = cfg.codewords;
    at::Tensor omega = effectiveWeights(weights, category, cfg.weights, cfg.alpha);
    at::Tensor omegaF = omega.to(at::kFloat);
    const std::string config = cfg.toJson();

    FitStateExpectation expect;
    expect.hardLloyd = cfg.method == "hard-lloyd";
    expect.epochs = cfg.epochs;
    expect.patience = cfg.patience;
    expect.lloydIterations = cfg.lloydIterations;
    expect.stepsPerEpoch = (u + std::min(cfg.batch, u) - 1) / std::min(cfg.batch, u);
    expect.codewords = k;
    expect.dim = reps.dim;
    FitState st;
    const bool resumed = loadFitState(resumeState, st, config, dataSha, expect);
    if (!resumed) {
        // Initialisation: a weighted candidate sample, its first K as seeds, weighted Lloyd on it.
        const std::int64_t nCand = cfg.init == "sampled" ? k : std::max(k, cfg.candidates);
        std::vector<std::int64_t> cand = weightedSample(omega, nCand, cfg.seed);
        at::Tensor candX = gatherUnit(reps, cand);
        at::Tensor codebook = candX.slice(0, 0, k).clone();
        if (cfg.init == "refined" && cfg.initIterations > 0) {
            at::Tensor candW = omegaF.index_select(0, at::tensor(cand, at::kLong));
            if (progress)
                progress->begin("Stage B init (weighted spherical Lloyd)", cfg.initIterations);
            codebook =
                sphericalLloyd(candX, candW, codebook, cfg.initIterations, [&](int i, double) {
                    if (progress)
                        progress->update(i);
                }).centroids;
        }
        st.crit = {weightedCosineErrorRows(reps, omega, codebook)};
        requireFinite(st.crit[0], "initial criterion");
        st.history.push_back({{"epoch", 0}, {"criterion", st.crit[0]}, {"kind", "initialiser"}});
        st.best = codebook.clone();
        st.param = codebook.clone();
        st.m1 = at::zeros_like(st.param);
        st.m2 = at::zeros_like(st.param);
        saveFitState(resumeState, st, config, dataSha);
    }

    if (cfg.method == "hard-lloyd") {
        // One round per call from the previous round's centroids, so a stopped run resumes at
        // any round boundary with the same bits.
        at::Tensor allUnit = normalizeRows(all.defined() ? all : reps.slice(0, u));
        if (progress) {
            progress->begin(resumed ? "Stage B hard Lloyd (resumed)" : "Stage B hard Lloyd",
                            cfg.lloydIterations - st.roundsDone);
        }
        const int firstRound = st.roundsDone;
        for (int round = firstRound; round < cfg.lloydIterations; ++round) {
            SphericalLloydResult r = sphericalLloyd(allUnit, omegaF, st.param, 1);
            requireFinite(r.objective, "hard-Lloyd objective");
            st.param = r.centroids;
            st.roundsDone = round + 1;
            saveFitState(resumeState, st, config, dataSha);
            if (progress)
                progress->update(round + 1 - firstRound,
                                 "objective " + std::to_string(r.objective));
        }
        if (cfg.lloydIterations > 0) {
            st.crit.push_back(weightedCosineErrorRows(reps, omega, st.param));
            requireFinite(st.crit[1], "criterion");
            st.history.push_back({{"epoch", 1}, {"criterion", st.crit[1]}, {"kind", "hard-lloyd"}});
            if (st.crit[1] < st.crit[0]) {
                st.best = st.param.clone();
                st.bestEpoch = 1;
            }
        }
    } else if (cfg.epochs > 0) {
        const std::int64_t batch = std::min(cfg.batch, u);
        const std::int64_t steps = (u + batch - 1) / batch;
        const double total = double(steps) * cfg.epochs;
        at::Tensor& param = st.param;
        const std::int64_t firstStep = st.step;
        // ETA counts only this run's steps.
        if (progress) {
            progress->begin(
                resumed ? "Stage B Sinkhorn fitting (resumed)" : "Stage B Sinkhorn fitting",
                total - double(firstStep));
        }
        for (int epoch = st.roundsDone + 1; epoch <= cfg.epochs && st.bad < cfg.patience; ++epoch) {
            auto perm = seededPermutation(u, cfg.seed + std::uint64_t(epoch));
            double epochLoss = 0;
            for (std::int64_t s = 0; s < steps; ++s, ++st.step) {
                const std::int64_t t = st.step;
                std::vector<std::int64_t> idx(perm.begin() + s * batch,
                                              perm.begin() + std::min(u, (s + 1) * batch));
                at::Tensor x = gatherUnit(reps, idx);
                at::Tensor wb = omegaF.index_select(0, at::tensor(idx, at::kLong));
                at::Tensor a = wb / wb.sum();
                at::Tensor noise = gumbelNoise(x.size(0), k, stepSeed(cfg.seed, t));
                const double tau = std::max(cfg.tauMin, cfg.tauStart * std::pow(cfg.tauDecay, t));
                const double lr =
                    cfg.lr * 0.5 * (1 + std::cos(std::numbers::pi * double(t) / total));
                StepResult r = stageBStep(x, a, param, noise, tau, cfg);
                requireFinite(r.loss, "loss");
                at::Tensor g = r.grad;
                double norm = g.norm().item<double>();
                if (cfg.gradClip > 0 && norm > cfg.gradClip) {
                    g = g * (cfg.gradClip / (norm + 1e-6));
                }
                // AdamW (decoupled weight decay), PyTorch's update order.
                const double step = double(t + 1);
                param.mul_(1 - lr * cfg.weightDecay);
                st.m1.mul_(cfg.beta1).add_(g, 1 - cfg.beta1);
                st.m2.mul_(cfg.beta2).addcmul_(g, g, 1 - cfg.beta2);
                const double bc1 = 1 - std::pow(cfg.beta1, step);
                const double bc2 = 1 - std::pow(cfg.beta2, step);
                at::Tensor denom = (st.m2 / bc2).sqrt_().add_(cfg.adamEps);
                param.addcdiv_(st.m1, denom, -lr / bc1);
                epochLoss += r.loss;
                if (progress) {
                    std::ostringstream d;
                    d << "epoch " << epoch << " loss " << r.loss << " rec " << r.reconstruction
                      << " usage " << r.usage << " tau " << tau << " lr " << lr;
                    progress->update(double(t + 1 - firstStep), d.str());
                }
            }
            at::Tensor cb = normalizeRows(param);
            double c = weightedCosineErrorRows(reps, omega, cb);
            requireFinite(c, "criterion");
            st.crit.push_back(c);
            st.history.push_back({{"epoch", epoch},
                                  {"criterion", c},
                                  {"mean_loss", epochLoss / double(steps)},
                                  {"kind", "sinkhorn"}});
            if (c < st.crit[std::size_t(st.bestEpoch)]) {
                st.best = cb.clone();
                st.bestEpoch = epoch;
                st.bad = 0;
            } else {
                ++st.bad;
            }
            st.roundsDone = epoch;
            saveFitState(resumeState, st, config, dataSha);
        }
    }

    FitResult res;
    res.codebook = normalizeRows(st.best);
    res.selectedEpoch = st.bestEpoch;
    res.criterion = st.crit;
    res.historyJson = st.history.dump();
    res.dataSha256 = dataSha;
    res.resumed = resumed;
    res.metadata["training_config"] = config;
    res.metadata["training_data_sha256"] = dataSha;
    res.metadata["selection_criterion"] = cfg.selection;
    res.metadata["selected_epoch"] = std::to_string(st.bestEpoch);
    res.metadata["training_history"] = res.historyJson;
    res.metadata["training_threads"] = std::to_string(at::get_num_threads());
    return res;
}

}  // namespace

FitResult fitCodebook(const at::Tensor& reps, const at::Tensor& weights, const at::Tensor& category,
                      const FitConfig& cfg, Progress* progress, const std::string& resumeState) {
    cfg.validate();
    if (reps.dim() != 2 || reps.size(1) < 1) {
        fail("Stage B needs representatives [U, D]", {}, "reps", "2-D with D >= 1",
             shapeString(reps.sizes()));
    }
    const std::int64_t u = reps.size(0);
    if (weights.dim() != 1 || weights.size(0) != u ||
        (category.defined() && (category.dim() != 1 || category.size(0) != u))) {
        fail("Stage B needs one weight and one category per representative", {}, "weights",
             "[" + std::to_string(u) + "]",
             shapeString(weights.sizes()) +
                 (category.defined() ? " and " + shapeString(category.sizes()) : ""));
    }
    if (u < cfg.codewords) {
        fail("the cache holds fewer representatives than codewords", {}, "K",
             "<= " + std::to_string(u), std::to_string(cfg.codewords));
    }
    // A state this call creates is removed when the fit fails (it would sit beside a codebook
    // that was never written); one from an earlier, stopped run is kept, and so is any state on
    // cancellation, which is what resuming continues from.
    std::error_code ec;
    const bool stateExisted =
        !resumeState.empty() &&
        std::filesystem::exists(std::filesystem::symlink_status(resumeState, ec));
    try {
        return fitCodebookImpl(tensorRows(reps), reps, weights, category,
                               trainingDataSha256(reps, weights, category), cfg, progress,
                               resumeState);
    } catch (const OnceError&) {
        if (!resumeState.empty() && !stateExisted) {
            std::filesystem::remove(resumeState, ec);
        }
        throw;
    }
}

FitResult fitCodebook(const SketchCache& cache, const FitConfig& config, Progress* progress,
                      const std::string& resumeState) {
    return fitCodebook(cache.reps, cache.weights, cache.category, config, progress, resumeState);
}

std::string trainingDataSha256(const CacheReader& cache) {
    // The bytes trainingDataSha256(reps, weights, category) hashes for the loaded cache, read
    // shard file by shard file.
    Sha256 h;
    const std::string head = std::string(c10::toString(at::kBFloat16)) + ":" +
                             c10::str(at::IntArrayRef({cache.rows(), cache.dim()})) + ";";
    h.update(head.data(), head.size());
    for (std::size_t i = 0; i < cache.shardCount(); ++i) {
        const at::Tensor& t = cache.shardReps(i);
        h.update(t.data_ptr(), std::size_t(t.numel()) * t.element_size());
    }
    for (const at::Tensor* t : {&cache.weights(), &cache.category()}) {
        at::Tensor c = t->contiguous();
        const std::string th =
            std::string(c10::toString(c.scalar_type())) + ":" + c10::str(c.sizes()) + ";";
        h.update(th.data(), th.size());
        h.update(c.data_ptr(), std::size_t(c.numel()) * c.element_size());
    }
    return h.hexDigest();
}

FitResult fitCodebook(const CacheReader& cache, const FitConfig& cfg, Progress* progress,
                      const std::string& resumeState) {
    cfg.validate();
    if (cache.rows() < cfg.codewords) {
        fail("the cache holds fewer representatives than codewords", cache.manifestPath(), "K",
             "<= " + std::to_string(cache.rows()), std::to_string(cfg.codewords));
    }
    std::error_code ec;
    const bool stateExisted =
        !resumeState.empty() &&
        std::filesystem::exists(std::filesystem::symlink_status(resumeState, ec));
    try {
        return fitCodebookImpl(readerRows(cache), at::Tensor(), cache.weights(), cache.category(),
                               trainingDataSha256(cache), cfg, progress, resumeState);
    } catch (const OnceError&) {
        if (!resumeState.empty() && !stateExisted) {
            std::filesystem::remove(resumeState, ec);
        }
        throw;
    }
}

}  // namespace once
