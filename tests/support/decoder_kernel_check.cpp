#include "support/decoder_kernel_check.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>

namespace once::test {
namespace {

double epsilon(at::ScalarType t) {
    return std::ldexp(1.0, t == at::kBFloat16 ? -7 : t == at::kHalf ? -10 : -23);
}

}  // namespace

std::string Comparison::text() const {
    return "worst relative " + checkNumber(worstRelative) + ", worst scaled " +
           checkNumber(worstScaled) + ", differing " + checkNumber(differing) + " (scale " +
           checkNumber(scale) + ")";
}

Comparison compareOutputs(const at::Tensor& got, const at::Tensor& want) {
    const at::Tensor g = got.to(at::kCPU, at::kDouble), w = want.to(at::kCPU, at::kDouble);
    const at::Tensor diff = (g - w).abs();
    Comparison c;
    c.scale = std::max(w.abs().max().item<double>(), 1e-30);
    c.worstRelative = (diff / w.abs().clamp_min(1e-3 * c.scale)).max().item<double>();
    c.worstScaled = diff.max().item<double>() / c.scale;
    c.differing = (diff > 0).to(at::kDouble).mean().item<double>();
    return c;
}

bool withinRule(const Comparison& c, KernelRule rule, at::ScalarType type) {
    const double e = epsilon(type);
    const bool reduced = type != at::kFloat;
    switch (rule) {
        case KernelRule::SameRoundings:
            return reduced ? c.differing <= 0.01 && c.worstRelative <= e : c.worstScaled <= 8 * e;
        case KernelRule::SumOrder:
            return reduced ? c.differing <= 0.02 && c.worstRelative <= 3 * e
                           : c.worstRelative <= 1e-5;
        case KernelRule::Attention:
            return c.worstScaled <= (reduced ? 4 * e : 1e-5);
    }
    return false;
}

std::vector<BackendCheck> checkDecoderKernels(const DecoderKernels& kernels,
                                              const std::string& deviceName) {
    const at::Device device(deviceName);
    const DecoderKernels& ref = referenceDecoderKernels();
    std::vector<BackendCheck> out;
    auto record = [&](bool ok, const std::string& what, const std::string& detail) {
        out.push_back({what, ok, detail});
    };
    at::manual_seed(23);
    const std::int64_t heads = 14, kvHeads = 2, hd = 64, width = (heads + 2 * kvHeads) * hd;
    const at::Tensor invFreq =
        (1.0 / at::pow(1e6, at::arange(0, hd, 2).to(at::kDouble) / double(hd))).to(at::kFloat);
    for (at::ScalarType type : {at::kBFloat16, at::kHalf, at::kFloat}) {
        const at::TensorOptions opts = at::TensorOptions().device(device).dtype(type);
        const std::string tag = std::string(c10::toString(type)) + " on " + device.str();

        for (std::int64_t n : {896, 1000, 3584}) {
            const at::Tensor x = (3 * at::randn({2, 9, n})).to(opts);
            const at::Tensor w = (1 + 0.3 * at::randn({n})).to(opts);
            const Comparison c =
                compareOutputs(kernels.rmsNorm(x, w, 1e-6), ref.rmsNorm(x, w, 1e-6));
            record(withinRule(c, KernelRule::SumOrder, type),
                   "rmsNorm n=" + std::to_string(n) + " " + tag, c.text());
        }

        // Prefill rows at positions 1000 …, then one decoding row at a device position, with a row
        // stride wider than q|k|v (a column block of a wider product).
        const std::int64_t capacity = 1100, rows = 50;
        for (bool decoding : {false, true}) {
            const std::int64_t n = decoding ? 1 : rows;
            const at::Tensor wide = (2 * at::randn({n, width + 16})).to(opts);
            RotaryStoreArgs a;
            a.qkv = wide.narrow(1, 8, width);
            a.heads = heads;
            a.kvHeads = kvHeads;
            a.invFreq = invFreq.to(device);
            a.firstPosition = decoding ? 0 : 1000;
            if (decoding) {
                a.position = at::full({1}, 1057, opts.dtype(at::kLong));
            }
            RotaryStoreArgs b = a;
            const at::Tensor stores = at::randn({4, 1, kvHeads, capacity, hd}).to(opts);
            a.queries = at::empty({1, n, heads, hd}, opts);
            b.queries = at::empty({1, n, heads, hd}, opts);
            a.keyStore = stores[0].clone();
            a.valueStore = stores[1].clone();
            b.keyStore = stores[0].clone();
            b.valueStore = stores[1].clone();
            kernels.rotaryStore(a);
            ref.rotaryStore(b);
            const Comparison qc = compareOutputs(a.queries, b.queries);
            const Comparison kc = compareOutputs(a.keyStore, b.keyStore);
            const bool values = at::equal(a.valueStore.cpu(), b.valueStore.cpu());
            // Exactly the rows of the block's positions written.
            const at::Tensor written = (a.keyStore != stores[0]).any(3).any(1).squeeze(0).cpu();
            const std::int64_t from = decoding ? 1057 : 1000;
            const bool rowsRight = written.sum().item<std::int64_t>() == n &&
                                   written.narrow(0, from, n).all().item<bool>();
            record(withinRule(qc, KernelRule::SameRoundings, type) &&
                       withinRule(kc, KernelRule::SameRoundings, type) && values && rowsRight,
                   std::string("rotaryStore ") + (decoding ? "decoding row" : "prefill rows") +
                       " " + tag,
                   "queries " + qc.text() + "; keys " + kc.text() + "; values " +
                       (values ? "identical" : "DIFFER") +
                       (rowsRight ? "" : "; WRONG rows written"));
        }

        const at::Tensor gateUp = (3 * at::randn({5, 2 * 4864})).to(opts);
        const Comparison s = compareOutputs(kernels.swiglu(gateUp), ref.swiglu(gateUp));
        record(withinRule(s, KernelRule::SameRoundings, type), "swiglu " + tag, s.text());

        const at::Tensor keys = at::randn({1, kvHeads, 600, hd}).to(opts);
        const at::Tensor values = at::randn({1, kvHeads, 600, hd}).to(opts);
        const at::Tensor q = at::randn({1, heads, hd}).to(opts);
        // Position 45 of 600: a length off by one moves the output by ~1/46 of a value row,
        // far beyond the rounding of another summation order.
        const CacheLength length =
            CacheLength::make(at::full({1}, 45, opts.dtype(at::kLong)), keys.size(2));
        const Comparison att = compareOutputs(kernels.cacheAttention(q, keys, values, length),
                                              ref.cacheAttention(q, keys, values, length));
        record(withinRule(att, KernelRule::Attention, type),
               "cacheAttention position 45 of 600 " + tag, att.text());
    }
    const std::string fallback = kernels.fallbackReason ? kernels.fallbackReason() : "";
    record(fallback.empty(), "no fallback to the reference on " + device.str(),
           fallback.empty() ? "every kernel ran itself" : fallback);
    return out;
}

}  // namespace once::test
