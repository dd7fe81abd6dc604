// Dense prefill and decode of the LLaVA-OneVision-0.5B language model (Qwen2-0.5B: 24 layers,
// hidden 896, 14 query heads, 2 key/value heads) on the CPU, F32 and BF16 in the same run, with
// the ratios printed side by side (issue 19, "the CPU's own fast path").
//
//   bench_llm [--tokens 5848] [--new-tokens 16] [--layers 24] [--reps 2]
//             [--dtypes float32,bfloat16] [--threads 0] [--profile] [--out FILE.json]
//
// The model folder (config.json + random BF16 weights, std 0.02) is written to a temporary
// folder under $TMPDIR (or /dev/shm when it has room) and deleted at the end; random weights do
// the same work as the real ones. The prompt is random embeddings of --tokens rows (default
// 8 frames × 729 visual tokens + 16 text tokens), prefilled as generation does it (logits of
// the last row only); decode is --new-tokens single-token steps through the KV cache. Times are
// the median of --reps runs after one warm-up. --profile adds, per dtype, the wall time spent in
// each top-level ATen op of one prefill and per decoded token (RecordFunction), which is how the
// attention path was found to be the part that did not speed up.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/record_function.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "models/hf_checkpoint.h"
#include "models/qwen2/qwen2_model.h"
#include "util/dtype_choice.h"
#include "util/error.h"

using namespace once;
using once::bench::Args;
using once::bench::writeJson;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

namespace {

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// The CPU's name from /proc/cpuinfo (for the docs' tables).
std::string cpuName() {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(colon + 2);
        }
    }
    return "unknown";
}

// Qwen2-0.5B as in llava-hf/llava-onevision-qwen2-0.5b-ov-hf's text_config (bench/gpu's
// make_model.py "0.5b"), with the layer count overridable for quick runs.
nlohmann::json config(std::int64_t layers) {
    nlohmann::json c;
    c["model_type"] = "qwen2";
    c["vocab_size"] = 151936;
    c["hidden_size"] = 896;
    c["intermediate_size"] = 4864;
    c["num_hidden_layers"] = layers;
    c["num_attention_heads"] = 14;
    c["num_key_value_heads"] = 2;
    c["max_position_embeddings"] = 32768;
    c["rms_norm_eps"] = 1e-6;
    c["tie_word_embeddings"] = true;
    c["rope_theta"] = 1000000.0;
    c["torch_dtype"] = "bfloat16";
    return c;
}

fs::path scratchFolder() {
    fs::path base = fs::temp_directory_path();
    std::error_code ec;
    if (const char* t = std::getenv("TMPDIR"); t == nullptr && fs::is_directory("/dev/shm") &&
                                               fs::space("/dev/shm", ec).available > (4ull << 30)) {
        base = "/dev/shm";
    }
    std::random_device rd;
    fs::path dir = base / ("once_bench_llm_" + std::to_string(rd()));
    fs::create_directories(dir);
    return dir;
}

void writeModel(const fs::path& dir, std::int64_t layers) {
    const nlohmann::json c = config(layers);
    std::ofstream(dir / "config.json") << c.dump(2);
    const std::int64_t H = 896, I = 4864, V = 151936, hd = 64, q = 14 * hd, kv = 2 * hd;
    SafetensorsWriter w;
    auto add = [&](const std::string& name, std::vector<std::int64_t> shape, bool ones = false) {
        at::Tensor t = ones ? at::ones(shape) : at::randn(shape) * 0.02;
        addTensor(w, name, t.to(at::kBFloat16));
    };
    add("model.embed_tokens.weight", {V, H});
    add("model.norm.weight", {H}, true);
    for (std::int64_t i = 0; i < layers; ++i) {
        const std::string p = "model.layers." + std::to_string(i) + ".";
        add(p + "input_layernorm.weight", {H}, true);
        add(p + "post_attention_layernorm.weight", {H}, true);
        add(p + "self_attn.q_proj.weight", {q, H});
        add(p + "self_attn.k_proj.weight", {kv, H});
        add(p + "self_attn.v_proj.weight", {kv, H});
        add(p + "self_attn.q_proj.bias", {q});
        add(p + "self_attn.k_proj.bias", {kv});
        add(p + "self_attn.v_proj.bias", {kv});
        add(p + "self_attn.o_proj.weight", {H, q});
        add(p + "mlp.gate_proj.weight", {I, H});
        add(p + "mlp.up_proj.weight", {I, H});
        add(p + "mlp.down_proj.weight", {H, I});
    }
    w.write((dir / "model.safetensors").string());
}

// Wall time per top-level ATen op (ops called from inside other ops are charged to the caller).
struct OpProfile {
    struct Ctx : at::ObserverContext {
        Clock::time_point t0;
        bool top = false;
    };
    static thread_local int depth;
    static std::map<std::string, double>& totals() {
        static std::map<std::string, double> m;
        return m;
    }
    at::CallbackHandle handle = 0;
    void start() {
        totals().clear();
        handle = at::addThreadLocalCallback(
            at::RecordFunctionCallback(
                [](const at::RecordFunction&) -> std::unique_ptr<at::ObserverContext> {
                    auto c = std::make_unique<Ctx>();
                    c->top = depth++ == 0;
                    c->t0 = Clock::now();
                    return c;
                },
                [](const at::RecordFunction& fn, at::ObserverContext* ctx) {
                    --depth;
                    auto* c = static_cast<Ctx*>(ctx);
                    if (c->top) {
                        totals()[fn.name()] += since(c->t0);
                    }
                })
                .scopes({at::RecordScope::FUNCTION}));
    }
    std::vector<std::pair<std::string, double>> stop() {
        at::removeCallback(handle);
        std::vector<std::pair<std::string, double>> v(totals().begin(), totals().end());
        std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.second > b.second; });
        return v;
    }
};
thread_local int OpProfile::depth = 0;

