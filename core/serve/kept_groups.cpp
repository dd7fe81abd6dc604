#include "serve/kept_groups.h"

#include <ATen/ATen.h>

#include "compress/compression.h"

namespace once::serve {

std::shared_ptr<CompressionResult> keptGroups(const AskReport& r) {
    auto result = std::make_shared<CompressionResult>();
    const auto n = static_cast<std::int64_t>(r.groupOfToken.size());
    const auto m = static_cast<std::int64_t>(r.codewordIds.size());
    std::vector<std::int64_t> sizes(static_cast<std::size_t>(m), 0);
    std::int64_t kept = 0;
    for (const std::int64_t g : r.groupOfToken) {
        if (g >= 0 && g < m) {
            ++sizes[static_cast<std::size_t>(g)], ++kept;
        }
    }
    auto vec = [](const std::vector<std::int64_t>& v) {
        return at::tensor(at::ArrayRef<std::int64_t>(v), at::kLong);
    };
    result->groupOfToken = vec(r.groupOfToken);
    result->codewordIds = vec(r.codewordIds);
    result->groupSizes = vec(sizes);
    result->numTokens = n;
    result->numOutputs = m;
    result->budget = r.budget;
    result->usedCodewords = m;
    result->coverage = n > 0 ? double(kept) / double(n) : 1.0;
    result->method = r.method;
    return result;
}

}  // namespace once::serve
