#include "compress/token_compressor.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <mutex>

#include "compress/pooling.h"
#include "util/error.h"

namespace once {
namespace {

struct Entry {
    CompressorInfo info;
    CompressorFactory factory;
};

std::vector<Entry>& registry() {
    static std::vector<Entry> r;
    return r;
}
std::mutex& registryMutex() {
    static std::mutex m;
    return m;
}

std::string knownMethods() {
    std::string s;
    for (const auto& e : registry()) {
        s += (s.empty() ? "" : ", ") + e.info.method;
    }
    return s;
}

const Entry& findEntry(const std::string& method) {
    for (const auto& e : registry()) {
        if (e.info.method == method) {
            return e;
        }
    }
    fail("unknown compression method '" + method + "'", {}, "method", "one of " + knownMethods(),
         method);
}

const std::string& rawParam(const std::string& method, const CompressorParams& params,
                            const CompressorParams& defaults, const std::string& key) {
    if (auto it = params.find(key); it != params.end()) {
        return it->second;
    }
    if (auto it = defaults.find(key); it != defaults.end()) {
        return it->second;
    }
    fail("method '" + method + "' has no parameter '" + key + "'", {}, key);
}

}  // namespace

void registerCompressor(const CompressorInfo& info, CompressorFactory factory) {
    std::lock_guard lock(registryMutex());
    auto& r = registry();
    r.erase(std::remove_if(r.begin(), r.end(),
                           [&](const Entry& e) { return e.info.method == info.method; }),
            r.end());
    r.push_back({info, std::move(factory)});
    std::sort(r.begin(), r.end(),
              [](const Entry& a, const Entry& b) { return a.info.method < b.info.method; });
}

std::unique_ptr<TokenCompressor> makeCompressor(const CompressorSpec& spec) {
    CompressorFactory factory;
    {
        std::lock_guard lock(registryMutex());
        const Entry& e = findEntry(spec.method);
        for (const auto& [key, value] : spec.params) {
            if (!e.info.defaults.count(key)) {
                std::string keys;
                for (const auto& [k, v] : e.info.defaults) {
                    keys += (keys.empty() ? "" : ", ") + k;
                }
                fail("method '" + spec.method + "' has no parameter '" + key + "'", {}, key,
                     keys.empty() ? "no parameters" : "one of " + keys, key + "=" + value);
            }
        }
        if (e.info.needsCodebook && spec.codebook == nullptr) {
            fail("method '" + spec.method + "' needs a codebook", {}, "codebook", "a codebook",
                 "none");
        }
        factory = e.factory;
    }
    return factory(spec);
}

std::vector<CompressorInfo> compressorInfos() {
    std::lock_guard lock(registryMutex());
    std::vector<CompressorInfo> out;
    for (const auto& e : registry()) {
        out.push_back(e.info);
    }
    return out;
}

const CompressorInfo& compressorInfo(const std::string& method) {
    std::lock_guard lock(registryMutex());
    return findEntry(method).info;
}

double paramDouble(const std::string& method, const CompressorParams& params,
                   const CompressorParams& defaults, const std::string& key) {
    const std::string& v = rawParam(method, params, defaults, key);
    try {
        std::size_t used = 0;
        double d = std::stod(v, &used);
        if (used == v.size()) {
            return d;
        }
    } catch (const std::exception&) {
    }
    fail("parameter of method '" + method + "' is not a number", {}, key, "a number", v);
}

std::int64_t paramInt(const std::string& method, const CompressorParams& params,
                      const CompressorParams& defaults, const std::string& key) {
    const std::string& v = rawParam(method, params, defaults, key);
    try {
        std::size_t used = 0;
        long long d = std::stoll(v, &used);
        if (used == v.size()) {
            return d;
        }
    } catch (const std::exception&) {
    }
    fail("parameter of method '" + method + "' is not an integer", {}, key, "an integer", v);
}

std::string paramString(const std::string& method, const CompressorParams& params,
                        const CompressorParams& defaults, const std::string& key) {
    return rawParam(method, params, defaults, key);
}

void finishResult(CompressionResult& result, const at::Tensor& features, std::int64_t budget) {
    const at::Tensor x = features.reshape({-1, features.size(-1)}).to(at::kFloat).contiguous();
    const std::int64_t n = x.size(0);
    const std::int64_t m = result.tokens.size(0);
    at::Tensor group = result.groupOfToken.to(at::kLong).contiguous();
    std::vector<std::int64_t> g(group.data_ptr<std::int64_t>(), group.data_ptr<std::int64_t>() + n);
    at::Tensor means, sizes;
    poolGroups(x, g, m, means, sizes);
    result.groupOfToken = group;
    result.groupSizes = sizes;
    result.numTokens = n;
    result.numOutputs = m;
    result.budget = budget;
    result.coverage = n > 0 ? double(sizes.sum().item<std::int64_t>()) / double(n) : 0.0;
    if (!result.codewordIds.defined()) {
        result.codewordIds = at::full({m}, -1, at::kLong);
    }
    result.tokens = result.tokens.to(at::kFloat).contiguous();
    result.outputCosine = m > 0 ? rowCosine(result.tokens, means) : at::empty({0}, at::kFloat);
}

BudgetShape BudgetShape::of(const EncodedVideo& video, std::int64_t codebookSize) {
    BudgetShape shape;
    if (!video.empty()) {
        shape.frames = video.numFrames();
        shape.patches = video.patchesPerFrame();
        shape.gridH = video.gridH;
        shape.gridW = video.gridW;
    }
    shape.codebookSize = codebookSize;
    return shape;
}

std::string compressorTitle(const std::string& method) {
    const CompressorInfo& info = compressorInfo(method);
    return info.title.empty() ? info.method : info.title;
}

BudgetRange budgetRange(const std::string& method, const BudgetShape& shape,
                        const CompressorParams& params) {
    const CompressorInfo& info = compressorInfo(method);
    BudgetRange r;
    r.max = shape.tokens();
    if (info.budgetRange) {
        r = info.budgetRange(shape, params);
    }
    r.min = std::max<std::int64_t>(1, r.min);
    r.max = std::max(r.min, r.max);
    return r;
}

}  // namespace once
