// The CPU reference of step 1: cosine argmax (plus a top-L list) of every token against every
// codeword, without the N×K matrix. Tiles of rows go one after another through one GEMM that
// uses all cores (MKL sgemm, or oneDNN's BF16 kernels in the production precision) into a
// reused buffer; the rows of the tile are then scanned on all cores while the buffer is warm.
// Large tiles matter: every GEMM call packs the whole codebook, so 256-row tiles spent a third
// of the time re-packing it (measured with perf; docs/performance.md).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include "compress/assign_backend.h"
#include "compress/top_l_scan.h"

namespace once {
namespace {

class CpuAssignBackend final : public AssignBackend {
  public:
    std::string name() const override { return "cpu"; }
    bool available() const override { return true; }

    void assign(const at::Tensor& features, const at::Tensor& cn, const AssignOptions& options,
                Assignment& out, Progress* progress) const override {
        const at::Tensor x = features.device().is_cpu() ? features : features.cpu();
        const std::int64_t n = x.size(0), k = cn.size(0);
        const int l = int(std::min<std::int64_t>(options.topL, k));
        const std::int64_t tile = std::min<std::int64_t>(n, std::max(1, options.tileRows));
        const bool bf16 = options.precision == "bfloat16";
        out.topIds = at::empty({n, l}, at::kInt);
        out.topScores = at::empty({n, l}, at::kFloat);
        std::int32_t* ids = out.topIds.data_ptr<std::int32_t>();
        float* scores = out.topScores.data_ptr<float>();
        // Production order: BF16 normalised operands, BF16 scores (F32 accumulation inside).
        const at::Tensor cnT = bf16 ? cn.to(at::kBFloat16).t() : cn.t();
        at::Tensor buffer = at::empty({tile, k}, bf16 ? at::kBFloat16 : at::kFloat);
        if (progress) {
            progress->begin("assign", double(n));
        }
        for (std::int64_t r0 = 0; r0 < n; r0 += tile) {
            if (progress) {
                progress->throwIfCancelled();
            }
            const std::int64_t r1 = std::min(n, r0 + tile);
            at::Tensor xf = x.slice(0, r0, r1).to(at::kFloat);
            // Cast, normalise, multiply: the order the paper uses.
            at::Tensor xn = xf / xf.norm(2, 1, true).clamp_min(1e-12);
            at::Tensor s = buffer.narrow(0, 0, r1 - r0);
            at::mm_out(s, bf16 ? xn.to(at::kBFloat16) : xn, cnT);
            at::parallel_for(r0, r1, 16, [&](std::int64_t a, std::int64_t b) {
                for (std::int64_t r = a; r < b; ++r) {
                    if (bf16) {
                        scanTopL(s.data_ptr<c10::BFloat16>() + (r - r0) * k, k, l, ids + r * l,
                                 scores + r * l);
                    } else {
                        scanTopL(s.data_ptr<float>() + (r - r0) * k, k, l, ids + r * l,
                                 scores + r * l);
                    }
                }
            });
            if (progress) {
                progress->update(double(r1));
            }
        }
        out.counts = at::bincount(out.topIds.select(1, 0).to(at::kLong), {}, k);
    }
};

const bool registered = [] {
    registerAssignBackend("cpu", [] { return std::make_unique<CpuAssignBackend>(); });
    return true;
}();

}  // namespace
}  // namespace once
