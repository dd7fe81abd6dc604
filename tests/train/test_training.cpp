// Stage A / Stage B against independent references: Sinkhorn vs POT, spherical Lloyd vs faiss,
// one Stage-B step vs PyTorch autograd; sketch invariants, cache kill-and-resume, bit-identical
// reruns.
#include <ATen/ATen.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QtTest>
#include <filesystem>
#include <limits>

#include "features/feature_file.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/test_support.h"
#include "train/gumbel_noise.h"
#include "train/sinkhorn.h"
#include "train/sketch.h"
#include "train/sketch_cache.h"
#include "train/spherical_kmeans.h"
#include "train/stage_b.h"
#include "util/atomic_file.h"
#include "util/error.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

std::string writeTensors(const std::map<std::string, at::Tensor>& m, const std::string& name) {
    SafetensorsWriter w;
    for (const auto& [k, v] : m) {
        addTensor(w, k, v.contiguous());
    }
    std::string path = test::tempDir() + "/" + name;
    w.write(path);
    return path;
}

at::Tensor readTensor(const std::string& path, const std::string& name) {
    return loadTensor(SafetensorsFile::open(path), name).clone();
}

// Clustered unit data: `clusters` directions plus noise.
at::Tensor clustered(std::int64_t n, std::int64_t d, std::int64_t clusters, std::uint64_t seed) {
    at::manual_seed(seed);
    at::Tensor centres = at::randn({clusters, d});
    at::Tensor pick = at::randint(clusters, {n}, at::kLong);
    return normalizeRows(centres.index_select(0, pick) + 0.4 * at::randn({n, d}));
}

// A Stage-B problem: `n` clustered BF16 rows of width 16, source counts 1..49 and category
// labels -1..2 (-1: none), drawn in that order after clustered's seed.
struct FitProblem {
    at::Tensor reps, weights, category;
};
FitProblem fitProblem(std::int64_t n, std::int64_t clusters, std::uint64_t seed) {
    return {clustered(n, 16, clusters, seed).to(at::kBFloat16), at::randint(1, 50, {n}, at::kInt),
            at::randint(-1, 3, {n}, at::kInt)};
}

// The Stage-B sizes the tests vary; the rest as the paper's defaults.
FitConfig fitConfig(std::int64_t codewords, std::int64_t candidates, std::int64_t batch,
                    int epochs) {
    FitConfig c;
    c.codewords = codewords;
    c.candidates = candidates;
    c.batch = batch;
    c.epochs = epochs;
    return c;
}

std::string writeFeatureVideo(const std::string& dir, int index, std::int64_t frames,
                              std::int64_t patches, std::int64_t d) {
    const at::Tensor features =
        clustered(frames * patches, d, 6, 100 + std::uint64_t(index)).reshape({frames, patches, d});
    return test::writeFeatureFile(features, dir + "/v" + std::to_string(index) + ".safetensors",
                                  0.5, "synthetic" + std::to_string(index));
}

std::string writeCorpus(const std::string& dir, int videos) {
    std::string lines;
    for (int i = 0; i < videos; ++i) {
        std::string p = writeFeatureVideo(dir, i, 8 + i % 3, 40, 16);
        std::string cat = i % 4 == 3 ? "" : (i % 4 == 0 ? "a" : "b");
        lines += "{\"video\": \"" + p + "\"" +
                 (cat.empty() ? "" : ", \"category\": \"" + cat + "\"") + "}\n";
    }
    writeFileAtomically(dir + "/corpus.jsonl", lines);
    return dir + "/corpus.jsonl";
}

std::map<std::string, std::string> cacheBytes(const std::string& dir) {
    std::map<std::string, std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) {
        out[e.path().filename().string()] = readWholeFile(e.path().string());
    }
    return out;
}

}  // namespace

