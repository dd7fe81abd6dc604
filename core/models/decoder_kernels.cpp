#include "models/decoder_kernels.h"

#include <ATen/ATen.h>

#include <cmath>
#include <map>
#include <mutex>

#include "models/qwen2/qwen2_model.h"
#include "util/device.h"

namespace once {
namespace {

at::Tensor rmsNormReference(const at::Tensor& x, const at::Tensor& w, double eps) {
    // As transformers: normalise in F32, cast back, then scale.
    at::Tensor xf = x.to(at::kFloat);
    xf = xf * at::rsqrt(xf.pow(2).mean({-1}, true) + eps);
    return w * xf.to(x.scalar_type());
}

void rotaryStoreReference(const RotaryStoreArgs& a) {
    const std::int64_t n = a.qkv.size(0), hd = a.keyStore.size(3);
    const std::int64_t qDim = a.heads * hd, kvDim = a.kvHeads * hd;
    at::Tensor cosT = a.cos, sinT = a.sin;
    if (!cosT.defined() || !sinT.defined()) {
        const at::TensorOptions floats = a.qkv.options().dtype(at::kFloat);
        std::tie(cosT, sinT) = rotaryTables(
            a.position.defined() ? a.position.to(at::kFloat) + at::arange(n, floats)
                                 : at::arange(a.firstPosition, a.firstPosition + n, floats),
            a.invFreq, a.qkv.scalar_type());
    }
    const at::Tensor q = a.qkv.narrow(1, 0, qDim).view({1, n, a.heads, hd});
    const at::Tensor k = a.qkv.narrow(1, qDim, kvDim).view({1, n, a.kvHeads, hd});
    const at::Tensor v = a.qkv.narrow(1, qDim + kvDim, kvDim).view({1, n, a.kvHeads, hd});
    applyRotary(q, cosT, sinT, a.queries);
    if (!a.position.defined()) {  // positions known here: write in place
        applyRotary(k, cosT, sinT, a.keyStore.narrow(2, a.firstPosition, n).transpose(1, 2));
        a.valueStore.narrow(2, a.firstPosition, n).transpose(1, 2).copy_(v);
        return;
    }
    at::Tensor rotated = at::empty({1, n, a.kvHeads, hd}, a.qkv.options());
    applyRotary(k, cosT, sinT, rotated);
    const at::Tensor rows = a.position + at::arange(n, a.position.options());
    a.keyStore.index_copy_(2, rows, rotated.transpose(1, 2));
    a.valueStore.index_copy_(2, rows, v.transpose(1, 2));
}

at::Tensor swigluReference(const at::Tensor& gateUp) {
    const std::int64_t i = gateUp.size(-1) / 2;
    return at::silu(gateUp.narrow(-1, 0, i)).mul_(gateUp.narrow(-1, i, i));
}

at::Tensor cacheAttentionReference(const at::Tensor& q, const at::Tensor& keyStore,
                                   const at::Tensor& valueStore, const CacheLength& length) {
    const std::int64_t heads = q.size(1), hd = q.size(2), kvHeads = keyStore.size(1);
    const std::int64_t capacity = keyStore.size(2);
    const at::Tensor& position = length.position;
    const at::Tensor allowed =
        (at::arange(capacity, position.options()) <= position).view({1, 1, 1, capacity});
    // The query heads of one key/value head are the rows of one batch entry, so no kernel
    // repeats the key/value heads, and SDPA serves the mask with a fused kernel that takes one
    // (memory-efficient or cuDNN on a GPU; an unfused matmul, softmax and matmul cost 22 ms a
    // token over 23k positions on an H100). Masked positions are still read: the stores beyond
    // the written positions are zero, not stale.
    return at::scaled_dot_product_attention(q.view({kvHeads, 1, heads / kvHeads, hd}),
                                            keyStore.select(0, 0).unsqueeze(1),
                                            valueStore.select(0, 0).unsqueeze(1), allowed)
        .reshape({1, heads * hd});
}

struct Registry {
    std::mutex mutex;
    std::map<c10::DeviceType, DecoderKernels> registered, merged;
};
Registry& registry() {
    static Registry r;
    return r;
}

}  // namespace

std::pair<at::Tensor, at::Tensor> rotaryTables(const at::Tensor& positions,
                                               const at::Tensor& invFreq, at::ScalarType type) {
    const at::Tensor freqs = at::outer(positions, invFreq);
    return {freqs.cos().to(type), freqs.sin().to(type)};
}

CacheLength CacheLength::make(const at::Tensor& position, std::int64_t capacity) {
    CacheLength l;
    l.position = position;
    const at::TensorOptions ints = position.options().dtype(at::kInt);
    l.used = at::empty({1}, ints);
    l.queryRows = at::arange(2, ints);
    l.cacheRows = l.queryRows * capacity;
    l.update();
    return l;
}

void CacheLength::update() {
    used.copy_(position + 1);
}

const DecoderKernels& referenceDecoderKernels() {
    // The reference never falls back: no fallbackReason.
    static const DecoderKernels k{
        rmsNormReference, rotaryStoreReference, swigluReference, cacheAttentionReference, {}};
    return k;
}

void registerDecoderKernels(c10::DeviceType type, DecoderKernels kernels) {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    r.registered[type] = std::move(kernels);
    r.merged.erase(type);
}

bool hasDeviceDecoderKernels(const at::Device& device) {
    if (!device.is_cpu()) {
        loadDeviceRuntime(device.type());  // its module registers its kernels, when built
    }
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    const auto found = r.registered.find(device.type());
    if (found == r.registered.end()) {
        return false;
    }
    const DecoderKernels& k = found->second;
    return k.rmsNorm || k.rotaryStore || k.swiglu || k.cacheAttention;
}

const DecoderKernels& decoderKernels(const at::Device& device) {
    if (!device.is_cpu()) {
        loadDeviceRuntime(device.type());
    }
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    // Registration happens once, when a module loads (before any kernel of its device runs), so
    // the merged set a caller holds is not replaced under it.
    auto found = r.merged.find(device.type());
    if (found != r.merged.end()) {
        return found->second;
    }
    DecoderKernels k = referenceDecoderKernels();
    if (auto own = r.registered.find(device.type()); own != r.registered.end()) {
        const DecoderKernels& d = own->second;
        k.rmsNorm = d.rmsNorm ? d.rmsNorm : k.rmsNorm;
        k.rotaryStore = d.rotaryStore ? d.rotaryStore : k.rotaryStore;
        k.swiglu = d.swiglu ? d.swiglu : k.swiglu;
        k.cacheAttention = d.cacheAttention ? d.cacheAttention : k.cacheAttention;
        k.fallbackReason = d.fallbackReason;
    }
    return r.merged.emplace(device.type(), std::move(k)).first->second;
}

}  // namespace once
