#include "analysis/codebook_projection.h"

#include <ATen/ATen.h>

#include <string>

#include "codebook/codebook.h"
#include "util/error.h"

namespace once {
namespace {

void checkpoint(Progress* progress, double done) {
    if (progress != nullptr) {
        progress->throwIfCancelled();
        progress->update(done);
    }
}

/// Unit rows in double: the map is of directions.
at::Tensor unitRows(const at::Tensor& rows) {
    const at::Tensor x = rows.to(at::kCPU, at::kDouble);
    return x / x.norm(2, 1, true).clamp_min(1e-12);
}

}  // namespace

at::Tensor CodebookProjection::project(const at::Tensor& rows) const {
    const std::int64_t d = mean.size(0);
    if ((rows.dim() != 2 && rows.dim() != 3) || rows.size(-1) != d) {
        fail("codebook projection: the rows are not of the codebook's dimension", {}, "dimension",
             std::to_string(d), rows.dim() >= 1 ? std::to_string(rows.size(-1)) : "a scalar");
    }
    const at::Tensor x = unitRows(rows.reshape({-1, d}));
    return (x - mean.to(at::kDouble)).matmul(axes.to(at::kDouble).t()).to(at::kFloat).contiguous();
}

CodebookProjection fitCodebookProjection(const Codebook& codebook, Progress* progress) {
    const std::int64_t k = codebook.size(), d = codebook.dim();
    if (k < 3 || d < 2) {
        fail("codebook projection: too few codewords or dimensions for a 2-D map",
             codebook.origin(), "codebook", "K >= 3 and D >= 2",
             "K = " + std::to_string(k) + ", D = " + std::to_string(d));
    }
    if (std::min(k, d) > CodebookProjectionLimits::kMaxSide) {
        fail("codebook projection: the codebook is too large for the projector's exact PCA",
             codebook.origin(), "min(K, D)",
             "<= " + std::to_string(CodebookProjectionLimits::kMaxSide),
             std::to_string(std::min(k, d)));
    }
    if (progress != nullptr) {
        progress->begin("projecting the codebook", 3);
    }
    const at::Tensor x = unitRows(codebook.vectors());
    const at::Tensor mean = x.mean(0);
    const at::Tensor xc = x - mean;
    const double total = xc.pow(2).sum().item<double>();
    checkpoint(progress, 1);
    // The smaller of the two eigenproblems: D×D covariance, or the K×K Gram matrix whose
    // eigenvectors map back to the same axes (Xcᵀu).
    at::Tensor axes, values;
    if (k >= d) {
        auto [w, v] = at::linalg_eigh(xc.t().matmul(xc));
        values = w.flip(0).slice(0, 0, 2);
        axes = v.flip(1).slice(1, 0, 2).t();
    } else {
        auto [w, u] = at::linalg_eigh(xc.matmul(xc.t()));
        values = w.flip(0).slice(0, 0, 2);
        axes = xc.t().matmul(u.flip(1).slice(1, 0, 2)).t();
        axes = axes / axes.norm(2, 1, true).clamp_min(1e-300);
    }
    checkpoint(progress, 2);
    for (int a = 0; a < 2; ++a) {
        const at::Tensor row = axes[a];
        if (row[row.abs().argmax()].item<double>() < 0) {
            axes[a].neg_();
        }
    }
    CodebookProjection p;
    p.mean = mean.to(at::kFloat);
    p.axes = axes.to(at::kFloat).contiguous();
    for (int a = 0; a < 2; ++a) {
        p.explained[static_cast<std::size_t>(a)] =
            total > 0 ? std::max(0.0, values[a].item<double>()) / total : 0.0;
    }
    p.codewords = xc.matmul(axes.t()).to(at::kFloat).contiguous();
    checkpoint(progress, 3);
    return p;
}

}  // namespace once