class TestTraining : public QObject {
    Q_OBJECT
  private slots:
    void sinkhornMatchesPot() {
        for (double eps : {0.05, 0.01}) {  // fast shifted path and per-element LSE path
            at::Tensor x = clustered(96, 12, 5, 1), c = clustered(24, 12, 7, 2);
            at::Tensor s = at::mm(x, c.t());
            at::Tensor a = at::rand({96}) + 0.1;
            a = a / a.sum();
            at::Tensor b = at::full({24}, 1.0 / 24);
            for (int iters : {5, 50}) {
                std::string in =
                    writeTensors({{"scores", s},
                                  {"a", a},
                                  {"b", b},
                                  {"params", at::tensor({eps, double(iters)}, at::kDouble)}},
                                 "sk_in.safetensors");
                std::string out = test::tempDir() + "/sk_out.safetensors";
                auto r = test::runPython("train_sinkhorn_pot.py",
                                         {QString::fromStdString(in), QString::fromStdString(out)});
                QVERIFY2(r.exitCode == 0, qPrintable(r.err));
                at::Tensor ref = readTensor(out, "plan");
                auto pot = sinkhornLog(s, a.log(), b.log(), eps, iters);
                at::Tensor plan = sinkhornPlan(s, pot, eps).to(at::kDouble);
                double rel = test::maxAbsDiff(plan, ref) / ref.abs().max().item<double>();
                QVERIFY2(
                    rel < 2e-4,
                    qPrintable(QString("eps %1 iters %2 rel %3").arg(eps).arg(iters).arg(rel)));
            }
        }
    }

    void sinkhornBalancedMarginals() {
        at::Tensor x = clustered(300, 16, 4, 3), c = clustered(32, 16, 32, 4);
        at::Tensor s = at::mm(x, c.t());
        at::Tensor a = at::rand({300}) + 0.05;
        a = a / a.sum();
        at::Tensor b = at::full({32}, 1.0 / 32);
        auto p = sinkhornLog(s, a.log(), b.log(), 0.05, 400);
        at::Tensor plan = sinkhornLogPlan(s, p, 0.05).exp().to(at::kDouble);
        QVERIFY(test::maxAbsDiff(plan.sum(1), a) < 1e-6);  // exact after the last row update
        QVERIFY(test::maxAbsDiff(plan.sum(0), b) < 1e-4);
        // The plan built in place, block by block, is the log plan's exp (K = 37: rows are not
        // a multiple of the vector width; 7,000 rows: several blocks, the last one short).
        at::Tensor s2 = at::mm(clustered(7000, 16, 4, 5), clustered(37, 16, 37, 6).t());
        auto p2 = sinkhornLog(s2, at::full({7000}, -std::log(7000.0)),
                              at::full({37}, -std::log(37.0)), 0.05, 5);
        at::Tensor direct = sinkhornPlan(s2, p2, 0.05);
        at::Tensor viaLog = sinkhornLogPlan(s2, p2, 0.05).exp();
        QCOMPARE(direct.sizes(), viaLog.sizes());
        QVERIFY(((direct - viaLog).abs() / viaLog.abs().clamp_min(1e-30)).max().item<float>() <
                1e-6);
    }

    void gumbelStraightThroughIsTheElementWiseExpression() {
        // Several row blocks, the last one short, and K not a multiple of the vector width.
        const std::int64_t b = 20000, k = 45;
        at::Tensor s = at::mm(clustered(b, 16, 8, 11), clustered(k, 16, k, 12).t());
        at::Tensor g = at::randn({k});
        at::Tensor noise = gumbelNoise(b, k, 7);
        const double eps = 0.05, tau = 0.5;
        GumbelAssignment st = gumbelStraightThrough(s, g, noise, eps, tau);
        at::Tensor y =
            at::add(noise, s, 1.0 / eps).add_(g.unsqueeze(0)).div_(tau);  // the step's former code
        QVERIFY(at::equal(st.hard, y.argmax(1)));
        QVERIFY((st.soft - at::softmax(y, 1)).abs().max().item<float>() < 1e-6);
        QVERIFY((st.soft.sum(1) - 1).abs().max().item<float>() < 1e-5);
    }

