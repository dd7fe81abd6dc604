#include "compress/device_compress.h"

#include <ATen/ATen.h>

#include <chrono>
#include <limits>
#include <map>
#include <mutex>
#include <vector>

#include "codebook/codebook.h"
#include "compress/pooling.h"

namespace once {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// Unit rows in F32, in the order the CPU reference uses: cast, then divide by max(‖x‖, δ).
at::Tensor normalizedRows(const at::Tensor& rows) {
    const at::Tensor xf = rows.to(at::kFloat);
    return (xf / xf.norm(2, 1, true).clamp_min(1e-12)).contiguous();
}

std::map<c10::DeviceType, SegmentedPoolKernel>& poolKernels() {
    static std::map<c10::DeviceType, SegmentedPoolKernel> kernels;
    return kernels;
}

}  // namespace

at::Tensor scoreKeys(const at::Tensor& scores, const at::Tensor& ids, std::int64_t k) {
    // + 0 turns −0 into +0, which compare equal as floats but not as bits.
    const at::Tensor bits = (scores.to(at::kFloat) + 0.0).contiguous().view(at::kInt);
    // Negative floats order backwards as integers: flipping their magnitude bits fixes that and
    // keeps them below every non-negative one.
    const at::Tensor ordered = at::where(bits < 0, at::bitwise_xor(bits, 0x7FFFFFFF), bits);
    return ordered.to(at::kLong) * (std::int64_t(1) << 32) + ((k - 1) - ids.to(at::kLong));
}

at::Tensor keyToId(const at::Tensor& keys, std::int64_t k) {
    return (k - 1) - at::bitwise_and(keys, std::int64_t(0xFFFFFFFF));
}

void assignOnDevice(const at::Tensor& x, const at::Tensor& cn, const AssignOptions& options,
                    Assignment& out) {
    const at::Device device = x.device();
    const std::int64_t n = x.size(0), k = cn.size(0), d = cn.size(1);
    const std::int64_t l = std::min<std::int64_t>(options.topL, k);
    const std::int64_t tile = std::min<std::int64_t>(n, std::max(1, options.tileRows));
    const bool bf16 = options.precision == "bfloat16";
    const at::Tensor cnF = cachedDeviceCopy(cn, device);
    // Transposed views, as the CPU reference passes them (the same GEMM call, the same bits).
    const at::Tensor cnT = bf16 ? cnF.to(at::kBFloat16).t() : cnF.t();
    const auto on = x.options();
    const at::Tensor columnIds = at::arange(k, on.dtype(at::kLong));
    out.topIds = at::empty({n, l}, on.dtype(at::kInt));
    out.topScores = at::empty({n, l}, on.dtype(at::kFloat));
    out.counts = at::zeros({k}, on.dtype(at::kLong));
    out.codewordSums = at::zeros({k, d}, on.dtype(at::kFloat));
    out.kernel = bf16 ? "bf16" : "sgemm";
    out.listsComplete = true;
    out.normalizedRows = at::empty({n, d}, on.dtype(bf16 ? at::kBFloat16 : at::kFloat));
    for (std::int64_t r0 = 0; r0 < n; r0 += tile) {
        const std::int64_t r1 = std::min(n, r0 + tile);
        const at::Tensor rows = x.slice(0, r0, r1);
        at::Tensor xn = out.normalizedRows.slice(0, r0, r1);
        xn.copy_(normalizedRows(rows));
        const at::Tensor s = bf16 ? at::mm(xn, cnT).to(at::kFloat) : at::mm(xn, cnT);
        // Distinct keys: topk's order among equal values no longer matters.
        const at::Tensor best = std::get<0>(at::topk(scoreKeys(s, columnIds, k), l, 1, true, true));
        const at::Tensor ids = keyToId(best, k);
        out.topIds.slice(0, r0, r1).copy_(ids);
        out.topScores.slice(0, r0, r1).copy_(s.gather(1, ids));
        const at::Tensor nearest = ids.select(1, 0).contiguous();
        out.counts.scatter_add_(0, nearest, at::ones_like(nearest));
        out.codewordSums.index_add_(0, nearest, rows.to(at::kFloat));
    }
}

at::Tensor selectOnDevice(const at::Tensor& counts, std::int64_t budget, at::Tensor* used) {
    const std::int64_t k = counts.size(0);
    const std::int64_t s = std::min(budget, k);
    const at::Tensor c = counts.to(at::kLong);
    // Distinct keys again: n_k first, then the lower id (K − 1 − k larger).
    const at::Tensor key = c * k + ((k - 1) - at::arange(k, c.options()));
    const at::Tensor top = std::get<0>(at::topk(key, s, 0, true, true));
    if (used) {
        *used = (c > 0).sum();
    }
    return (k - 1) - at::remainder(top, k);
}

