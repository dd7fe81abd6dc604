#pragma once
// The checks of Stage-A cache files shared by the cache's writer (the pending sketches a
// resumed run takes back, train/sketch_cache.h) and its reader (the shards, train/
// cache_reader.h): a tensor's header before anything is indexed with or allocated for it, index
// ranges, integer metadata, and the manifest read within its size limit. Every failure is an
// OnceError naming the file, the tensor or key, what was expected and what was found.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "io/dtype.h"
#include "train/stage_a_manifest.h"

namespace once {

class SafetensorsFile;

/// Checks the header of tensor `name` of `f` against `dtype` and `shape` (-1: any extent).
void checkCacheEntry(const SafetensorsFile& f, const std::string& name, DType dtype,
                     const std::vector<std::int64_t>& shape);

/// The first row where `bad` (bool [n]) is true and what `values` holds there, for a message.
std::string firstBadRow(const at::Tensor& bad, const at::Tensor& values);

/// Values of the int32 tensor `t` (tensor `name` of `file`, described as `what`) all in
/// [lo, hi).
void checkCacheRange(const at::Tensor& t, std::int64_t lo, std::int64_t hi, const std::string& file,
                     const std::string& name, const std::string& what);

/// Metadata `key` of `f` as an integer in [lo, hi].
std::int64_t cacheMetaInt(const SafetensorsFile& f, const std::string& key, std::int64_t lo,
                          std::int64_t hi);

/// The manifest at `path` (at most kMaxStageAManifestBytes), checked by parseStageAManifest.
StageAManifest readStageAManifest(const std::string& path);

}  // namespace once