    void sphericalLloydAtLeastFaiss() {
        // Few narrow centroids (the tile loop), and K ≥ 512 at D ≥ 256 (the compressor's
        // assignment kernel, certified BF16 where the CPU has it). One iteration for the
        // latter: with more, clusters empty out, and faiss (splitting a large cluster) and we
        // (moving the worst-fitting row) re-seed them differently, whatever the kernel.
        struct Shape {
            std::int64_t n, d, clusters, k;
            int iters;
        };
        for (const Shape sh : {Shape{3000, 24, 40, 32, 10}, Shape{4000, 256, 700, 520, 1}}) {
            at::Tensor x = clustered(sh.n, sh.d, sh.clusters, 5);
            at::Tensor w = at::rand({sh.n}) * 3 + 0.5;
            auto perm = at::randperm(sh.n, at::kLong).slice(0, 0, sh.k);
            at::Tensor init = x.index_select(0, perm);
            std::string in = writeTensors({{"x", x},
                                           {"w", w},
                                           {"init", init},
                                           {"params", at::tensor({double(sh.iters)}, at::kDouble)}},
                                          "km_in.safetensors");
            std::string out = test::tempDir() + "/km_out.safetensors";
            auto r = test::runPython("train_kmeans_faiss.py",
                                     {QString::fromStdString(in), QString::fromStdString(out)});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            double faissObj = readTensor(out, "objective").item<double>();
            auto ours = sphericalLloyd(x, w, init, sh.iters);
            Nearest nn = nearestCentroids(x, ours.centroids);
            double oursObj = (nn.cosines.to(at::kDouble) * w.to(at::kDouble)).sum().item<double>();
            qInfo("N %lld D %lld K %lld: ours %.6f faiss %.6f", static_cast<long long>(sh.n),
                  static_cast<long long>(sh.d), static_cast<long long>(sh.k), oursObj, faissObj);
            QVERIFY2(oursObj >= faissObj * (1 - 1e-5),
                     qPrintable(QString("ours %1 faiss %2").arg(oursObj).arg(faissObj)));
            QVERIFY(
                at::equal(at::bincount(ours.assign, {}, sh.k).gt(0), at::ones({sh.k}, at::kBool)));
            // The nearest centroid is the F64 argmax wherever the best two are apart by more
            // than F32 rounding, with its cosine.
            const at::Tensor cos64 =
                at::mm(normalizeRows(x).to(at::kDouble), ours.centroids.to(at::kDouble).t());
            const auto [top, arg] = cos64.topk(2, 1);
            const at::Tensor clear = (top.select(1, 0) - top.select(1, 1)).gt(1e-5);
            QVERIFY(at::equal(nn.ids.masked_select(clear), arg.select(1, 0).masked_select(clear)));
            QVERIFY((nn.cosines.to(at::kDouble) - top.select(1, 0)).abs().max().item<double>() <
                    1e-5);
        }
    }

