#include "train/cache_reader.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <cstring>

#include "util/error.h"

namespace once {

// CacheReader::open lives in sketch_cache.cpp, beside the shard checks it shares with the
// cache's writer.

at::Tensor CacheReader::slice(std::int64_t begin, std::int64_t end) const {
    if (begin < 0 || end < begin || end > rows_) {
        fail("rows outside the cache", manifestPath_, "rows", "0.." + std::to_string(rows_),
             std::to_string(begin) + ".." + std::to_string(end));
    }
    std::vector<at::Tensor> parts;
    for (std::size_t s = 0; s < reps_.size() && begin < end; ++s) {
        const std::int64_t lo = std::max(begin, begin_[s]), hi = std::min(end, begin_[s + 1]);
        if (lo < hi) {
            parts.push_back(reps_[s].slice(0, lo - begin_[s], hi - begin_[s]));
        }
    }
    if (parts.empty()) {
        return at::empty({0, dim()}, at::kBFloat16);
    }
    return parts.size() == 1 ? parts[0].clone() : at::cat(parts);
}

at::Tensor CacheReader::gather(const std::vector<std::int64_t>& rows) const {
    const std::int64_t n = std::int64_t(rows.size()), d = dim();
    at::Tensor out = at::empty({n, d}, at::kBFloat16);
    for (std::int64_t r : rows) {
        if (r < 0 || r >= rows_) {
            fail("a row outside the cache", manifestPath_, "rows",
                 "0.." + std::to_string(rows_ - 1), std::to_string(r));
        }
    }
    auto* dst = static_cast<std::uint8_t*>(out.data_ptr());
    const std::size_t rowBytes = std::size_t(d) * 2;
    // Rows are independent copies: in parallel, so that page faults on a cold cache overlap.
    at::parallel_for(0, n, 1024, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t i = b; i < e; ++i) {
            const std::int64_t r = rows[std::size_t(i)];
            const std::size_t s =
                std::size_t(std::upper_bound(begin_.begin(), begin_.end(), r) - begin_.begin() - 1);
            const auto* src = static_cast<const std::uint8_t*>(reps_[s].data_ptr()) +
                              std::size_t(r - begin_[s]) * rowBytes;
            std::memcpy(dst + std::size_t(i) * rowBytes, src, rowBytes);
        }
    });
    return out;
}

}  // namespace once
