#include "compress/baselines/baseline_common.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <chrono>
#include <numeric>

#include "util/error.h"

namespace once::baselines {
namespace {

std::string shapeText(const at::Tensor& t) {
    std::string s = "[";
    for (std::int64_t i = 0; i < t.dim(); ++i) {
        s += (i ? ", " : "") + std::to_string(t.size(i));
    }
    return s + "]";
}

}  // namespace

PreparedVideo prepareVideo(const std::string& method, const EncodedVideo& video) {
    const at::Tensor& f = video.features;
    if (!f.defined() || f.dim() != 3 || f.size(0) < 1 || f.size(1) < 1 || f.size(2) < 1) {
        fail("method '" + method + "' needs one video's tokens", {}, "features",
             "[T, P, D] with T, P, D >= 1", f.defined() ? shapeText(f) : "undefined");
    }
    if (!at::isFloatingType(f.scalar_type())) {
        fail("method '" + method + "' needs floating-point features", {}, "features",
             "a float dtype", std::string(c10::toString(f.scalar_type())));
    }
    PreparedVideo v;
    v.frames = f.size(0);
    v.patches = f.size(1);
    v.dim = f.size(2);
    v.x = f.to(at::kCPU, at::kDouble).contiguous();
    if (video.attention.defined()) {
        if (video.attention.dim() != 2 || video.attention.size(0) != v.frames ||
            video.attention.size(1) != v.patches) {
            fail("attention does not match the features", {}, "attention",
                 "[" + std::to_string(v.frames) + ", " + std::to_string(v.patches) + "]",
                 shapeText(video.attention));
        }
        v.attention = video.attention.to(at::kCPU, at::kDouble).contiguous();
    }
    if (video.frameGlobals.defined()) {
        if (video.frameGlobals.dim() != 2 || video.frameGlobals.size(0) != v.frames) {
            fail("frame globals do not match the features", {}, "frameGlobals",
                 "[" + std::to_string(v.frames) + ", G]", shapeText(video.frameGlobals));
        }
        v.frameGlobals = video.frameGlobals.to(at::kCPU, at::kDouble).contiguous();
    }
    if (video.gridH > 0 || video.gridW > 0) {
        if (std::int64_t(video.gridH) * video.gridW != v.patches) {
            fail("the token grid does not match the tokens per frame", {}, "gridH x gridW",
                 std::to_string(v.patches) + " tokens",
                 std::to_string(video.gridH) + " x " + std::to_string(video.gridW));
        }
        v.gridH = video.gridH;
        v.gridW = video.gridW;
    } else {
        v.gridH = 1;
        v.gridW = v.patches;
    }
    return v;
}

void BaselineCompressor::prepare(const EncodedVideo& video, Progress* /*progress*/) {
    prepared_ = false;
    const auto start = std::chrono::steady_clock::now();
    video_ = prepareVideo(method_, video);
    prepareMore();
    prepareSeconds_ =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    prepared_ = true;
}

CompressionResult BaselineCompressor::compress(std::int64_t budget, std::uint64_t seed) {
    if (!prepared_) {
        fail("compress() called before prepare()", {}, method_);
    }
    if (budget < 1) {
        fail("the token budget must be at least 1", {}, "budget", ">= 1", std::to_string(budget));
    }
    const auto start = std::chrono::steady_clock::now();
    CompressionResult r =
        budget < smallestBudget() ? emptyResult(video_, budget) : run(budget, seed);
    r.seconds.assign = prepareSeconds_;
    r.seconds.pool =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

CompressionResult makeResult(const at::Tensor& tokens,
                             const std::vector<std::int64_t>& groupOfToken,
                             const PreparedVideo& video, std::int64_t budget) {
    CompressionResult r;
    r.tokens = tokens.defined() ? tokens.to(at::kFloat).contiguous()
                                : at::empty({0, video.dim}, at::kFloat);
    r.groupOfToken = at::tensor(at::ArrayRef<std::int64_t>(groupOfToken), at::kLong);
    finishResult(r, video.x.view({-1, video.dim}), budget);
    return r;
}

CompressionResult emptyResult(const PreparedVideo& video, std::int64_t budget) {
    return makeResult(at::empty({0, video.dim}, at::kDouble),
                      std::vector<std::int64_t>(std::size_t(video.numTokens()), -1), video, budget);
}

std::vector<std::int64_t> topKIndices(const std::vector<double>& scores, std::int64_t k) {
    std::vector<std::int64_t> order(scores.size());
    std::iota(order.begin(), order.end(), std::int64_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
        return scores[std::size_t(a)] > scores[std::size_t(b)];
    });
    order.resize(std::size_t(std::clamp<std::int64_t>(k, 0, std::int64_t(order.size()))));
    return order;
}

std::vector<std::int64_t> linspaceIndices(std::int64_t n, std::int64_t k) {
    std::vector<std::int64_t> idx;
    if (k == 1) {
        return {0};
    }
    for (std::int64_t i = 0; i < k; ++i) {
        // round(i (n − 1) / (k − 1)) with halves up, exactly.
        idx.push_back((2 * i * (n - 1) + (k - 1)) / (2 * (k - 1)));
    }
    return idx;
}

at::Tensor frameMeanSimilarity(const at::Tensor& x) {
    at::Tensor mean = x.mean(1, /*keepdim=*/true);  // [T, 1, D]
    return (normalizeRows(x) * normalizeRows(mean)).sum(-1);
}

at::Tensor normalizeRows(const at::Tensor& x) {
    return x / x.norm(2, -1, /*keepdim=*/true).clamp_min(1e-300);
}

std::vector<std::int64_t> nearestByCosine(const at::Tensor& from, const at::Tensor& to) {
    at::Tensor best = at::matmul(normalizeRows(from), normalizeRows(to).t()).argmax(1).contiguous();
    return {best.data_ptr<std::int64_t>(), best.data_ptr<std::int64_t>() + best.numel()};
}

double uniform01(std::uint64_t bits) {
    return double(bits >> 11) * 0x1.0p-53;
}

}  // namespace once::baselines
