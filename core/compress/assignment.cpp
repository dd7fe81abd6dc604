#include "compress/assignment.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <chrono>

#include "codebook/codebook.h"
#include "compress/assign_backend.h"
#include "compress/top_l_scan.h"
#include "io/tensor_io.h"
#include "util/error.h"

namespace once {

at::Tensor flattenFeatures(const at::Tensor& features, std::int64_t codebookDim,
                           const std::string& source) {
    if (!features.defined() || (features.dim() != 2 && features.dim() != 3)) {
        fail("features must be [T, P, D] or [N, D]", source, "features", "2-D or 3-D",
             features.defined()
                 ? std::to_string(features.dim()) + "-D " + shapeString(features.sizes())
                 : "nothing");
    }
    if (!at::isFloatingType(features.scalar_type())) {
        fail("features are not floating point", source, "features", "F32, F16 or BF16",
             std::string(c10::toString(features.scalar_type())));
    }
    at::Tensor x = features.reshape({-1, features.size(-1)});
    if (x.size(1) != codebookDim) {
        fail("feature dimension does not match the codebook", source, "features",
             "D = " + std::to_string(codebookDim) + " (codebook)",
             "D = " + std::to_string(x.size(1)));
    }
    if (x.size(0) < 1) {
        fail("features hold no tokens", source, "features", "N >= 1", "0 tokens");
    }
    return x.contiguous();
}

std::pair<at::Tensor, at::Tensor> completeTopLists(const Assignment& a, const at::Tensor& x,
                                                   const at::Tensor& cn) {
    if (a.listsComplete) {
        return {a.topIds, a.topScores};
    }
    at::Tensor ids = a.topIds.clone(), scores = a.topScores.clone();
    const std::int64_t l = a.listSize(), k = cn.size(0);
    const at::Tensor incomplete = at::nonzero(ids.select(1, l - 1) < 0).select(1, 0).contiguous();
    const at::Tensor cnT = cn.to(at::kFloat).cpu().t();
    std::int32_t* idp = ids.data_ptr<std::int32_t>();
    float* scp = scores.data_ptr<float>();
    constexpr std::int64_t kTile = 1024;
    for (std::int64_t t0 = 0; t0 < incomplete.size(0); t0 += kTile) {
        const at::Tensor rows = incomplete.slice(0, t0, t0 + kTile);
        const at::Tensor xf = x.index_select(0, rows.to(x.device())).to(at::kFloat).cpu();
        const at::Tensor sc = at::mm(xf / xf.norm(2, 1, true).clamp_min(1e-12), cnT).contiguous();
        const std::int64_t* rp = rows.data_ptr<std::int64_t>();
        at::parallel_for(0, rows.size(0), 16, [&](std::int64_t b, std::int64_t e) {
            for (std::int64_t j = b; j < e; ++j) {
                scanTopL(sc.data_ptr<float>() + j * k, k, int(l), idp + rp[j] * l, scp + rp[j] * l);
            }
        });
    }
    return {ids, scores};
}

Assignment assignTokens(const at::Tensor& features, const Codebook& codebook,
                        const AssignOptions& options, Progress* progress) {
    const auto start = std::chrono::steady_clock::now();
    at::Tensor x = flattenFeatures(features, codebook.dim());
    if (options.topL < 1) {
        fail("top-L list length must be positive", {}, "topL", ">= 1",
             std::to_string(options.topL));
    }
    if (!at::isfinite(x).all().item<bool>()) {
        const auto bad =
            at::nonzero(at::isfinite(x).all(1).logical_not())[0][0].item<std::int64_t>();
        fail("features hold NaN or Inf", {}, "features token " + std::to_string(bad),
             "finite values", "NaN/Inf");
    }
    if (options.precision != "float32" && options.precision != "bfloat16") {
        fail("unknown assignment precision", {}, "precision", "float32 or bfloat16",
             options.precision);
    }
    if (options.float32Kernel != "auto" && options.float32Kernel != "sgemm" &&
        options.float32Kernel != "bf16-certified") {
        fail("unknown float32 kernel", {}, "float32Kernel", "auto, sgemm or bf16-certified",
             options.float32Kernel);
    }
    if (options.tileRows < 1) {
        fail("tile rows must be positive", {}, "tileRows", ">= 1",
             std::to_string(options.tileRows));
    }
    Assignment a;
    a.numTokens = x.size(0);
    a.numFrames = features.dim() == 3 ? features.size(0) : 1;
    a.tokensPerFrame = a.numTokens / a.numFrames;
    a.codebookSize = codebook.size();
    // "auto" follows the features: CPU tensors take the CPU reference, device tensors stay on
    // their device (assign_backend.h).
    auto backend = makeAssignBackend(resolveAssignBackend(options.device, x));
    a.backend = backend->name();
    backend->assign(x, codebook.normalized(), options, a, progress);
    a.precision = options.precision;
    if (!a.codewordSums.defined()) {
        // Where the lists are: no transfer of the features when the backend ran on their device.
        const at::Tensor nearest = a.topIds.select(1, 0).to(at::kLong);
        a.codewordSums = at::zeros({a.codebookSize, x.size(1)}, nearest.options().dtype(at::kFloat))
                             .index_add_(0, nearest, x.to(nearest.device(), at::kFloat));
    }
    a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return a;
}

}  // namespace once
