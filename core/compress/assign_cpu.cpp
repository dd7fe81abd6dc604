// The CPU reference of step 1: cosine argmax (plus a top-L list) of every token against every
// codeword, without the N×K matrix. Tiles of rows go one after another through one GEMM that
// uses all cores into a reused buffer; the rows of the tile are then scanned on all cores while
// the buffer is warm. Large tiles matter: every GEMM call packs the whole codebook, so 256-row
// tiles spent a third of the time re-packing it (measured with perf; docs/performance.md).
// Three kernels: "sgemm" (F32 product, MKL), "bf16" (the paper's production precision, BF16
// scores) and "bf16-certified" (float32 precision from the BF16 product: certified_topl.h).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cmath>
#include <limits>

#include "compress/assign_backend.h"
#include "compress/certified_topl.h"
#include "compress/top_l_scan.h"

namespace once {
namespace {

bool cpuHasNativeBf16() {
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_cpu_supports("avx512bf16");
#else
    return false;
#endif
}

// "auto" picks the certified BF16 path where BF16 dot products are native (assignTokens has
// validated the name).
std::string float32Kernel(const AssignOptions& o) {
    if (o.float32Kernel != "auto") {
        return o.float32Kernel;
    }
    return cpuHasNativeBf16() ? "bf16-certified" : "sgemm";
}

class CpuAssignBackend final : public AssignBackend {
  public:
    std::string name() const override { return "cpu"; }
    bool available() const override { return true; }
    std::optional<c10::DeviceType> servedDevice() const override {
        return c10::DeviceType::CPU;
    }

    void assign(const at::Tensor& features, const at::Tensor& cn, const AssignOptions& options,
                Assignment& out, Progress* progress) const override {
        const at::Tensor x = features.device().is_cpu() ? features : features.cpu();
        const std::int64_t n = x.size(0), k = cn.size(0), d = cn.size(1);
        const int l = int(std::min<std::int64_t>(options.topL, k));
        const std::int64_t tile = std::min<std::int64_t>(n, std::max(1, options.tileRows));
        const bool bf16 = options.precision == "bfloat16";
        out.kernel = bf16 ? "bf16" : float32Kernel(options);
        const bool certified = out.kernel == "bf16-certified";
        const bool bf16Product = bf16 || certified;
        out.topIds = at::empty({n, l}, at::kInt);
        out.topScores = at::empty({n, l}, at::kFloat);
        std::int32_t* ids = out.topIds.data_ptr<std::int32_t>();
        float* scores = out.topScores.data_ptr<float>();
        // Production order: BF16 normalised operands, BF16 scores (F32 accumulation inside).
        const at::Tensor cnF = cn.contiguous();
        const at::Tensor cnB = bf16Product ? cnF.to(at::kBFloat16) : at::Tensor();
        const at::Tensor cnT = bf16Product ? cnB.t() : cnF.t();
        at::Tensor buffer = at::empty({tile, k}, bf16Product ? at::kBFloat16 : at::kFloat);
        // Certified: 2L candidates per token (at least 16, at most 64 and K), and the codeword
        // side of the error bound over the whole codebook (any codeword may be left out).
        const int candidates = int(std::min<std::int64_t>(k, std::clamp(2 * l, 16, 64)));
        const Bf16RowNorms codeNorms = certified ? maxBf16RowNorms(cnF, cnB) : Bf16RowNorms{};
        std::vector<std::uint8_t> prefix(static_cast<std::size_t>(tile));
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
            at::Tensor xn = (xf / xf.norm(2, 1, true).clamp_min(1e-12)).contiguous();
            at::Tensor s = buffer.narrow(0, 0, r1 - r0);
            const at::Tensor xb = bf16Product ? xn.to(at::kBFloat16) : at::Tensor();
            at::mm_out(s, bf16Product ? xb : xn, cnT);
            at::parallel_for(r0, r1, 16, [&](std::int64_t a, std::int64_t b) {
                std::int32_t candIds[64];
                float candScores[64];
                for (std::int64_t r = a; r < b; ++r) {
                    if (certified) {
                        const c10::BFloat16* row = s.data_ptr<c10::BFloat16>() + (r - r0) * k;
                        scanTopL(row, k, candidates, candIds, candScores);
                        const float* xr = xn.data_ptr<float>() + (r - r0) * d;
                        // No codeword is left out when all K are candidates.
                        double bar = -std::numeric_limits<double>::infinity();
                        if (candidates < k) {
                            const std::uint16_t* xbr = bf16Bits(xb) + (r - r0) * d;
                            bar = bf16ScoreUpper(
                                candScores[candidates - 1],
                                bf16TokenSlack(bf16RowNorms(xr, xbr, d), codeNorms, d));
                        }
                        prefix[std::size_t(r - r0)] = std::uint8_t(
                            certifyTopL(xr, cnF.data_ptr<float>(), d, candIds, candidates, bar, l,
                                        ids + r * l, scores + r * l));
                    } else if (bf16) {
                        scanTopL(s.data_ptr<c10::BFloat16>() + (r - r0) * k, k, l, ids + r * l,
                                 scores + r * l);
                    } else {
                        scanTopL(s.data_ptr<float>() + (r - r0) * k, k, l, ids + r * l,
                                 scores + r * l);
                    }
                }
            });
            if (certified) {
                exactForUncertified(xn, cnF, r0, prefix, l, out);
            }
            if (progress) {
                progress->update(double(r1));
            }
        }
        out.counts = at::bincount(out.topIds.select(1, 0).to(at::kLong), {}, k);
    }

  private:
    // Rows of the tile whose certified prefix is empty get the F32 product and an exact scan;
    // any shorter-than-L prefix marks the lists incomplete.
    static void exactForUncertified(const at::Tensor& xn, const at::Tensor& cnF, std::int64_t r0,
                                    const std::vector<std::uint8_t>& prefix, int l,
                                    Assignment& out) {
        std::vector<std::int64_t> rows;
        for (std::int64_t r = 0; r < xn.size(0); ++r) {
            if (prefix[std::size_t(r)] == 0) {
                rows.push_back(r);  // gets the whole exact list below
            } else if (prefix[std::size_t(r)] < l) {
                out.listsComplete = false;
            }
        }
        if (rows.empty()) {
            return;
        }
        out.exactFallbackTokens += std::int64_t(rows.size());
        const at::Tensor index = at::tensor(rows, at::kLong);
        const at::Tensor sc = at::mm(xn.index_select(0, index), cnF.t()).contiguous();
        const std::int64_t k = cnF.size(0);
        std::int32_t* ids = out.topIds.data_ptr<std::int32_t>();
        float* scores = out.topScores.data_ptr<float>();
        at::parallel_for(0, std::int64_t(rows.size()), 16, [&](std::int64_t a, std::int64_t b) {
            for (std::int64_t j = a; j < b; ++j) {
                const std::int64_t r = r0 + rows[std::size_t(j)];
                scanTopL(sc.data_ptr<float>() + j * k, k, l, ids + r * l, scores + r * l);
            }
        });
    }
};

const bool registered = [] {
    registerAssignBackend("cpu", [] { return std::make_unique<CpuAssignBackend>(); });
    return true;
}();

}  // namespace
}  // namespace once
