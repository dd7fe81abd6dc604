// Times our ONCE compression on a features/codebook pair written by bench_compress.py and prints
// JSON, for the exact F32 precision and the paper's BF16 production order: the same-shape GEMM
// in that precision (the floor), step 1 alone, the full path, and a new budget from the cached
// assignment. bench_compress.py turns these into ratios against the peers it times in
// the same run.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <tuple>
#include <vector>

#include "bench_timing.h"
#include "codebook/codebook.h"
#include "compress/compression.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"

using namespace once;
using once::bench::bestOf;
using once::bench::Clock;

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: bench_compress DATA.safetensors BUDGET [REPS] [TOP_L]\n";
        return 2;
    }
    const std::string path = argv[1];
    const std::int64_t budget = std::stoll(argv[2]);
    const int reps = argc > 3 ? std::stoi(argv[3]) : 3;
    const int topL = argc > 4 ? std::stoi(argv[4]) : AssignOptions{}.topL;
    const int tileRows = argc > 5 ? std::stoi(argv[5]) : AssignOptions{}.tileRows;
    auto file = SafetensorsFile::open(path);
    at::Tensor x = loadTensor(file, "features").clone();
    Codebook cb = Codebook::fromTensor(loadTensor(file, "codebook"));
    const at::Tensor xf = x.to(at::kFloat);
    const at::Tensor cnT = cb.normalized().t();

    CompressOptions o;
    o.budget = budget;
    nlohmann::json j;
    j["threads"] = at::get_num_threads();
    j["N"] = x.size(0);
    j["K"] = cb.size();
    j["D"] = cb.dim();
    j["dtype"] = std::string(c10::toString(x.scalar_type()));
    j["top_l"] = topL;
    j["tile_rows"] = tileRows;
    // Each precision against the same-shape product in that precision (the floor).
    // float32 with the default kernel (certified BF16 where the CPU has AVX512-BF16), float32
    // forced through the F32 product, and the paper's BF16 precision.
    const std::vector<std::tuple<std::string, std::string, std::string>> configs = {
        {"float32", "float32", "auto"},
        {"float32_sgemm", "float32", "sgemm"},
        {"bfloat16", "bfloat16", "auto"}};
    for (const auto& [name, precision, kernel] : configs) {
        const auto type = precision == "bfloat16" ? at::kBFloat16 : at::kFloat;
        const at::Tensor xa = xf.to(type), ca = cnT.to(type);
        AssignOptions ao;
        ao.precision = precision;
        ao.float32Kernel = kernel;
        ao.topL = topL;
        ao.tileRows = tileRows;
        nlohmann::json p;
        p["gemm"] = bestOf(reps, [&] { at::mm(xa, ca); });
        Assignment cached;
        p["assign"] = bestOf(reps, [&] { cached = assignTokens(x, cb, ao); });
        CompressionResult r;
        p["full"] = bestOf(reps, [&] { r = compressOnce(x, cb, o, ao); });
        // A new budget from the cached assignment (the slider's path).
        CompressOptions other = o;
        other.budget = budget / 2;
        CompressionResult rb;
        p["rebudget"] =
            bestOf(std::max(reps, 5), [&] { rb = compressAssigned(x, cached, cb, other); });
        p["rebudget_parts"] = {{"select", rb.seconds.select},
                               {"reassign", rb.seconds.reassign},
                               {"pool", rb.seconds.pool}};
        p["M"] = r.numOutputs;
        p["fallback_tokens"] = r.fallbackTokens;
        p["rebudget_fallback_tokens"] = rb.fallbackTokens;
        p["rebudget_rescored_scores"] = rb.rescoredScores;
        p["kernel"] = cached.kernel;
        p["lists_complete"] = cached.listsComplete;
        p["exact_fallback_tokens"] = cached.exactFallbackTokens;
        j[name] = p;
    }
    std::cout << j.dump() << std::endl;
    return 0;
}
