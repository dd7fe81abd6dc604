// Times ForestPrune (core/compress/baselines/forestprune.cpp) on features written by
// bench_forestprune.py: prepare() (graph pruner, forest, merge plan) plus compress() at a budget,
// a new budget from the prepared state, and prints JSON with the kept token indices so the
// script can check them against the eager PyTorch reference it times in the same run.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "bench_timing.h"
#include "compress/token_compressor.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"

using namespace once;
using once::bench::bestOf;

int main(int argc, char** argv) {
    if (argc < 5) {
        std::cerr << "usage: bench_forestprune DATA.safetensors GRID_H GRID_W BUDGET [REPS]\n";
        return 2;
    }
    auto file = SafetensorsFile::open(argv[1]);
    EncodedVideo video(loadTensor(file, "features").clone());
    video.gridH = std::stoi(argv[2]);
    video.gridW = std::stoi(argv[3]);
    const std::int64_t budget = std::stoll(argv[4]);
    const int reps = argc > 5 ? std::stoi(argv[5]) : 3;
    auto c = makeCompressor({"forestprune", {}, nullptr, {}, nullptr});
    CompressionResult r;
    const double full = bestOf(reps, [&] {
        c->prepare(video);
        r = c->compress(budget);
    });
    const double rebudget = bestOf(reps, [&] { (void)c->compress(budget / 2 + 1); });
    at::Tensor kept = (r.groupOfToken >= 0).nonzero().view({-1}).contiguous();
    nlohmann::json j;
    j["threads"] = at::get_num_threads();
    j["full_s"] = full;
    j["prepare_s"] = r.seconds.assign;
    j["rebudget_s"] = rebudget;
    j["M"] = r.numOutputs;
    j["kept"] = std::vector<std::int64_t>(kept.data_ptr<std::int64_t>(),
                                          kept.data_ptr<std::int64_t>() + kept.numel());
    std::cout << j.dump() << "\n";
    return 0;
}