    void stageBStepMatchesAutograd() {
        at::Tensor x = clustered(64, 10, 5, 6), c = clustered(12, 10, 12, 7) * 1.7;
        at::Tensor a = at::rand({64}) + 0.1;
        a = a / a.sum();
        at::Tensor u = at::rand({64, 12}).clamp(1e-6, 1 - 1e-6);
        at::Tensor g = -(-u.log()).log();
        FitConfig cfg;
        const double tau = 0.7;
        std::string in =
            writeTensors({{"x", x},
                          {"a", a},
                          {"C", c},
                          {"gumbel", g},
                          {"params", at::tensor({tau, cfg.epsilon, double(cfg.sinkhornIterations),
                                                 cfg.commitment, cfg.usage},
                                                at::kDouble)}},
                         "step_in.safetensors");
        std::string out = test::tempDir() + "/step_out.safetensors";
        auto r = test::runPython("train_step_autograd.py",
                                 {QString::fromStdString(in), QString::fromStdString(out)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        at::Tensor ref = readTensor(out, "grad"), losses = readTensor(out, "losses");
        StepResult s = stageBStep(x, a, c, g, tau, cfg);
        double rel = test::maxAbsDiff(s.grad, ref) / ref.abs().max().item<double>();
        QVERIFY2(rel < 1e-3, qPrintable(QString("gradient rel diff %1").arg(rel)));
        QVERIFY(std::abs(s.loss - losses[0].item<double>()) < 1e-4);
        QVERIFY(std::abs(s.usage - losses[3].item<double>()) < 1e-4);
    }

    void sketchSizeAndSpread() {
        SketchOptions o;
        o.mMax = 52;
        QCOMPARE(sketchSize(23328, o), std::int64_t(52));
        QCOMPARE(sketchSize(5000, o), std::int64_t(20));
        QCOMPARE(sketchSize(1000, o), std::int64_t(16));
        QCOMPARE(sketchSize(7, o), std::int64_t(7));
        auto s = spreadAcrossBins(10, {100, 2, 0, 100});
        QCOMPARE(s, (std::vector<std::int64_t>{4, 2, 0, 4}));
        s = spreadAcrossBins(2, {5, 5, 5, 5});
        QCOMPARE(std::accumulate(s.begin(), s.end(), std::int64_t(0)), std::int64_t(2));
        auto bins = frameBins(5, at::tensor({0.0, 1.0, 2.0, 3.0, 4.0}, at::kDouble), 4);
        QCOMPARE(bins, (std::vector<int>{0, 1, 2, 3, 3}));  // τ = 1 in the last bin
        // The paper's cap: 94,581 LLaVA videos of 23,328 tokens, 128 requested -> 52.
        std::vector<std::int64_t> n(94581, 23328);
        o.mMax = 128;
        QCOMPARE(resolveCappedMMax(n, o, 5'000'000), std::int64_t(52));
    }

    void sketchInvariants() {
        at::Tensor f = clustered(12 * 50, 16, 5, 8).reshape({12, 50, 16}) * 3;
        at::Tensor t = at::arange(12, at::kDouble);
        for (int bins : {1, 4, 5}) {
            SketchOptions o;
            o.bins = bins;
            o.tokensPerRep = 20;
            VideoSketch s = sketchVideo(f, t, o, 3);
            QCOMPARE(s.weights.sum().item<std::int64_t>(), std::int64_t(600));
            QCOMPARE(s.reps.size(0), sketchSize(600, o));
            QVERIFY(test::maxAbsDiff(s.reps.norm(2, {1}), at::ones({s.reps.size(0)})) < 1e-5);
            QVERIFY(s.weights.min().item<int>() >= 1);
            auto fb = frameBins(12, t, bins);
            std::vector<std::int64_t> sizes(std::size_t(bins), 0);
            for (int b : fb)
                sizes[std::size_t(b)] += 50;
            auto expect = spreadAcrossBins(s.reps.size(0), sizes);
            for (int b = 0; b < bins; ++b) {
                QCOMPARE(s.bins.eq(b).sum().item<std::int64_t>(), expect[std::size_t(b)]);
                QCOMPARE(s.weights.masked_select(s.bins.eq(b)).sum().item<std::int64_t>(),
                         sizes[std::size_t(b)]);
            }
            // r_j = ν(Σ ν(x_i)) of the tokens nearest to it: every rep is a unit mean direction.
            QVERIFY(at::equal(sketchVideo(f, t, o, 3).reps, s.reps));
        }
    }

    void cacheResumesToSameBytes() {
        std::string dir = test::tempDir();
        std::string corpus = writeCorpus(dir, 9);
        auto entries = readCorpusManifest(corpus);
        SketchCacheOptions o;
        o.sketch.tokensPerRep = 16;
        o.shardRows = 40;
        buildSketchCache(entries, dir + "/full", o, {}, nullptr);
        auto reference = cacheBytes(dir + "/full");
        QVERIFY(reference.size() >= 3);

        // Cancel part-way, then kill a child at several moments; each resume must converge.
        CancelToken token;
        int calls = 0;
        Progress stopper(
            [&](const ProgressEvent&) {
                if (++calls == 5)
                    token.cancel();
            },
            token);
        QVERIFY_THROWS_EXCEPTION(Cancelled,
                                 buildSketchCache(entries, dir + "/resumed", o, {}, &stopper));
        for (int delayUs : {0, 3000, 20000}) {
            pid_t pid = fork();
            if (pid == 0) {
                buildSketchCache(entries, dir + "/resumed", o, {}, nullptr);
                _exit(0);
            }
            usleep(useconds_t(delayUs));
            kill(pid, SIGKILL);
            int status = 0;
            waitpid(pid, &status, 0);
        }
        auto summary = buildSketchCache(entries, dir + "/resumed", o, {}, nullptr);
        QCOMPARE(summary.done, std::int64_t(9));
        QVERIFY(cacheBytes(dir + "/resumed") == reference);

        SketchCache c = SketchCache::load(dir + "/full");
        QCOMPARE(c.weights.sum().item<std::int64_t>(), summary.tokens);
        QCOMPARE(c.categories, (std::vector<std::string>{"a", "b"}));
        QCOMPARE(c.category.eq(-1).sum().item<std::int64_t>() > 0, true);
        // Another option on the same folder is refused, naming the field.
        o.sketch.bins = 2;
        QVERIFY_THROWS_EXCEPTION(OnceError,
                                 buildSketchCache(entries, dir + "/full", o, {}, nullptr));
    }

    void cacheResumesBeforeTheFirstShardIsFull() {
        // Issue 16 ("Resume does not resume"): with the default shard size a small corpus fills
        // no shard before it ends, yet a stop must keep every finished video: the rerun starts
        // where the stopped run was, not at the first video, and ends with the bytes of an
        // uninterrupted run.
        const std::string dir = test::tempDir();
        const auto entries = readCorpusManifest(writeCorpus(dir, 9));
        SketchCacheOptions o;
        o.sketch.tokensPerRep = 16;
        QCOMPARE(o.shardRows, std::int64_t(65536));
        buildSketchCache(entries, dir + "/full", o, {}, nullptr);
        const auto reference = cacheBytes(dir + "/full");
        QCOMPARE(reference.count("shard-00000.safetensors"), std::size_t(1));
        QCOMPARE(reference.count("shard-00001.safetensors"), std::size_t(0));  // one shard

        CancelToken token;
        Progress stopper(
            [&](const ProgressEvent& e) {
                if (e.done >= 5) {
                    token.cancel();
                }
            },
            token);
        QVERIFY_THROWS_EXCEPTION(Cancelled,
                                 buildSketchCache(entries, dir + "/cut", o, {}, &stopper));
        auto countPending = [&] {
            int n = 0;
            for (const auto& e : fs::directory_iterator(dir + "/cut")) {
                n += e.path().filename().string().rfind("pending-", 0) == 0;
            }
            return n;
        };
        const int kept = countPending();
        QVERIFY2(kept >= 5 && kept < 9, std::to_string(kept).c_str());
        QVERIFY(!fs::exists(dir + "/cut/shard-00000.safetensors"));  // no shard was full

        std::vector<double> seen;  // Progress::begin reports 0, then the resume point
        Progress watcher([&](const ProgressEvent& e) { seen.push_back(e.done); });
        const auto summary = buildSketchCache(entries, dir + "/cut", o, {}, &watcher);
        QVERIFY(seen.size() >= 2);
        QCOMPARE(seen[1], double(kept));  // resumes at 6/9 or so, not at 0/9
        QCOMPARE(seen.back(), 9.0);
        QCOMPARE(seen.size(), std::size_t(2 + 9 - kept));  // one update per video left
        QCOMPARE(summary.resumed, std::int64_t(kept));
        QCOMPARE(summary.done, std::int64_t(9));
        QVERIFY(cacheBytes(dir + "/cut") == reference);  // no pending file left either

        // Killed at arbitrary moments (mid-write included), still before any shard is full.
        for (int delayUs : {2000, 15000, 40000}) {
            pid_t pid = fork();
            if (pid == 0) {
                buildSketchCache(entries, dir + "/killed", o, {}, nullptr);
                _exit(0);
            }
            usleep(useconds_t(delayUs));
            kill(pid, SIGKILL);
            int status = 0;
            waitpid(pid, &status, 0);
        }
        buildSketchCache(entries, dir + "/killed", o, {}, nullptr);
        QVERIFY(cacheBytes(dir + "/killed") == reference);
    }

    void sketchRefusesNonFiniteInput() {
        at::Tensor f = clustered(6 * 20, 8, 3, 4).reshape({6, 20, 8});
        SketchOptions o;
        at::Tensor t = at::arange(6, at::kDouble);
        t[2] = std::numeric_limits<double>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(OnceError, sketchVideo(f, t, o, 0));  // was bin INT_MIN
        t[2] = std::numeric_limits<double>::infinity();
        QVERIFY_THROWS_EXCEPTION(OnceError, sketchVideo(f, t, o, 0));
        at::Tensor g = f.clone();
        g[1][3][0] = std::numeric_limits<float>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(OnceError, sketchVideo(g, at::arange(6, at::kDouble), o, 0));
        for (double r : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
            SketchOptions bad;
            bad.tokensPerRep = r;
            QVERIFY_THROWS_EXCEPTION(OnceError, bad.validate());
        }
        SketchOptions inverted;
        inverted.mMin = 20;
        inverted.mMax = 10;
        QVERIFY_THROWS_EXCEPTION(OnceError, inverted.validate());
        // A tiny but valid R: ⌈N/R⌉ overflows an integer; the size is clamped, not undefined.
        SketchOptions tiny;
        tiny.tokensPerRep = 1e-300;
        QCOMPARE(sketchSize(1000, tiny), std::int64_t(128));
    }

    void effectiveWeightsFollowThePaper() {
        at::Tensor w = at::tensor({10, 20, 30, 40}, at::kInt);
        at::Tensor g = at::tensor({0, 0, 1, -1}, at::kInt);
        at::Tensor om = effectiveWeights(w, g, "source-count", 0.5);
        QVERIFY(std::abs(om[0].item<double>() - 10 / std::sqrt(0.5)) < 1e-9);
        QVERIFY(std::abs(om[2].item<double>() - 30 / std::sqrt(0.25)) < 1e-9);
        QCOMPARE(om[3].item<double>(), 40.0);  // missing label: neutral
        QVERIFY(at::equal(effectiveWeights(w, g, "source-count", 0), w.to(at::kDouble)));
        QVERIFY(at::equal(effectiveWeights(w, g, "uniform", 0.5), at::ones({4}, at::kDouble)));
    }

    void patienceStopsAndEpochZeroCanWin() {
        // A learning rate 5,000 times the paper's scrambles the codebook: no epoch improves on the
        // refined initialiser, so the fit stops after `patience` epochs without improvement and
        // selects epoch 0, whose codebook it returns.
        const auto [reps, w, g] = fitProblem(600, 8, 4);
        FitConfig cfg = fitConfig(16, 200, 128, 5);
        cfg.lr = 5;
        for (int patience : {1, 2}) {
            cfg.patience = patience;
            const FitResult r = fitCodebook(reps, w, g, cfg);
            QCOMPARE(r.criterion.size(), std::size_t(1 + patience));  // epoch 0, then `patience`
            QCOMPARE(r.selectedEpoch, 0);
            QCOMPARE(r.metadata.at("selected_epoch"), std::string("0"));
            for (std::size_t e = 1; e < r.criterion.size(); ++e) {
                QVERIFY(r.criterion[e] > r.criterion.front() + 1e-3);
            }
            FitConfig initOnly = cfg;
            initOnly.epochs = 0;
            QVERIFY(at::equal(r.codebook, fitCodebook(reps, w, g, initOnly).codebook));
        }
        // Patience as long as the epochs: every epoch is evaluated.
        cfg.lr = 1e-3;
        cfg.patience = 5;
        const FitResult full = fitCodebook(reps, w, g, cfg);
        QCOMPARE(full.criterion.size(), std::size_t(1 + cfg.epochs));
    }

    void fitIsBitIdenticalAndSelects() {
        const auto [reps, w, g] = fitProblem(900, 12, 9);
        FitConfig cfg = fitConfig(24, 300, 256, 3);
        FitResult a = fitCodebook(reps, w, g, cfg);
        FitResult b = fitCodebook(reps, w, g, cfg);
        QVERIFY(at::equal(a.codebook, b.codebook));
        QCOMPARE(a.historyJson, b.historyJson);
        QVERIFY(a.selectedEpoch >= 0 && a.selectedEpoch < int(a.criterion.size()));
        for (double c : a.criterion) {
            QVERIFY(a.criterion[std::size_t(a.selectedEpoch)] <= c);
        }
        QCOMPARE(a.metadata.at("selected_epoch"), std::to_string(a.selectedEpoch));
        cfg.method = "hard-lloyd";
        FitResult h = fitCodebook(reps, w, g, cfg);
        QVERIFY(h.criterion.back() <= h.criterion.front());
        QCOMPARE(h.codebook.size(0), std::int64_t(24));
    }

    void fitStopsAndResumesToSameBits() {
        const auto [reps, w, g] = fitProblem(700, 12, 10);
        for (const char* method : {"sinkhorn", "hard-lloyd"}) {
            FitConfig cfg = fitConfig(20, 300, 128, 4);
            cfg.method = method;
            cfg.patience = 4;
            cfg.lloydIterations = 6;
            FitResult whole = fitCodebook(reps, w, g, cfg);
            // Stop at several moments (inside the initialiser, mid-epoch, between epochs), each
            // time resuming from the state the previous attempt left.
            const std::string state = test::tempDir() + "/fit-state.safetensors";
            int attempts = 0;
            FitResult r;
            for (int stopAt : {2, 9, 7, 12, 1000000}) {
                CancelToken token;
                int calls = 0;
                Progress stopper(
                    [&](const ProgressEvent&) {
                        if (++calls == stopAt)
                            token.cancel();
                    },
                    token);
                ++attempts;
                try {
                    r = fitCodebook(reps, w, g, cfg, &stopper, state);
                    break;
                } catch (const Cancelled&) {
                }
            }
            QVERIFY2(attempts > 2, method);
            QVERIFY(r.resumed);
            QVERIFY2(at::equal(r.codebook, whole.codebook), method);
            QCOMPARE(r.historyJson, whole.historyJson);
            QCOMPARE(r.metadata, whole.metadata);
            // A state of other options is refused, naming the field.
            cfg.seed = 7;
            QVERIFY_THROWS_EXCEPTION(OnceError, fitCodebook(reps, w, g, cfg, nullptr, state));
        }
    }

    void dataHashIgnoresWhereTheCacheLies() {
        at::Tensor reps = clustered(50, 8, 3, 11).to(at::kBFloat16);
        at::Tensor w = at::randint(1, 5, {50}, at::kInt), g = at::zeros({50}, at::kInt);
        const std::string h = trainingDataSha256(reps, w, g);
        QCOMPARE(trainingDataSha256(reps.clone(), w.clone(), g.clone()), h);
        w[0] = w[0] + 1;
        QVERIFY(trainingDataSha256(reps, w, g) != h);
    }
};

QTEST_GUILESS_MAIN(TestTraining)
#include "test_training.moc"
