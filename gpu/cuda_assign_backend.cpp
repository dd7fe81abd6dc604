// The "cuda" assignment backend (compress/assign_backend.h) and the CUDA segmented pooling of
// step 4 (compress/device_compress.h), both registered with core/ at load time.
//
// Step 1 per tile of rows: normalise (ATen), one cuBLAS product into a [tile, K] score tile that
// stays in L2 (2048 × 8192 BF16 = 32 MiB of the H100's 50), then topl_scan.cu reads it back once
// for the top-L lists and the counts. The tile's scores are the same bits the "aten" backend gets
// from the same cuBLAS call, so the two backends give identical lists on one GPU (the GPU test
// checks this). The per-codeword sums come from segmented_sum.cu over the tokens sorted by k̂.
#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>

#include "compress/assign_backend.h"
#include "compress/device_compress.h"
#include "kernels.h"
#include "tensor_glue.h"
#include "util/device.h"
#include "util/error.h"

namespace once::gpu {
namespace {

// Σ of x's rows by group into sums [groups, D] (F32, zeroed here); −1 skipped.
at::Tensor groupSums(const at::Tensor& x, const at::Tensor& group, std::int64_t groups) {
    auto [sortedGroup, order] = at::sort(group.to(at::kLong), /*stable=*/true, 0, false);
    at::Tensor sums = at::zeros({groups, x.size(1)}, x.options().dtype(at::kFloat));
    launchSegmentedSum(x.data_ptr(), elementType(x), x.size(1), order.data_ptr<std::int64_t>(),
                       sortedGroup.data_ptr<std::int64_t>(), x.size(0), sums.data_ptr<float>(),
                       streamOf(x));
    return sums;
}

at::Tensor kernelInput(const at::Tensor& x) {
    const at::ScalarType t = x.scalar_type();
    const bool supported = t == at::kFloat || t == at::kHalf || t == at::kBFloat16;
    return (supported ? x : x.to(at::kFloat)).contiguous();
}

void cudaSegmentedPool(const at::Tensor& features, const at::Tensor& group, std::int64_t groups,
                       at::Tensor& means, at::Tensor& sizes) {
    const at::Tensor x = kernelInput(features);
    const at::Tensor target = at::where(group >= 0, group, groups);
    at::Tensor counts = at::zeros({groups + 1}, group.options().dtype(at::kLong));
    counts.scatter_add_(0, target, at::ones_like(target));
    sizes = counts.narrow(0, 0, groups);
    means = groupSums(x, group, groups) / sizes.clamp_min(1).unsqueeze(1).to(at::kFloat);
}

class CudaAssignBackend final : public AssignBackend {
  public:
    std::string name() const override { return "cuda"; }
    bool available() const override { return cudaDeviceAvailable(); }
    std::optional<c10::DeviceType> servedDevice() const override { return c10::DeviceType::CUDA; }
    at::Device outputDevice(const at::Tensor& features) const override {
        return features.is_cuda() ? features.device() : at::Device(at::kCUDA, 0);
    }

    void assign(const at::Tensor& features, const at::Tensor& cn, const AssignOptions& options,
                Assignment& out, Progress* progress) const override {
        const at::Tensor x = kernelInput(features.to(outputDevice(features)));
        const std::int64_t n = x.size(0), k = cn.size(0);
        const std::int64_t l = std::min<std::int64_t>(options.topL, k);
        if (progress) {
            progress->begin("assign", double(n));
        }
        if (l > kMaxTopL) {
            assignOnDevice(x, cn, options, out);  // lists too long for registers
            out.kernel = "cuda-aten";
            return;
        }
        const bool bf16 = options.precision == "bfloat16";
        const at::Tensor cnF = cachedDeviceCopy(cn, x.device());
        const at::Tensor cnT = bf16 ? cnF.to(at::kBFloat16).t() : cnF.t();
        const auto on = x.options();
        out.topIds = at::empty({n, l}, on.dtype(at::kInt));
        out.topScores = at::empty({n, l}, on.dtype(at::kFloat));
        out.counts = at::zeros({k}, on.dtype(at::kLong));
        out.kernel = bf16 ? "cuda-bf16" : "cuda-f32";
        out.listsComplete = true;
        // Tiles of at least 256 MiB of scores (16,384 rows at K = 8,192 in BF16): on a GPU the
        // scan streams a tile at memory speed whether or not it stays in L2, and fewer, larger
        // products and scans keep the device full (measured on an H100: one 23,329-row tile
        // assigned in 4.7 ms against 5.8 ms in 2,048-row tiles, bench/results/gpu).
        const std::int64_t scoreBytes = k * (bf16 ? 2 : 4);
        const std::int64_t tile = std::min<std::int64_t>(
            n,
            std::max<std::int64_t>({1, options.tileRows, (std::int64_t(256) << 20) / scoreBytes}));
        // The unit rows are kept for steps 2–5 (Assignment::normalizedRows).
        out.normalizedRows = at::empty({n, x.size(1)}, on.dtype(bf16 ? at::kBFloat16 : at::kFloat));
        for (std::int64_t r0 = 0; r0 < n; r0 += tile) {
            if (progress) {
                progress->throwIfCancelled();
            }
            const std::int64_t r1 = std::min(n, r0 + tile);
            const at::Tensor xf = x.slice(0, r0, r1).to(at::kFloat);
            at::Tensor xn = out.normalizedRows.slice(0, r0, r1);
            xn.copy_(xf / xf.norm(2, 1, true).clamp_min(1e-12));
            const at::Tensor s = at::mm(xn, cnT).contiguous();
            launchTopLScan(s.data_ptr(), elementType(s), r1 - r0, k, int(l),
                           out.topIds.data_ptr<std::int32_t>() + r0 * l,
                           out.topScores.data_ptr<float>() + r0 * l,
                           out.counts.data_ptr<std::int64_t>(), streamOf(x));
            if (progress) {
                progress->update(double(r1));
            }
        }
        out.codewordSums = groupSums(x, out.topIds.select(1, 0), k);
    }
};

const bool registered = [] {
    registerAssignBackend("cuda", [] { return std::make_unique<CudaAssignBackend>(); });
    registerSegmentedPoolKernel(c10::DeviceType::CUDA, cudaSegmentedPool);
    return true;
}();

}  // namespace
}  // namespace once::gpu
