#include "models/generation.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "models/qwen2/qwen2_model.h"
#include "models/qwen2/qwen2_static_decode.h"
#include "models/step_graph.h"
#include "util/error.h"

namespace once {
namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void synchronize(const at::Tensor& t) {
    // .item() on the device waits for the queued kernels, so timings are not just launch times.
    if (t.is_cuda()) {
        t.sum().item<float>();
    }
}

}  // namespace

std::int64_t pickToken(const at::Tensor& logits, const GenerationOptions& o,
                       at::Generator& generator) {
    if (o.temperature <= 0) {
        // On the logits' device (argmax returns the first maximum there too: the lowest id wins
        // ties): one number crosses to the host, not the vocabulary's logits.
        return logits.reshape({-1}).argmax().item<std::int64_t>();
    }
    at::Tensor l = logits.to(at::kCPU, at::kFloat).reshape({-1});
    at::Tensor probs = at::softmax(l / o.temperature, 0);
    if (o.topP < 1.0) {
        auto [sorted, order] = probs.sort(0, /*descending=*/true);
        at::Tensor cum = sorted.cumsum(0);
        // Keep the smallest prefix whose mass reaches top-p (at least one token).
        at::Tensor drop = (cum - sorted) >= o.topP;
        sorted.masked_fill_(drop, 0);
        probs = at::zeros_like(probs).scatter_(0, order, sorted);
    }
    return at::multinomial(probs / probs.sum(), 1, false, generator).item<std::int64_t>();
}

GenerationResult runGeneration(std::int64_t promptLength,
                               const std::function<at::Tensor()>& prefill,
                               const std::function<at::Tensor(std::int64_t)>& step,
                               const GenerationOptions& o) {
    if (o.temperature > 0 && (o.topP <= 0 || o.topP > 1)) {
        fail("top-p must lie in (0, 1]", {}, "top_p", "(0, 1]", std::to_string(o.topP));
    }
    GenerationResult r;
    r.promptLength = promptLength;
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(o.seed);
    o.cancel.throwIfCancelled();
    auto t0 = std::chrono::steady_clock::now();
    at::Tensor logits = prefill();
    synchronize(logits);
    r.prefillSeconds = secondsSince(t0);
    if (o.onPrefilled) {
        o.onPrefilled();
    }
    t0 = std::chrono::steady_clock::now();
    for (std::int64_t i = 0; i < o.maxNewTokens; ++i) {
        const std::int64_t next = pickToken(logits[-1], o, gen);
        r.tokens.push_back(next);
        if (o.onToken) {
            o.onToken(next);
        }
        if (std::find(o.stopTokens.begin(), o.stopTokens.end(), next) != o.stopTokens.end()) {
            r.stoppedByToken = true;
            break;
        }
        if (i + 1 == o.maxNewTokens) {
            break;
        }
        o.cancel.throwIfCancelled();
        logits = step(next);
    }
    r.decodeSeconds = secondsSince(t0);
    return r;
}

GenerationResult generate(const Qwen2Model& model, const at::Tensor& prompt,
                          const GenerationOptions& o) {
    if (prompt.dim() != 2 || prompt.size(0) == 0) {
        fail("the prompt is empty", {}, "prompt", "[S > 0, hidden]", std::to_string(prompt.dim()));
    }
    if (o.decode != "auto" && o.decode != "eager" && o.decode != "static" && o.decode != "graph") {
        fail("unknown decoding mode", {}, "decode", "auto, eager, static or graph", o.decode);
    }
    const bool graph =
        o.decode == "graph" || (o.decode == "auto" && canCaptureStepGraph(model.device()));
    const bool fixed = graph || o.decode == "static";
    KvCache cache;
    std::unique_ptr<Qwen2StaticDecoder> decoder;  // made at the first step, after the prefill
    GenerationResult r = runGeneration(
        prompt.size(0), [&] { return model.forward(prompt, cache, /*lastOnly=*/true); },
        [&](std::int64_t id) {
            if (!fixed) {
                return model.forward(model.embed(at::full({1}, id, at::kLong)), cache, true);
            }
            if (!decoder) {
                decoder = std::make_unique<Qwen2StaticDecoder>(
                    model, cache, prompt.size(0) + o.maxNewTokens, graph);
            }
            return decoder->step(id);
        },
        o);
    if (decoder) {
        r.decodeMode = decoder->mode();
        r.decodeNote = decoder->note();
    }
    return r;
}

}  // namespace once