int run(const Args& a) {
    const std::int64_t tokens = a.getInt("tokens", 8 * 729 + 16);
    const std::int64_t newTokens = a.getInt("new-tokens", 16);
    const std::int64_t layers = a.getInt("layers", 24);
    const int reps = int(std::max<std::int64_t>(1, a.getInt("reps", 2)));
    if (const std::int64_t t = a.getInt("threads", 0); t > 0) {
        at::set_num_threads(int(t));
    }
    std::vector<std::string> dtypes;
    std::stringstream ss(a.get("dtypes", "float32,bfloat16"));
    for (std::string d; std::getline(ss, d, ',');) {
        dtypes.push_back(d);
    }
    const bool profile = a.kv.count("profile") > 0;

    const fs::path dir = scratchFolder();
    nlohmann::json j;
    j["bench"] = "llm";
    j["cpu"] = cpuName();
    const CpuBf16Support bf = cpuBf16Support();
    j["avx512_bf16"] = bf.avx512bf16;
    j["amx_bf16"] = bf.amxBf16;
    j["threads"] = at::get_num_threads();
    j["tokens"] = tokens;
    j["new_tokens"] = newTokens;
    j["layers"] = layers;
    j["reps"] = reps;
    try {
        auto t0 = Clock::now();
        at::manual_seed(0);
        writeModel(dir, layers);
        j["write_seconds"] = since(t0);
        // The same prompt for every dtype: F32 embeddings of the embedding table's scale.
        const at::Tensor prompt = at::randn({tokens, 896}) * 0.02;
        for (const std::string& dt : dtypes) {
            const Qwen2Model model =
                Qwen2Model::load(HfCheckpoint::open(dir.string()), {"cpu", dt});
            // Warm-up: a short prefill and a few steps (first-touch of weights, kernel caches).
            {
                KvCache c;
                model.forward(prompt.narrow(0, 0, std::min<std::int64_t>(tokens, 256)), c, true);
                for (int i = 0; i < 2; ++i) {
                    model.forward(model.embed(at::full({1}, 7, at::kLong)), c, true);
                }
            }
            std::vector<double> pre, dec;
            for (int r = 0; r < reps; ++r) {
                KvCache c;
                t0 = Clock::now();
                model.forward(prompt, c, true);
                pre.push_back(since(t0));
                t0 = Clock::now();
                for (std::int64_t i = 0; i < newTokens; ++i) {
                    model.forward(model.embed(at::full({1}, 11 + i, at::kLong)), c, true);
                }
                dec.push_back(since(t0) / double(std::max<std::int64_t>(newTokens, 1)));
            }
            nlohmann::json d;
            d["prefill_seconds"] = median(pre);
            d["decode_seconds_per_token"] = median(dec);
            d["prefill_runs"] = pre;
            d["prefill_tflops"] = model.prefillFlops(tokens) / median(pre) / 1e12;
            if (profile) {
                OpProfile p;
                KvCache c;
                p.start();
                model.forward(prompt, c, true);
                auto ops = p.stop();
                nlohmann::json top = nlohmann::json::object();
                for (std::size_t i = 0; i < ops.size() && i < 12; ++i) {
                    top[ops[i].first] = ops[i].second;
                }
                d["prefill_top_ops"] = top;
                p.start();
                for (std::int64_t i = 0; i < newTokens; ++i) {
                    model.forward(model.embed(at::full({1}, 11 + i, at::kLong)), c, true);
                }
                ops = p.stop();
                top = nlohmann::json::object();
                for (std::size_t i = 0; i < ops.size() && i < 12; ++i) {
                    top[ops[i].first] =
                        ops[i].second / double(std::max<std::int64_t>(newTokens, 1));
                }
                d["decode_top_ops_per_token"] = top;
            }
            j["dtypes"][dt] = d;
            std::cerr << dt << ": prefill " << median(pre) << " s, decode " << median(dec) * 1e3
                      << " ms/token\n";
        }
        if (j["dtypes"].contains("float32") && j["dtypes"].contains("bfloat16")) {
            const auto& f = j["dtypes"]["float32"];
            const auto& b = j["dtypes"]["bfloat16"];
            j["ratio_prefill_f32_over_bf16"] =
                f["prefill_seconds"].get<double>() / b["prefill_seconds"].get<double>();
            j["ratio_decode_f32_over_bf16"] = f["decode_seconds_per_token"].get<double>() /
                                              b["decode_seconds_per_token"].get<double>();
        }
    } catch (...) {
        std::error_code ec;
        fs::remove_all(dir, ec);
        throw;
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    writeJson(a, j);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Args a;
    for (int i = 1; i < argc; ++i) {
        std::string k = argv[i];
        if (k.rfind("--", 0) != 0) {
            std::cerr << "usage: bench_llm [--tokens N] [--new-tokens T] [--layers L] [--reps R] "
                         "[--dtypes float32,bfloat16] [--threads N] [--profile] [--out FILE]\n";
            return 2;
        }
        k = k.substr(2);
        if (k == "profile") {
            a.kv[k] = "1";
        } else if (i + 1 < argc) {
            a.kv[k] = argv[++i];
        } else {
            std::cerr << "bench_llm: --" << k << " needs a value\n";
            return 2;
        }
    }
    try {
        return run(a);
    } catch (const OnceError& e) {
        std::cerr << "bench_llm: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "bench_llm: " << e.what() << "\n";
        return 1;
    }
}
