// The GPU measurements (bench/gpu/run.sh, bench/gpu/README.md): one driver, three commands.
//
//   bench_gpu check    [--device cuda]   every registered assignment backend and pooling kernel
//                                         against the CPU reference, and the device's decoder
//                                         kernels against their ATen reference: the loop of the
//                                         ctest suites compress_test_backends_* (support/
//                                         backend_check.h, decoder_kernel_check.h), for a machine
//                                         without Qt; exit 1 on any mismatch
//   bench_gpu compress [--n --k --d --budget --reps --tile-rows --device --out --trace FILE]
//                                         ours vs the same computation in LibTorch eager ops vs
//                                         the same-shape GEMM (cuBLAS on a GPU), same run
//   bench_gpu e2e --model DIR [--frames --budgets --new-tokens --decode --compare-eager B
//                  --compare-reference-kernels B --trace-budget B --device --out]
//                                         encode → compress → prefill → decode, Dense and ONCE
//                                         at each budget, with the product's own model code;
//                                         the captured decoding step against the eager one, and
//                                         the device's fused decoder kernels against ATen's
//
// Every command also runs on the CPU at small shapes (run.sh --dry-run). Decoding video needs
// FFmpeg, which the GPU machine lacks: frames are synthetic preprocessed pixels, and the decode
// stage is reported as not measured. Times are medians of --reps runs after warm-ups, each
// ended by a device synchronisation.
#include <ATen/ATen.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "codebook/codebook.h"
#include "compress/assign_backend.h"
#include "compress/compression.h"
#include "compress/device_compress.h"
#include "compress/pooling.h"
#include "kineto_trace.h"
#include "models/decoder_kernels.h"
#include "models/generation.h"
#include "models/hf_checkpoint.h"
#include "models/llava_ov/llava_ov_encoder.h"
#include "models/qwen2/qwen2_config.h"
#include "models/qwen2/qwen2_model.h"
#include "support/backend_check.h"
#include "support/decoder_kernel_check.h"
#include "util/device.h"
#include "util/dtype_choice.h"
#include "util/error.h"

using namespace once;
using once::bench::Args;
using once::bench::writeJson;
using Clock = std::chrono::steady_clock;

