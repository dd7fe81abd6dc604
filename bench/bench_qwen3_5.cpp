// Prefill and decode of a Qwen3.5 language model folder (the hybrid Gated DeltaNet + gated
// attention stack, core/models/qwen3_5/qwen3_5_text_model.h) on the CPU: what
// bench/bench_qwen3_5.py compares with transformers' eager implementation in the same run.
//
//   bench_qwen3_5 --model DIR [--tokens 1024,4096] [--new-tokens 16] [--reps 2]
//                 [--dtype float32] [--threads 0]
//
// For each prompt length N: random embeddings [N, hidden] (seed 0) at text positions, prefilled
// as generation does it (logits of the last row only, the DeltaNet layers in their chunked
// form), the best of --reps runs after one warm-up; then --new-tokens single-token decoding
// steps with the state carried (recurrent form), seconds per token. Prints one JSON object
// (prefill seconds in all and per prompt token, decode seconds per token, for each length).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bench_timing.h"
#include "models/hf_checkpoint.h"
#include "models/qwen3_5/qwen3_5_config.h"
#include "models/qwen3_5/qwen3_5_text_model.h"
#include "util/error.h"

using namespace once;

namespace {

std::vector<std::int64_t> parseList(const std::string& s) {
    std::vector<std::int64_t> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');) {
        out.push_back(std::stoll(item));
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::string model, dtype = "float32", tokens = "1024";
    std::int64_t newTokens = 16;
    int reps = 2, threads = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--model") {
            model = v;
        } else if (k == "--tokens") {
            tokens = v;
        } else if (k == "--new-tokens") {
            newTokens = std::stoll(v);
        } else if (k == "--reps") {
            reps = std::stoi(v);
        } else if (k == "--dtype") {
            dtype = v;
        } else if (k == "--threads") {
            threads = std::stoi(v);
        } else {
            std::cerr << "unknown option " << k << "\n";
            return 2;
        }
    }
    if (model.empty()) {
        std::cerr << "usage: bench_qwen3_5 --model DIR [--tokens N,...] [--new-tokens K]\n";
        return 2;
    }
    try {
        if (threads > 0) {
            at::set_num_threads(threads);
        }
        const HfCheckpoint ck = HfCheckpoint::open(model);
        const Qwen3_5Config config = Qwen3_5Config::fromJson(ck.config(), ck.file("config.json"));
        const Qwen3_5TextModel m = Qwen3_5TextModel::load(ck, config, {"cpu", dtype});
        nlohmann::json out;
        out["threads"] = at::get_num_threads();
        out["dtype"] = dtype;
        out["runs"] = nlohmann::json::array();
        for (std::int64_t n : parseList(tokens)) {
            at::manual_seed(0);
            const at::Tensor emb = (at::randn({n, config.text.hiddenSize}) * 0.02).to(m.dtype());
            auto prefill = [&] {
                Qwen3_5State s;
                return m.forward(emb, at::Tensor(), s, /*lastOnly=*/true);
            };
            prefill();  // warm-up
            const double pre = bench::bestOf(reps, prefill);
            Qwen3_5State s;
            at::Tensor logits = m.forward(emb, at::Tensor(), s, true);
            std::int64_t id = logits[-1].argmax().item<std::int64_t>();
            const auto t0 = bench::Clock::now();
            for (std::int64_t k = 0; k < newTokens; ++k) {
                logits = m.forward(m.embed(at::full({1}, id, at::kLong)), at::Tensor(), s, true);
                id = logits[-1].argmax().item<std::int64_t>();
            }
            const double dec =
                std::chrono::duration<double>(bench::Clock::now() - t0).count() / double(newTokens);
            out["runs"].push_back({{"tokens", n},
                                   {"prefill_seconds", pre},
                                   {"prefill_seconds_per_token", pre / double(n)},
                                   {"decode_seconds_per_token", dec}});
        }
        std::cout << out.dump() << "\n";
    } catch (const OnceError& e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
    return 0;
}
