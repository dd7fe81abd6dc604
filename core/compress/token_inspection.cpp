#include "compress/token_inspection.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <limits>
#include <string>

#include "codebook/codebook.h"
#include "compress/compression.h"
#include "util/error.h"

namespace once {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// ν(v) as the codebook and the pooling compute it (norm clamped at 1e-12), F32.
at::Tensor unit(const at::Tensor& v) {
    const at::Tensor f = v.to(at::kFloat);
    return f / f.norm(2).clamp_min(1e-12);
}

at::Tensor tokenRow(const at::Tensor& features, std::int64_t token, std::int64_t numTokens) {
    if (features.dim() != 2 && features.dim() != 3) {
        fail("token inspection: features must be [N, D] or [T, P, D]", {}, "features",
             "2 or 3 dims", std::to_string(features.dim()) + " dims");
    }
    const at::Tensor x = features.reshape({-1, features.size(-1)});
    if (x.size(0) != numTokens) {
        fail("token inspection: the compression result is not of these features", {}, "tokens",
             std::to_string(x.size(0)) + " (the features)", std::to_string(numTokens));
    }
    if (token < 0 || token >= numTokens) {
        fail("token inspection: no such token", {}, "token",
             "0 ≤ token < " + std::to_string(numTokens), std::to_string(token));
    }
    return x[token].to(at::kCPU);
}

}  // namespace

TokenInspection inspectToken(const at::Tensor& features, const Codebook* codebook,
                             const CompressionResult& result, std::int64_t token, int k) {
    TokenInspection out;
    out.token = token;
    const at::Tensor x = unit(tokenRow(features, token, result.numTokens));

    out.outputRow =
        result.groupOfToken.defined() ? result.groupOfToken[token].item<std::int64_t>() : -1;
    if (out.outputRow >= result.numOutputs) {
        fail("token inspection: the result names an output row it does not have", {},
             "groupOfToken", "< " + std::to_string(result.numOutputs),
             std::to_string(out.outputRow));
    }
    out.residual = result.residual.defined() ? result.residual[token].item<float>() : kNaN;
    out.cosineToOutput = kNaN;
    out.cosineToGroupCodeword = kNaN;
    if (out.outputRow >= 0) {
        out.groupSize = result.groupSizes[out.outputRow].item<std::int64_t>();
        out.cosineToOutput = unit(result.tokens[out.outputRow]).dot(x).item<float>();
        if (result.codewordIds.defined() && codebook != nullptr) {
            out.groupCodeword = result.codewordIds[out.outputRow].item<std::int64_t>();
        }
    }
    if (codebook == nullptr) {
        return out;
    }
    const CodewordRanking ranking(*codebook, x);
    if (out.groupCodeword >= ranking.size()) {
        fail("token inspection: the result names a codeword the codebook does not have",
             codebook->origin(), "codeword", "< " + std::to_string(ranking.size()),
             std::to_string(out.groupCodeword));
    }
    out.nearest =
        ranking.nearest(std::min<std::int64_t>(std::max(k, 1), TokenInspectionLimits::kMaxNearest));
    if (out.groupCodeword >= 0) {
        out.cosineToGroupCodeword = ranking.cosine(out.groupCodeword);
        out.groupCodewordRank = ranking.rankOf(out.groupCodeword);
    }
    return out;
}

}  // namespace once