DeviceGrouping groupOnDevice(const at::Tensor& x, const at::Tensor& cn, const Assignment& a,
                             std::int64_t budget, bool reassign, std::int64_t tileRows) {
    const at::Device device = a.topIds.device();
    const std::int64_t k = a.codebookSize, n = a.numTokens, l = a.listSize();
    const auto on = a.topIds.options().dtype(at::kLong);
    DeviceGrouping g;
    g.codewordIds = selectOnDevice(a.counts.to(device), budget, &g.usedCodewords);
    const std::int64_t s = g.codewordIds.size(0);
    g.numOutputs = g.usedCodewords.clamp_max(budget);
    const at::Tensor slot = at::arange(s, on);
    const at::Tensor selected = slot < g.numOutputs;  // [S]: the selection is a prefix
    const at::Tensor position =
        at::full({k}, -1, on).scatter_(0, g.codewordIds, at::where(selected, slot, -1));

    const at::Tensor ids = a.topIds.to(at::kLong);
    const at::Tensor scores = a.topScores.to(device, at::kFloat);
    at::Tensor pos = position.index_select(0, ids.clamp_min(0).reshape({-1})).view({n, l});
    pos = at::where(ids >= 0, pos, -1);  // a certified list may end early (−1 ids)
    if (!reassign) {
        g.groupOfToken = pos.select(1, 0).contiguous();
        g.cosine = scores.select(1, 0).contiguous();
        g.fallbackTokens = at::zeros({}, on);
        return g;
    }
    // The first selected entry of a token's list is its argmax over the selection.
    const at::Tensor first =
        at::where(pos >= 0, at::arange(l, on), l).amin(1, true);  // l: none selected
    const at::Tensor listed = first.squeeze(1) < l;
    const at::Tensor column = first.clamp_max(l - 1);
    const at::Tensor listGroup = pos.gather(1, column).squeeze(1);
    const at::Tensor listCosine = scores.gather(1, column).squeeze(1);
    g.fallbackTokens = listed.logical_not().sum();

    // The rest: new dot products against the selected codewords. Computed for every row of a
    // tile rather than gathering the misses, whose number only the host could size; on a GPU
    // this is a B/K fraction of step 1's product.
    const bool bf16 = a.precision == "bfloat16";
    const at::Tensor cnSel = cachedDeviceCopy(cn, device).index_select(0, g.codewordIds);
    const at::Tensor cnSelT = (bf16 ? cnSel.to(at::kBFloat16) : cnSel).t().contiguous();
    const at::Tensor notSelected = selected.logical_not().unsqueeze(0);
    const at::Tensor xd = x.to(device);
    at::Tensor newGroup = at::empty({n}, on), newCosine = at::empty({n}, scores.options());
    const std::int64_t tile = std::max<std::int64_t>(1, tileRows);
    // The unit rows step 1 multiplied, when its backend kept them: the same operands, so the
    // same scores, without a second pass over the features.
    const at::Tensor kept = a.normalizedRows;
    const bool reuse = kept.defined() && kept.device() == device && kept.size(0) == n &&
                       kept.scalar_type() == (bf16 ? at::kBFloat16 : at::kFloat);
    for (std::int64_t r0 = 0; r0 < n; r0 += tile) {
        const std::int64_t r1 = std::min(n, r0 + tile);
        at::Tensor xn = reuse ? kept.slice(0, r0, r1) : normalizedRows(xd.slice(0, r0, r1));
        if (bf16 && !reuse) {
            xn = xn.to(at::kBFloat16);
        }
        const at::Tensor sc = bf16 ? at::mm(xn, cnSelT).to(at::kFloat) : at::mm(xn, cnSelT);
        const at::Tensor keys =
            scoreKeys(sc, g.codewordIds, k)
                .masked_fill(notSelected, std::numeric_limits<std::int64_t>::min());
        const at::Tensor best = keys.argmax(1, true);
        newGroup.slice(0, r0, r1).copy_(best.squeeze(1));
        newCosine.slice(0, r0, r1).copy_(sc.gather(1, best).squeeze(1));
    }
    g.groupOfToken = at::where(listed, listGroup, newGroup);
    g.cosine = at::where(listed, listCosine, newCosine);
    return g;
}

void registerSegmentedPoolKernel(c10::DeviceType type, SegmentedPoolKernel kernel) {
    poolKernels()[type] = std::move(kernel);
}

