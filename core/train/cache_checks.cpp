#include "train/cache_checks.h"

#include <ATen/ATen.h>

#include <charconv>
#include <system_error>

#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "util/error.h"
#include "util/json_file.h"

namespace once {

void checkCacheEntry(const SafetensorsFile& f, const std::string& name, DType dtype,
                     const std::vector<std::int64_t>& shape) {
    const TensorEntry& e = f.entry(name);
    bool ok = e.dtype == dtype && e.shape.size() == shape.size();
    for (std::size_t i = 0; ok && i < shape.size(); ++i) {
        ok = shape[i] < 0 || e.shape[i] == shape[i];
    }
    if (!ok) {
        std::string expected = std::string(dtypeName(dtype)) + " [";
        for (std::size_t i = 0; i < shape.size(); ++i) {
            expected +=
                (i ? ", " : "") + (shape[i] < 0 ? std::string("*") : std::to_string(shape[i]));
        }
        fail("a cache tensor has the wrong type or length", f.path(), name, expected + "]",
             std::string(dtypeName(e.dtype)) + " " + shapeString(e.shape));
    }
}

std::string firstBadRow(const at::Tensor& bad, const at::Tensor& values) {
    const std::int64_t i = bad.nonzero().index({0, 0}).item<std::int64_t>();
    return "row " + std::to_string(i) + " holds " + std::to_string(values[i].item<std::int64_t>());
}

void checkCacheRange(const at::Tensor& t, std::int64_t lo, std::int64_t hi, const std::string& file,
                     const std::string& name, const std::string& what) {
    const at::Tensor wide = t.to(at::kLong);  // bounds such as 2^31 do not fit int32
    at::Tensor bad = wide.lt(lo).logical_or(wide.ge(hi));
    if (bad.any().item<bool>()) {
        fail("a cache tensor holds an index out of range", file, name,
             what + " in " + std::to_string(lo) + ".." + std::to_string(hi - 1),
             firstBadRow(bad, t));
    }
}

std::int64_t cacheMetaInt(const SafetensorsFile& f, const std::string& key, std::int64_t lo,
                          std::int64_t hi) {
    const std::string v = f.meta(key);
    std::int64_t x = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc() || p != v.data() + v.size() || x < lo || x > hi) {
        fail("invalid metadata value", f.path(), key,
             "an integer in " + std::to_string(lo) + ".." + std::to_string(hi),
             printableExcerpt(v));
    }
    return x;
}

StageAManifest readStageAManifest(const std::string& path) {
    return parseStageAManifest(readFileLimited(path, kMaxStageAManifestBytes), path);
}

}  // namespace once
