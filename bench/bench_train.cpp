// Times our codebook-training kernels on inputs written by bench_train.py and prints JSON;
// bench_train.py times POT and faiss-cpu on the same inputs in the same run and prints ratios.
//   bench_train sinkhorn DATA.safetensors EPS ITERS REPS [POTENTIALS_OUT]
//       DATA: x [B, D] unit rows, codebook [K, D], a [B] (Σ = 1). Times, on S = x·ν(C)ᵀ:
//       the Sinkhorn potentials; Sinkhorn + the plan (what ot.sinkhorn_log returns);
//       Sinkhorn + Gumbel noise + straight-through assignment (argmax and softmax of the plan
//       logits); and the whole Stage-B step (scores, Sinkhorn, Gumbel-ST, losses, gradient).
//   bench_train lloyd DATA.safetensors ITERS REPS      x [N, D] unit, w [N], init [k, D]
//   bench_train sketch DIR VIDEOS FRAMES PATCHES D     Stage-A throughput on feature files
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "bench_timing.h"
#include "features/feature_file.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "train/gumbel_noise.h"
#include "train/sinkhorn.h"
#include "train/sketch_cache.h"
#include "train/spherical_kmeans.h"
#include "train/stage_b.h"

using namespace once;
using once::bench::bestOf;
using once::bench::Clock;

namespace {

int benchSinkhorn(int argc, char** argv) {
    auto file = SafetensorsFile::open(argv[2]);
    const double eps = std::stod(argv[3]);
    const int iters = std::stoi(argv[4]);
    const int reps = std::stoi(argv[5]);
    at::Tensor x = loadTensor(file, "x").clone();
    at::Tensor c = loadTensor(file, "codebook").clone();
    at::Tensor a = loadTensor(file, "a").clone().to(at::kFloat);
    const std::int64_t k = c.size(0);
    at::Tensor s = at::mm(x, normalizeRows(c).t());
    at::Tensor la = a.log(), lb = at::full({k}, -std::log(double(k)), at::kFloat);
    const double tau = 0.5;
    nlohmann::json j;
    j["threads"] = at::get_num_threads();
    j["B"] = x.size(0);
    j["K"] = k;
    j["D"] = x.size(1);
    SinkhornPotentials p;
    j["sinkhorn"] = bestOf(reps, [&] { p = sinkhornLog(s, la, lb, eps, iters); });
    j["sinkhorn_plan"] = bestOf(reps, [&] {
        p = sinkhornLog(s, la, lb, eps, iters);
        at::Tensor plan = sinkhornPlan(s, p, eps);
    });
    std::uint64_t noiseSeed = 42;
    j["sinkhorn_gumbel"] = bestOf(reps, [&] {
        p = sinkhornLog(s, la, lb, eps, iters);
        // The noise as fitCodebook draws it, then the straight-through assignment of the step.
        at::Tensor z = gumbelNoise(s.size(0), k, noiseSeed++);
        GumbelAssignment st = gumbelStraightThrough(s, p.g, z, eps, tau);
    });
    FitConfig cfg;
    cfg.epsilon = eps;
    cfg.sinkhornIterations = iters;
    j["step"] = bestOf(reps, [&] {
        at::Tensor noise = gumbelNoise(s.size(0), k, noiseSeed++);
        StepResult r = stageBStep(x, a, c, noise, tau, cfg);
    });
    if (argc > 6) {
        SafetensorsWriter w;
        addTensor(w, "f", p.f.contiguous());
        addTensor(w, "g", p.g.contiguous());
        w.write(argv[6]);
    }
    std::cout << j.dump() << std::endl;
    return 0;
}

int benchLloyd(char** argv) {
    auto file = SafetensorsFile::open(argv[2]);
    const int iters = std::stoi(argv[3]);
    const int reps = std::stoi(argv[4]);
    at::Tensor x = loadTensor(file, "x").clone();
    at::Tensor w = loadTensor(file, "w").clone();
    at::Tensor init = loadTensor(file, "init").clone();
    SphericalLloydResult r;
    nlohmann::json j;
    j["threads"] = at::get_num_threads();
    j["lloyd"] = bestOf(reps, [&] { r = sphericalLloyd(x, w, init, iters); });
    at::Tensor cos = nearestCentroids(x, r.centroids).cosines.to(at::kDouble);
    j["objective"] = (cos * w.to(at::kDouble)).sum().item<double>();
    std::cout << j.dump() << std::endl;
    return 0;
}

int benchSketch(char** argv) {
    namespace fs = std::filesystem;
    const std::string dir = argv[2];
    const int videos = std::stoi(argv[3]);
    const std::int64_t frames = std::stoll(argv[4]), patches = std::stoll(argv[5]),
                       d = std::stoll(argv[6]);
    fs::create_directories(dir);
    std::ofstream manifest(dir + "/corpus.jsonl");
    at::manual_seed(7);
    at::Tensor centres = at::randn({512, d});
    for (int v = 0; v < videos; ++v) {
        EncodedVideo f;
        at::Tensor pick = at::randint(512, {frames * patches}, at::kLong);
        f.features = (centres.index_select(0, pick) + 0.5 * at::randn({frames * patches, d}))
                         .reshape({frames, patches, d});
        for (std::int64_t t = 0; t < frames; ++t) {
            f.frameTimes.push_back(double(t));
        }
        f.backbone = "bench";
        f.gridH = 1;
        f.gridW = int(patches);
        f.sampling = "uniform:" + std::to_string(frames);
        const std::string path = dir + "/v" + std::to_string(v) + ".safetensors";
        saveFeatureFile(f, path);
        manifest << "{\"video\": \"" << path << "\", \"category\": \"c" << v % 3 << "\"}\n";
    }
    manifest.close();
    auto corpus = readCorpusManifest(dir + "/corpus.jsonl");
    SketchCacheOptions o;  // the paper's Stage A: L 4, R 256, m_min 16, m_max 128, cap 5M
    fs::remove_all(dir + "/cache");
    const auto t = Clock::now();
    SketchCacheSummary s = buildSketchCache(corpus, dir + "/cache", o, {}, nullptr);
    const double secs = std::chrono::duration<double>(Clock::now() - t).count();
    nlohmann::json j;
    j["threads"] = at::get_num_threads();
    j["videos"] = s.done;
    j["source_tokens"] = s.tokens;
    j["reps"] = s.reps;
    j["seconds"] = secs;
    j["tokens_per_second"] = double(s.tokens) / secs;
    std::cout << j.dump() << std::endl;
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "sinkhorn" && argc >= 6) {
        return benchSinkhorn(argc, argv);
    }
    if (mode == "lloyd" && argc >= 5) {
        return benchLloyd(argv);
    }
    if (mode == "sketch" && argc >= 7) {
        return benchSketch(argv);
    }
    std::cerr << "usage: bench_train sinkhorn DATA EPS ITERS REPS [OUT] | lloyd DATA ITERS REPS |"
                 " sketch DIR VIDEOS FRAMES PATCHES D\n";
    return 2;
}