namespace {

void synchronize(const at::Device& device) {
    synchronizeDevice(device);
}

// Median seconds of `reps` runs after `warmup` runs.
double timeIt(const at::Device& device, int warmup, int reps, const std::function<void()>& f) {
    for (int i = 0; i < warmup; ++i) {
        f();
    }
    synchronize(device);
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
        const auto t0 = Clock::now();
        f();
        synchronize(device);
        t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// Tokens around a few hundred centres (video tokens are far from uniform), so that counts are
// skewed and some tokens miss every selected codeword, as on real features.
at::Tensor clusteredTokens(std::int64_t n, std::int64_t d, const at::TensorOptions& on) {
    const at::Tensor centres = at::randn({512, d}, on.dtype(at::kFloat));
    const at::Tensor pick = at::randint(0, 512, {n}, on.dtype(at::kLong));
    return centres.index_select(0, pick) + 0.5 * at::randn({n, d}, on.dtype(at::kFloat));
}

nlohmann::json deviceJson(const at::Device& device) {
    nlohmann::json j;
    j["device"] = device.str();
    if (!device.is_cpu()) {
        j["gpu"] = deviceDescription(device);
        j["backend_module"] = deviceBackendProblem(device.type()).empty()
                                  ? std::string("loaded")
                                  : deviceBackendProblem(device.type());
    }
    return j;
}

// ---- check -------------------------------------------------------------------------------

int check(const Args& a) {
    // The backend suite's loop (tests/support/backend_check.h), for a machine without Qt: every
    // registered backend that can run here against the CPU reference.
    const at::Device wanted = resolveDevice(a.get("device", "auto"));
    int failures = 0, onWanted = 0;
    for (const std::string& backend : test::checkedAssignBackends()) {
        std::string why;
        const std::string device = test::backendDevice(backend, &why);
        if (device.empty()) {
            std::cout << "SKIP " << backend << ": " << why << "\n";
            continue;
        }
        onWanted += at::Device(device).type() == wanted.type() ? 1 : 0;
        for (const test::BackendCheck& c : test::checkAssignBackend(backend, device)) {
            std::cout << (c.passed ? "PASS " : "FAIL ") << c.what << ": " << c.detail << "\n";
            failures += c.passed ? 0 : 1;
        }
    }
    if (onWanted == 0) {
        std::cout << "FAIL no backend ran on " << wanted.str() << "\n";
        ++failures;
    }
    // The decoder layer's kernels of the wanted device's module (models/decoder_kernels.h).
    if (!hasDeviceDecoderKernels(wanted)) {
        std::cout << (wanted.is_cpu() ? "SKIP" : "FAIL") << " decoder kernels: none registered for "
                  << wanted.str() << "\n";
        failures += wanted.is_cpu() ? 0 : 1;
    } else {
        for (const test::BackendCheck& c :
             test::checkDecoderKernels(decoderKernels(wanted), wanted.str())) {
            std::cout << (c.passed ? "PASS " : "FAIL ") << c.what << ": " << c.detail << "\n";
            failures += c.passed ? 0 : 1;
        }
    }
    std::cout << (failures ? "check: FAILED " + std::to_string(failures) : std::string("check: ok"))
              << " on " << wanted.str() << "\n";
    return failures ? 1 : 0;
}

// ---- compress ----------------------------------------------------------------------------

// The computation a PyTorch user writes with eager ops: the whole N×K score matrix, topk,
// bincount, a scatter-add for the pooling.
at::Tensor eagerOnce(const at::Tensor& x, const at::Tensor& cnB, std::int64_t budget, int l) {
    const std::int64_t k = cnB.size(0);
    const at::Tensor xf = x.to(at::kFloat);
    const at::Tensor xn = (xf / xf.norm(2, 1, true).clamp_min(1e-12)).to(at::kBFloat16);
    const at::Tensor s = at::mm(xn, cnB.t());
    const at::Tensor top = std::get<1>(at::topk(s, l, 1));
    const at::Tensor counts = at::bincount(top.select(1, 0), {}, k);
    const at::Tensor sel = std::get<1>(at::topk(counts, std::min(budget, k)));
    at::Tensor position = at::full({k}, -1, top.options().dtype(at::kLong));
    position.index_put_({sel}, at::arange(sel.size(0), position.options()));
    const at::Tensor pos = position.index({top});
    const at::Tensor hit = pos >= 0;
    const at::Tensor first = hit.to(at::kInt).argmax(1, true);
    const at::Tensor listed = hit.any(1);
    const at::Tensor fallback = at::mm(xn, cnB.index_select(0, sel).t()).argmax(1);
    const at::Tensor group = at::where(listed, pos.gather(1, first).squeeze(1), fallback);
    const at::Tensor sums =
        at::zeros({sel.size(0), x.size(1)}, xf.options()).index_add_(0, group, xf);
    const at::Tensor sizes = at::bincount(group, {}, sel.size(0));
    return sums / sizes.clamp_min(1).unsqueeze(1).to(at::kFloat);
}

int compress(const Args& a) {
    const at::Device device = resolveDevice(a.get("device", "auto"));
    const std::int64_t n = a.getInt("n", 23329), k = a.getInt("k", 8192), d = a.getInt("d", 3584);
    const std::int64_t budget = a.getInt("budget", 512);
    const int reps = int(a.getInt("reps", 10)), l = 8;
    at::manual_seed(0);
    const auto on = at::TensorOptions().device(device);
    const at::Tensor x = clusteredTokens(n, d, on).to(at::kBFloat16);
    const Codebook cb = Codebook::fromTensor(at::randn({k, d}));
    const at::Tensor cnB = codebookOnDevice(cb, device).to(at::kBFloat16);
    AssignOptions ao;
    ao.precision = "bfloat16";  // the paper's production precision
    ao.topL = l;
    // Rows per score tile: 2048 × 8192 BF16 scores (32 MiB) stay in an H100's 50 MB L2.
    ao.tileRows = int(a.getInt("tile-rows", ao.tileRows));
    CompressOptions co;
    co.budget = budget;

    Assignment assignment;
    const double assign = timeIt(device, 2, reps, [&] { assignment = assignTokens(x, cb, ao); });
    CompressionResult r;
    const double steps25 =
        timeIt(device, 2, reps, [&] { r = compressAssigned(x, assignment, cb, co); });
    const double ours = timeIt(device, 1, reps, [&] {
        const Assignment fresh = assignTokens(x, cb, ao);
        r = compressAssigned(x, fresh, cb, co);
    });
    const double eager = timeIt(device, 1, reps, [&] { (void)eagerOnce(x, cnB, budget, l); });
    const at::Tensor xn = x.contiguous(), cnT = cnB.t();
    const double gemm = timeIt(device, 2, reps, [&] { (void)at::mm(xn, cnT); });

    // --trace FILE: one more run of ours under the profiler (Chrome trace to FILE, totals here).
    nlohmann::json trace;
    if (const std::string path = a.get("trace", ""); !path.empty()) {
        trace = once::bench::traceOnce(
            [&] {
                const Assignment fresh = assignTokens(x, cb, ao);
                r = compressAssigned(x, fresh, cb, co);
                synchronize(device);
            },
            path, device.is_cuda());
    }
    nlohmann::json j = deviceJson(device);
    j.update(
        {{"bench", "compress"},
         {"shape", {{"N", n}, {"K", k}, {"D", d}, {"B", budget}, {"L", l}, {"dtype", "bfloat16"}}},
         {"tile_rows", ao.tileRows},
         {"backend", assignment.backend + "/" + assignment.kernel},
         {"seconds",
          {{"ours", ours},
           {"ours_assign", assign},
           {"ours_select_reassign_pool", steps25},
           {"eager_libtorch", eager},
           {"gemm_same_shape", gemm}}},
         {"ratios",
          {{"eager_over_ours", eager / ours},
           {"ours_over_gemm", ours / gemm},
           {"targets", "eager_over_ours >= 1.5, ours_over_gemm <= 1.25"}}},
         {"outputs", r.numOutputs},
         {"fallback_tokens", r.fallbackTokens}});
    if (!trace.is_null()) {
        j["trace"] = trace;
    }
    writeJson(a, j);
    return 0;
}

// ---- e2e ---------------------------------------------------------------------------------

std::vector<std::int64_t> parseList(const std::string& s) {
    std::vector<std::int64_t> v;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');) {
        if (!item.empty()) {
            v.push_back(std::stoll(item));
        }
    }
    return v;
}

int e2e(const Args& a) {
    const std::string modelDir = a.get("model", "");
    if (modelDir.empty()) {
        fail("e2e needs a model folder", {}, "--model", "a folder from make_model.py", "nothing");
    }
    const at::Device device = resolveDevice(a.get("device", "auto"));
    const DtypeChoice dtype = chooseComputeDtype(a.get("dtype", "auto"), device.str());
    const std::int64_t frames = a.getInt("frames", 32), newTokens = a.getInt("new-tokens", 16);
    const std::int64_t promptTokens = a.getInt("prompt-tokens", 40);
    const int reps = int(a.getInt("reps", 3));
    const std::vector<std::int64_t> budgets = parseList(a.get("budgets", "32,64,128,256,512,1024"));

    EncoderOptions eo;
    eo.modelDir = modelDir;
    eo.device = device.str();
    eo.dtype = dtype.resolved;
    eo.poolStride = int(a.getInt("pool-stride", 1));
    const auto t0 = Clock::now();
    LlavaOvEncoder encoder(eo);
    const Qwen2Model model =
        Qwen2Model::load(HfCheckpoint::open(modelDir), {device.str(), dtype.resolved});
    synchronize(device);
    const double loadSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
    const std::int64_t image = encoder.config().vision.imageSize;
    // The decoding bound: every layer's weights and the head are read once per new token, plus
    // the KV cache; against the device's own copy bandwidth measured now (read + write).
    const Qwen2Config& c = model.config();
    const double elem = double(at::elementSize(model.dtype()));
    const double weightBytes =
        elem *
        (double(c.numLayers) * (double(c.hiddenSize) * double(c.numHeads * c.headDim) * 2.0 +
                                double(c.hiddenSize) * double(c.numKvHeads * c.headDim) * 2.0 +
                                3.0 * double(c.hiddenSize) * double(c.intermediateSize)) +
         double(c.vocabSize) * double(c.hiddenSize));
    const double kvBytesPerToken = elem * 2.0 * double(c.numLayers * c.numKvHeads * c.headDim);
    const at::Tensor buffer = at::empty({std::int64_t(1) << (device.is_cuda() ? 28 : 22)},
                                        at::TensorOptions().device(device).dtype(at::kFloat));
    at::Tensor copy = at::empty_like(buffer);
    const double copySeconds = timeIt(device, 2, 5, [&] { copy.copy_(buffer); });
    const double bandwidth = 2.0 * double(buffer.nbytes()) / copySeconds;

    // Synthetic preprocessed frames: the model's work does not depend on pixel values.
    at::manual_seed(0);
    const at::Tensor pixels =
        at::randn({frames, 3, image, image}, at::TensorOptions().device(device).dtype(at::kFloat));
    const at::Tensor ids = at::randint(0, model.config().vocabSize, {promptTokens},
                                       at::TensorOptions().device(device).dtype(at::kLong));
    const at::Tensor before = model.embed(ids.narrow(0, 0, promptTokens / 2));
    const at::Tensor after =
        model.embed(ids.narrow(0, promptTokens / 2, promptTokens - promptTokens / 2));
    const Codebook cb = Codebook::fromTensor(at::randn({a.getInt("k", 8192), encoder.dim()}));
    codebookOnDevice(cb, device);  // resident, as in a session that keeps its codebook

    nlohmann::json runs = nlohmann::json::array();
    // Each run: a budget (0: dense) and how decoding steps run. The rows after the sweep repeat
    // Dense and one budget with the eager step (Qwen2Model::forward per token), so the captured
    // step graph is compared with it in the same run (--compare-eager 0 leaves them out).
    // Then Dense and that budget again with the ATen reference of the decoder layer's kernels
    // (models/decoder_kernels.h) instead of the device module's fused ones, to measure them in
    // the same run (--compare-reference-kernels -1 leaves them out).
    const std::string decode = a.get("decode", "auto");
    struct Row {
        std::int64_t budget;
        std::string decode;
        bool deviceKernels;
    };
    std::vector<Row> plan{{0, decode, true}};
    for (const std::int64_t b : budgets) {
        plan.push_back({b, decode, true});
    }
    if (const std::int64_t b = a.getInt("compare-eager", 512); b >= 0 && decode != "eager") {
        plan.push_back({0, "eager", true});
        if (b > 0) {
            plan.push_back({b, "eager", true});
        }
    }
    const bool fusedHere = hasDeviceDecoderKernels(device);
    if (const std::int64_t b = a.getInt("compare-reference-kernels", 512); b >= 0 && fusedHere) {
        plan.push_back({0, decode, false});
        if (b > 0) {
            plan.push_back({b, decode, false});
        }
    }
    const DecoderKernels deviceKernels = decoderKernels(device);
    auto useKernels = [&](bool fused) {
        if (fusedHere) {
            registerDecoderKernels(device.type(), fused ? deviceKernels : DecoderKernels{});
        }
    };
    // One whole run: encode, compress (or not), prefill and decode; the sample's times, and the
    // generation (how its steps ran, the ids).
    auto measure = [&](std::int64_t budget, const std::string& decodeMode, GenerationResult& out) {
        nlohmann::json s;
        synchronize(device);
        auto t = Clock::now();
        EncodedVideo v = encoder.encodePixels(pixels);
        synchronize(device);
        s["encode"] = std::chrono::duration<double>(Clock::now() - t).count();
        at::Tensor visual;
        t = Clock::now();
        if (budget == 0) {
            visual = v.features.reshape({-1, v.features.size(-1)});
            s["compress"] = 0.0;
        } else {
            AssignOptions ao;
            ao.precision = "bfloat16";
            CompressOptions co;
            co.budget = budget;
            const Assignment asg = assignTokens(v.features, cb, ao);
            visual = compressAssigned(v.features, asg, cb, co).tokens;
            synchronize(device);
            s["compress"] = std::chrono::duration<double>(Clock::now() - t).count();
        }
        if (v.layoutTokens.defined()) {
            visual =
                at::cat({visual.to(device, at::kFloat), v.layoutTokens.to(device, at::kFloat)});
        }
        const at::Tensor prompt = at::cat({before, visual.to(before.scalar_type()), after});
        GenerationOptions go;
        go.maxNewTokens = newTokens;  // no stop token: the same work as real weights
        go.decode = decodeMode;
        const GenerationResult g = generate(model, prompt, go);
        s["visual_tokens"] = visual.size(0);
        s["prompt_tokens"] = g.promptLength;
        s["prefill"] = g.prefillSeconds;
        s["decode_tokens"] = std::int64_t(g.tokens.size());
        s["per_token_decode"] =
            g.tokens.size() > 1 ? g.decodeSeconds / double(g.tokens.size() - 1) : 0.0;
        s["generate"] = g.decodeSeconds;
        s["first_token"] =
            s["encode"].get<double>() + s["compress"].get<double>() + g.prefillSeconds;
        s["end_to_end"] = s["first_token"].get<double>() + g.decodeSeconds;
        s["peak_reserved_bytes"] = devicePeakReservedBytes(device);
        // Bytes one decoding step must read (weights + the cache at its mean length).
        const double perToken = s["per_token_decode"].get<double>();
        const double stepBytes =
            weightBytes + kvBytesPerToken * (double(g.promptLength) + double(newTokens) / 2);
        s["decode_bandwidth_fraction"] = perToken > 0 ? stepBytes / perToken / bandwidth : 0.0;
        out = g;
        return s;
    };
    for (const Row& row : plan) {
        const std::int64_t budget = row.budget;
        const std::string& decodeMode = row.decode;
        useKernels(row.deviceKernels);
        std::vector<nlohmann::json> samples;
        std::string decodeUsed, decodeNote;
        std::vector<std::int64_t> tokensSeen;
        for (int rep = 0; rep < reps + 1; ++rep) {  // the first run warms up
            resetDevicePeakMemory(device);
            GenerationResult g;
            const nlohmann::json s = measure(budget, decodeMode, g);
            decodeUsed = g.decodeMode;
            decodeNote = g.decodeNote;
            tokensSeen = g.tokens;
            if (rep > 0) {
                samples.push_back(s);
            }
        }
        // Median per field.
        nlohmann::json m;
        for (const auto& [key, value] : samples.front().items()) {
            std::vector<double> vals;
            for (const auto& s : samples) {
                vals.push_back(s[key].get<double>());
            }
            std::sort(vals.begin(), vals.end());
            m[key] = vals[vals.size() / 2];
        }
        m["method"] = budget == 0 ? "dense" : "once";
        m["decode_mode"] = decodeUsed;
        // "fused": the device module's kernels; "reference": switched off for the comparison
        // rows; "aten": a device without fused kernels (the CPU), where ATen is all there is.
        m["decoder_kernels"] = !fusedHere ? "aten" : row.deviceKernels ? "fused" : "reference";
        m["decode_note"] = decodeNote;
        m["tokens"] = tokensSeen;  // the greedy ids: the same prompt decodes alike in every mode
        m["budget"] = budget == 0 ? nlohmann::json(nullptr) : nlohmann::json(budget);
        m["video_decode"] = nullptr;  // not measured: no FFmpeg on the GPU machine
        std::cerr << m.dump() << "\n";
        runs.push_back(m);
    }
    useKernels(true);
    const double dense = runs[0]["end_to_end"].get<double>(),
                 densePrefill = runs[0]["prefill"].get<double>();
    for (auto& r : runs) {
        r["speedup_end_to_end"] = dense / r["end_to_end"].get<double>();
        r["speedup_prefill"] = densePrefill / r["prefill"].get<double>();
    }
    // --trace-budget B: one more whole run at B under the profiler for each decoding mode, to
    // see where the host and the device spend the time (kernel and op totals; no trace file,
    // which would be tens of MB for a 7B decode).
    nlohmann::json traces;
    if (const std::int64_t tb = a.getInt("trace-budget", -1); tb >= 0) {
        std::vector<std::string> modes{decode};
        if (decode != "eager") {
            modes.push_back("eager");
        }
        for (const std::string& mode : modes) {
            GenerationResult g;
            traces[mode] =
                once::bench::traceOnce([&] { measure(tb, mode, g); }, "", device.is_cuda());
            traces[mode]["budget"] = tb;
            traces[mode]["decode_mode"] = g.decodeMode;
        }
    }
    nlohmann::json j = deviceJson(device);
    if (!traces.is_null()) {
        j["traces"] = traces;
    }
    j.update(
        {{"bench", "e2e"},
         {"model", modelDir},
         {"dtype",
          {{"requested", dtype.requested}, {"resolved", dtype.resolved}, {"reason", dtype.reason}}},
         {"frames", frames},
         {"image_size", image},
         {"new_tokens", newTokens},
         {"load_seconds", loadSeconds},
         {"llm_weight_bytes", weightBytes},
         {"copy_bandwidth_bytes_per_s", bandwidth},
         {"hidden", model.config().hiddenSize},
         {"layers", model.config().numLayers},
         {"runs", runs}});
    writeJson(a, j);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: bench_gpu check|compress|e2e [--key value ...]\n";
        return 2;
    }
    Args a;
    for (int i = 2; i + 1 < argc; i += 2) {
        std::string key = argv[i];
        if (key.rfind("--", 0) != 0) {
            std::cerr << "expected --key value, got " << key << "\n";
            return 2;
        }
        a.kv[key.substr(2)] = argv[i + 1];
    }
    try {
        const std::string cmd = argv[1];
        if (cmd == "check") {
            return check(a);
        }
        if (cmd == "compress") {
            return compress(a);
        }
        if (cmd == "e2e") {
            return e2e(a);
        }
        std::cerr << "unknown command " << cmd << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "bench_gpu: " << e.what() << "\n";
        return 1;
    }
}
