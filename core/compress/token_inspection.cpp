#include "compress/token_inspection.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
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

/// Orders codewords by cosine, best first, ties to the lower index; a NaN score (a non-finite
/// feature) ranks last so the order stays a strict weak ordering.
bool ranksBefore(float a, std::int64_t ia, float b, std::int64_t ib) {
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na != nb) {
        return nb;
    }
    if (!na && a != b) {
        return a > b;
    }
    return ia < ib;
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
    return x[token];
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
    if (codebook->dim() != x.size(0)) {
        fail("token inspection: the codebook is not of these features", codebook->origin(),
             "dimension", std::to_string(x.size(0)), std::to_string(codebook->dim()));
    }
    const std::int64_t kSize = codebook->size();
    if (out.groupCodeword >= kSize) {
        fail("token inspection: the result names a codeword the codebook does not have",
             codebook->origin(), "codeword", "< " + std::to_string(kSize),
             std::to_string(out.groupCodeword));
    }
    const at::Tensor scores = at::mv(codebook->normalized(), x).contiguous();
    const float* s = scores.data_ptr<float>();
    const auto by = [s](std::int64_t a, std::int64_t b) { return ranksBefore(s[a], a, s[b], b); };

    const int n = static_cast<int>(
        std::min<std::int64_t>({std::max(k, 1), kSize, TokenInspectionLimits::kMaxNearest}));
    std::vector<std::int64_t> ids(static_cast<std::size_t>(kSize));
    std::iota(ids.begin(), ids.end(), std::int64_t{0});
    std::partial_sort(ids.begin(), ids.begin() + n, ids.end(), by);
    out.nearest.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        out.nearest.push_back(
            {ids[static_cast<std::size_t>(i)], s[ids[static_cast<std::size_t>(i)]]});
    }
    if (out.groupCodeword >= 0) {
        const std::int64_t c = out.groupCodeword;
        out.cosineToGroupCodeword = s[c];
        out.groupCodewordRank = 0;
        for (std::int64_t j = 0; j < kSize; ++j) {
            out.groupCodewordRank += by(j, c) ? 1 : 0;
        }
    }
    return out;
}

}  // namespace once
