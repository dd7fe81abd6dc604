#include "compress/pooling.h"

#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>

namespace once {

namespace {

// out[target[j]] += x[row(j)] for j in [0, count) (row(j) = rows[j], or j when rows is null;
// negative targets skipped), accumulated in F32 in the order of j. Parallel over blocks of
// feature columns: no atomics, the same bits at any thread count, no gathered copy of the rows
// (a copy of thousands of rows is tens of MB of fresh pages, slower than the adds).
void accumulateRows(const at::Tensor& x, const std::int64_t* rows, const std::int64_t* target,
                    std::int64_t count, float* out) {
    const at::Tensor xc = x.contiguous();
    const std::int64_t d = xc.size(1);
    AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, xc.scalar_type(), "poolRows", [&] {
        const scalar_t* src = xc.data_ptr<scalar_t>();
        constexpr std::int64_t kCols = 64;
        at::parallel_for(0, (d + kCols - 1) / kCols, 1, [&](std::int64_t c0, std::int64_t c1) {
            const std::int64_t d0 = c0 * kCols, d1 = std::min(d, c1 * kCols);
            for (std::int64_t j = 0; j < count; ++j) {
                const std::int64_t g = target[j];
                if (g < 0) {
                    continue;
                }
                float* acc = out + g * d;
                const scalar_t* row = src + (rows ? rows[j] : j) * d;
                for (std::int64_t c = d0; c < d1; ++c) {
                    acc[c] += float(row[c]);
                }
            }
        });
    });
}

}  // namespace

void poolGroups(const at::Tensor& x, const std::vector<std::int64_t>& group, std::int64_t groups,
                at::Tensor& means, at::Tensor& sizes) {
    const std::int64_t n = x.size(0), d = x.size(1);
    means = at::zeros({groups, d}, at::kFloat);
    sizes = at::zeros({groups}, at::kLong);
    std::int64_t* sz = sizes.data_ptr<std::int64_t>();
    for (std::int64_t i = 0; i < n; ++i) {
        if (group[std::size_t(i)] >= 0) {
            ++sz[group[std::size_t(i)]];
        }
    }
    accumulateRows(x, nullptr, group.data(), n, means.data_ptr<float>());
    means.div_(sizes.clamp_min(1).unsqueeze(1).to(at::kFloat));
}

at::Tensor rowCosine(const at::Tensor& a, const at::Tensor& b) {
    at::Tensor af = a.to(at::kFloat), bf = b.to(at::kFloat);
    return (af * bf).sum(1) / (af.norm(2, 1).clamp_min(1e-12) * bf.norm(2, 1).clamp_min(1e-12));
}

bool poolFromCodewordSums(const at::Tensor& x, const Assignment& a,
                          const std::vector<std::int64_t>& codeword,
                          const std::vector<std::int64_t>& group, at::Tensor& means,
                          at::Tensor& sizes) {
    const std::int64_t n = a.numTokens, m = std::int64_t(codeword.size());
    if (!a.codewordSums.defined() || a.codewordSums.size(0) != a.codebookSize ||
        a.codewordSums.size(1) != x.size(1) || std::int64_t(group.size()) != n) {
        return false;
    }
    std::vector<std::int64_t> groupOfCode(std::size_t(a.codebookSize), -1);
    for (std::int64_t g = 0; g < m; ++g) {
        groupOfCode[std::size_t(codeword[std::size_t(g)])] = g;
    }
    const std::int32_t* ids = a.topIds.data_ptr<std::int32_t>();
    const std::int64_t l = a.listSize();
    std::vector<std::int64_t> moved, target;
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t home = groupOfCode[std::size_t(ids[i * l])];
        const std::int64_t g = group[std::size_t(i)];
        if (home >= 0) {
            if (g != home) {
                return false;  // not the full rule: a token left its own codeword's group
            }
        } else if (g >= 0) {
            moved.push_back(i);
            target.push_back(g);
        }
    }
    at::Tensor codes = at::from_blob(const_cast<std::int64_t*>(codeword.data()), {m}, at::kLong);
    at::Tensor sums = a.codewordSums.index_select(0, codes).to(at::kFloat).contiguous();
    at::Tensor counts = a.counts.index_select(0, codes).to(at::kLong).contiguous();
    std::int64_t* cnt = counts.data_ptr<std::int64_t>();
    for (auto g : target) {
        ++cnt[g];
    }
    accumulateRows(x, moved.data(), target.data(), std::int64_t(moved.size()),
                   sums.data_ptr<float>());
    means = sums / counts.clamp_min(1).unsqueeze(1).to(at::kFloat);
    sizes = counts;
    return true;
}

}  // namespace once
