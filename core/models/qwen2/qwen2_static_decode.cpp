#include "models/qwen2/qwen2_static_decode.h"

#include <ATen/ATen.h>

#include "models/decoder_kernels.h"
#include "models/qwen2/qwen2_model.h"
#include "models/step_graph.h"
#include "util/device.h"
#include "util/error.h"

namespace once {

Qwen2StaticDecoder::Qwen2StaticDecoder(const Qwen2Model& model, KvCache& cache,
                                       std::int64_t capacity, bool graph)
    : model_(model), cache_(cache), capacity_(capacity), wantGraph_(graph) {
    const Qwen2Config& c = model.config_;
    const std::size_t layers = model.layers_.size();
    const std::int64_t length = cache.length;
    if (length <= 0 || cache.keys.size() != layers || cache.values.size() != layers) {
        fail("fixed-shape decoding needs the cache of a prefill of this model", {}, "cache.length",
             "a prefilled cache of " + std::to_string(layers) + " layers",
             std::to_string(length) + " positions, " + std::to_string(cache.keys.size()) +
                 " layers");
    }
    capacity_ = std::max(capacity, length + 1);
    const at::TensorOptions opts = at::TensorOptions().device(model.device()).dtype(model.dtype());
    cache.keyStore.resize(layers);
    cache.valueStore.resize(layers);
    for (std::size_t li = 0; li < layers; ++li) {
        for (auto [store, view, out] :
             {std::tuple{&cache.keyStore[li], &cache.keys[li], &keys_},
              std::tuple{&cache.valueStore[li], &cache.values[li], &values_}}) {
            const bool reuse = cache.storeOwner.owns && store->defined() &&
                               store->size(2) >= capacity_ && view->is_alias_of(*store);
            if (!reuse) {
                at::Tensor fresh = at::empty({1, c.numKvHeads, capacity_, c.headDim}, opts);
                fresh.narrow(2, 0, length).copy_(*view);
                *store = fresh;
            }
            // Masked positions are still read: 0 × a stale NaN would be NaN.
            store->narrow(2, length, store->size(2) - length).zero_();
            out->push_back(store->narrow(2, 0, capacity_));
        }
    }
    cache.storeOwner.owns = true;
    const at::TensorOptions longs = opts.dtype(at::kLong);
    token_ = at::zeros({1}, longs);
    position_ = at::zeros({1}, longs);
    queries_ = at::empty({1, 1, c.numHeads, c.headDim}, opts);
    length_ = CacheLength::make(position_, capacity_);
    logits_ = at::empty({1, c.vocabSize}, opts.dtype(at::kFloat));
}

Qwen2StaticDecoder::~Qwen2StaticDecoder() {
    for (std::size_t li = 0; li < keys_.size(); ++li) {
        cache_.keys[li] = cache_.keyStore[li].narrow(2, 0, cache_.length);
        cache_.values[li] = cache_.valueStore[li].narrow(2, 0, cache_.length);
    }
}

at::Tensor Qwen2StaticDecoder::step(std::int64_t id) {
    const std::int64_t vocab = model_.config_.vocabSize;
    if (id < 0 || id >= vocab) {
        fail("token id outside the model's vocabulary", {}, "input_ids",
             "0.." + std::to_string(vocab - 1), std::to_string(id));
    }
    if (cache_.length >= capacity_) {
        fail("the decoding cache is full", {}, "cache.length", "below " + std::to_string(capacity_),
             std::to_string(cache_.length));
    }
    // Written in place on the device's current stream, ahead of the step's kernels.
    token_.fill_(id);
    position_.fill_(cache_.length);
    if (graph_) {
        graph_->replay();
    } else if (wantGraph_ && !triedGraph_) {
        triedGraph_ = true;
        const at::Device device = model_.device();
        if (!canCaptureStepGraph(device)) {
            const std::string why = deviceBackendProblem(device.type());
            note_ = "no step-graph capture on " + device.str() + (why.empty() ? "" : ": " + why);
            run();
        } else {
            try {
                graph_ = captureStepGraph(device, [this] { run(); });
                graph_->replay();  // the capture recorded the step; this runs it
                mode_ = "graph";
            } catch (const std::exception& e) {
                graph_.reset();
                note_ = std::string("step-graph capture failed: ") + e.what();
                run();
            }
        }
    } else {
        run();
    }
    if (!reportedFallback_) {  // a kernel that fell back to the reference says so once
        const DecoderKernels& kernels = model_.kernels();
        const std::string why = kernels.fallbackReason ? kernels.fallbackReason() : "";
        if (!why.empty()) {
            note_ += (note_.empty() ? "" : "; ") + why;
            reportedFallback_ = true;
        }
    }
    ++cache_.length;
    return logits_;
}

void Qwen2StaticDecoder::run() {
    const Qwen2Config& c = model_.config_;
    const std::int64_t nh = c.numHeads, hd = c.headDim;
    const DecoderKernels& kernel = model_.kernels();
    at::Tensor h = at::embedding(model_.embedTokens_, token_).view({1, 1, c.hiddenSize});
    RotaryStoreArgs rope;
    rope.heads = nh;
    rope.kvHeads = c.numKvHeads;
    rope.invFreq = model_.invFreq_;
    rope.position = position_;
    rope.queries = queries_;
    std::tie(rope.cos, rope.sin) =
        rotaryTables(position_.to(at::kFloat), model_.invFreq_, model_.dtype());
    length_.update();
    for (std::size_t li = 0; li < model_.layers_.size(); ++li) {
        const auto& l = model_.layers_[li];
        at::Tensor x = model_.rmsNorm(h, l.inNorm);
        rope.qkv = at::linear(x, l.qkv, l.qkvBias).view({1, -1});
        rope.keyStore = keys_[li];
        rope.valueStore = values_[li];
        kernel.rotaryStore(rope);
        const at::Tensor a =
            kernel.cacheAttention(queries_.view({1, nh, hd}), keys_[li], values_[li], length_);
        h.add_(at::linear(a, l.o, l.ob));
        x = model_.rmsNorm(h, l.postNorm);
        h.add_(at::linear(kernel.swiglu(at::linear(x, l.gateUp)), l.down));
    }
    h = model_.rmsNorm(h, model_.norm_);
    logits_.copy_(at::linear(h, model_.lmHead_).view({1, c.vocabSize}));
}

}  // namespace once