void poolOnDevice(const at::Tensor& x, const at::Tensor& groupOfToken, std::int64_t groups,
                  at::Tensor& means, at::Tensor& sizes) {
    const auto it = poolKernels().find(x.device().type());
    if (it != poolKernels().end()) {
        it->second(x, groupOfToken.to(x.device()), groups, means, sizes);
        return;
    }
    const std::int64_t n = x.size(0), d = x.size(1);
    const auto on = x.options();
    // Dropped tokens go to one extra row that is cut off afterwards.
    const at::Tensor target = at::where(groupOfToken >= 0, groupOfToken, groups).to(x.device());
    at::Tensor counts = at::zeros({groups + 1}, on.dtype(at::kLong));
    counts.scatter_add_(0, target, at::ones_like(target));
    at::Tensor sums = at::zeros({groups + 1, d}, on.dtype(at::kFloat));
    constexpr std::int64_t kRows = 4096;  // bounds the F32 copy of the rows
    for (std::int64_t r0 = 0; r0 < n; r0 += kRows) {
        const std::int64_t r1 = std::min(n, r0 + kRows);
        sums.index_add_(0, target.slice(0, r0, r1), x.slice(0, r0, r1).to(at::kFloat));
    }
    sizes = counts.narrow(0, 0, groups);
    means = sums.narrow(0, 0, groups) / sizes.clamp_min(1).unsqueeze(1).to(at::kFloat);
}

bool deviceCompressSupports(const CompressOptions& o) {
    return o.rounds == 1 && (o.variant == Variant::Full || o.variant == Variant::NoReassign ||
                             o.variant == Variant::CodewordOutput);
}

CompressionResult compressOnDevice(const at::Tensor& x, const Assignment& a,
                                   const Codebook& codebook, const CompressOptions& options) {
    const at::Device device = a.topIds.device();
    const at::Tensor xd = x.to(device);
    const at::Tensor cn = codebookOnDevice(codebook, device);
    CompressionResult r;
    r.variant = options.variant;
    r.budget = options.budget;
    r.numTokens = a.numTokens;

    auto t0 = Clock::now();
    DeviceGrouping g =
        groupOnDevice(xd, cn, a, options.budget, options.variant != Variant::NoReassign);
    r.seconds.reassign = since(t0);  // selection and reassignment are queued together

    auto t1 = Clock::now();
    const std::int64_t s = g.codewordIds.size(0);
    at::Tensor means, sizes;
    poolOnDevice(xd, g.groupOfToken, s, means, sizes);
    // The one transfer: the numbers that give the result its shape (32 bytes).
    const at::Tensor counts =
        at::stack({g.numOutputs, sizes.sum(), g.usedCodewords, g.fallbackTokens}).cpu();
    const std::int64_t* c = counts.data_ptr<std::int64_t>();
    const std::int64_t m = c[0];
    r.numOutputs = m;
    r.coverage = double(c[1]) / double(r.numTokens);
    r.usedCodewords = c[2];
    r.fallbackTokens = c[3];
    r.codewordIds = g.codewordIds.narrow(0, 0, m);
    r.groupSizes = sizes.narrow(0, 0, m);
    r.groupOfToken = g.groupOfToken;
    means = means.narrow(0, 0, m);
    r.tokens = options.variant == Variant::CodewordOutput
                   ? codebookOnDevice(codebook, device, false).index_select(0, r.codewordIds)
                   : means;
    r.outputCosine = rowCosine(r.tokens, means);
    r.residual = (1 - g.cosine).contiguous();
    r.seconds.pool = since(t1);
    return r;
}

at::Tensor codebookOnDevice(const Codebook& codebook, const at::Device& device, bool normalized) {
    return cachedDeviceCopy(normalized ? codebook.normalized() : codebook.vectors(), device);
}

at::Tensor cachedDeviceCopy(const at::Tensor& source, const at::Device& device) {
    if (source.device() == device) {
        return source.to(at::kFloat).contiguous();
    }
    // A few recent copies, each keyed by the very tensor it was made from (held, so its address
    // cannot be reused by another codebook) and that tensor's version (in-place edits).
    struct Entry {
        at::Tensor source, copy;
        std::int64_t version;
    };
    static std::mutex mutex;
    static std::vector<Entry> cache;
    constexpr std::size_t kEntries = 4;
    std::lock_guard<std::mutex> lock(mutex);
    for (const Entry& e : cache) {
        if (e.source.is_same(source) && e.version == std::int64_t(source._version()) &&
            e.copy.device() == device) {
            return e.copy;
        }
    }
    if (cache.size() == kEntries) {
        cache.erase(cache.begin());
    }
    cache.push_back(
        {source, source.to(device, at::kFloat).contiguous(), std::int64_t(source._version())});
    return cache.back().copy;
}

}  // namespace once
