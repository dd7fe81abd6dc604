// The CPU reference of step 1: cosine argmax (plus a top-L list) of every token against every
// codeword, without the N×K matrix: each worker takes a tile of rows, normalises it, multiplies
// it with the normalised codebook (MKL sgemm through at::mm_out into a reused, cache-sized
// buffer) and scans the tile while it is still in cache.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <atomic>
#include <limits>

#include "compress/assign_backend.h"

namespace once {
namespace {

// Keeps the L best (score, id) of one row, best first; on equal scores the lower id stays
// ahead because ids arrive in increasing order and only strictly greater scores move up.
inline void scanRow(const float* row, std::int64_t k, int l, std::int32_t* ids, float* scores) {
    int count = 0;
    float threshold = -std::numeric_limits<float>::infinity();
    constexpr std::int64_t kBlock = 16;
    std::int64_t c = 0;
    for (; c < k; c += kBlock) {
        const std::int64_t end = std::min(k, c + kBlock);
        if (count == l) {
            // Cheap block test first: most blocks hold nothing above the current L-th best.
            float m = row[c];
            for (std::int64_t j = c + 1; j < end; ++j) {
                m = row[j] > m ? row[j] : m;
            }
            if (!(m > threshold)) {
                continue;
            }
        }
        for (std::int64_t j = c; j < end; ++j) {
            const float v = row[j];
            if (count == l && !(v > threshold)) {
                continue;
            }
            int p = count < l ? count++ : l - 1;
            while (p > 0 && scores[p - 1] < v) {
                scores[p] = scores[p - 1];
                ids[p] = ids[p - 1];
                --p;
            }
            scores[p] = v;
            ids[p] = std::int32_t(j);
            if (count == l) {
                threshold = scores[l - 1];
            }
        }
    }
}

class CpuAssignBackend final : public AssignBackend {
  public:
    std::string name() const override { return "cpu"; }
    bool available() const override { return true; }

    void assign(const at::Tensor& features, const at::Tensor& cn, int topL, int tileRows,
                Assignment& out, Progress* progress) const override {
        const at::Tensor x = features.device().is_cpu() ? features : features.cpu();
        const std::int64_t n = x.size(0), k = cn.size(0);
        const int l = int(std::min<std::int64_t>(topL, k));
        const std::int64_t tile = std::max(1, tileRows);
        out.topIds = at::empty({n, l}, at::kInt);
        out.topScores = at::empty({n, l}, at::kFloat);
        std::int32_t* ids = out.topIds.data_ptr<std::int32_t>();
        float* scores = out.topScores.data_ptr<float>();
        const at::Tensor cnT = cn.t();
        const std::int64_t tiles = (n + tile - 1) / tile;
        std::atomic<std::int64_t> done{0};
        if (progress) {
            progress->begin("assign", double(n));
        }
        at::parallel_for(0, tiles, 1, [&](std::int64_t t0, std::int64_t t1) {
            at::Tensor buffer = at::empty({tile, k}, at::kFloat);
            for (std::int64_t t = t0; t < t1; ++t) {
                if (progress && progress->cancelled()) {
                    return;
                }
                const std::int64_t r0 = t * tile, r1 = std::min(n, r0 + tile);
                at::Tensor xf = x.slice(0, r0, r1).to(at::kFloat);
                // Cast, normalise, multiply: the production order the paper uses.
                at::Tensor xn = xf / xf.norm(2, 1, true).clamp_min(1e-12);
                at::Tensor s = buffer.narrow(0, 0, r1 - r0);
                at::mm_out(s, xn, cnT);
                const float* sp = s.data_ptr<float>();
                for (std::int64_t r = r0; r < r1; ++r) {
                    scanRow(sp + (r - r0) * k, k, l, ids + r * l, scores + r * l);
                }
                const auto total = done.fetch_add(r1 - r0) + (r1 - r0);
                if (progress && at::get_thread_num() == 0) {
                    progress->update(double(total));
                }
            }
        });
        if (progress) {
            progress->throwIfCancelled();
            progress->update(double(n));
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
