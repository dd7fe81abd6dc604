#include "train/cache_reader.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <system_error>

#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "train/cache_checks.h"
#include "train/sketch_cache.h"
#include "train/sketch_provenance.h"
#include "util/error.h"
#include "util/json_file.h"
#include "util/safe_path.h"

namespace fs = std::filesystem;

namespace once {

namespace {

// Rows checked at a time for finite values when a cache is opened (bounds the temporary).
constexpr std::int64_t kCacheCheckTileRows = 65536;

}  // namespace

CacheReader CacheReader::open(const std::string& cacheDir, bool allowShardCache) {
    const std::string manifestPath = (fs::path(cacheDir) / "manifest.json").string();
    std::error_code ec;
    if (!fs::exists(fs::status(manifestPath, ec))) {
        fail("no Stage-A cache here (manifest.json missing)", cacheDir, "manifest.json");
    }
    CacheReader r;
    r.manifestPath_ = manifestPath;
    r.manifest_ = readStageAManifest(manifestPath);
    const StageAManifest& m = r.manifest_;
    if (m.shardCount > 1 && !allowShardCache) {
        fail(
            "this is the cache of one task of a sharded run; merge the tasks' caches with "
            "`once train merge` and use the merged cache",
            manifestPath, "request.shard", "no shard (a whole-corpus cache)",
            std::to_string(m.shardIndex) + "/" + std::to_string(m.shardCount));
    }
    if (!m.complete) {
        fail("the Stage-A cache is unfinished: rerun `once train sketch` to resume it",
             manifestPath, "complete", "true", "false");
    }
    if (m.shards.empty() && m.shardCount == 1) {
        fail("the Stage-A cache holds no representative", manifestPath, "shards", ">= 1", "0");
    }
    // Every shard's header first: the row counts the manifest states must be backed by the
    // files before anything is allocated for them.
    std::vector<SafetensorsFile> files;
    for (std::size_t i = 0; i < m.shards.size(); ++i) {
        const auto& sh = m.shards[i];
        const std::string field = "shards[" + std::to_string(i) + "].file";
        files.push_back(
            SafetensorsFile::open(resolveInside(cacheDir, sh.file, manifestPath, field)));
        const SafetensorsFile& f = files.back();
        if (f.meta("format") != kStageAShardFormat) {
            fail("not a Stage-A cache shard", f.path(), "format", kStageAShardFormat,
                 printableExcerpt(f.meta("format")));
        }
        checkCacheEntry(f, "reps", DType::BF16, {sh.rows, m.dim});
        for (const char* name : {"weights", "category", "video", "bin"}) {
            checkCacheEntry(f, name, DType::I32, {sh.rows});
        }
        if (m.provenance) {
            checkCacheEntry(f, "exemplar", DType::I32, {sh.rows, kExemplarColumns});
        }
    }
    // What the manifest says every row must hold: its video and that video's category.
    const std::int64_t total = m.committedRows();
    at::Tensor expectVideo = at::empty({total}, at::kInt);
    at::Tensor expectCategory = at::empty({total}, at::kInt);
    std::vector<std::int64_t> videoTokens(m.videos.size(), -1);
    for (std::size_t i = 0; i < m.videos.size(); ++i) {
        const StageAVideoRecord& v = m.videos[i];
        if (v.status == StageAVideoRecord::Status::Done) {
            expectVideo.slice(0, v.rowBegin, v.rowEnd).fill_(std::int64_t(i));
            expectCategory.slice(0, v.rowBegin, v.rowEnd).fill_(m.categoryIndexOf(i));
            videoTokens[i] = v.tokens;
        }
    }
    std::vector<at::Tensor> weights, category, video, bin, exemplar;
    const at::Tensor tokensOfVideo = at::tensor(videoTokens, at::kLong);
    std::int64_t row = 0;
    for (std::size_t i = 0; i < m.shards.size(); ++i) {
        const SafetensorsFile& f = files[i];
        const std::string& file = f.path();
        const std::int64_t n = m.shards[i].rows;
        at::Tensor reps = loadTensor(f, "reps");  // mapped: never copied whole
        at::Tensor w = loadTensor(f, "weights").clone();
        at::Tensor g = loadTensor(f, "category").clone();
        at::Tensor v = loadTensor(f, "video").clone();
        at::Tensor b = loadTensor(f, "bin").clone();
        for (std::int64_t t = 0; t < n; t += kCacheCheckTileRows) {
            if (!at::isfinite(reps.slice(0, t, std::min(n, t + kCacheCheckTileRows)))
                     .all()
                     .item<bool>()) {
                fail("a cache shard holds non-finite representatives", file, "reps",
                     "finite values", "NaN or infinity");
            }
        }
        checkCacheRange(w, 1, std::int64_t(std::numeric_limits<std::int32_t>::max()) + 1, file,
                        "weights", "source counts");
        checkCacheRange(v, 0, std::int64_t(m.videos.size()), file, "video", "corpus indices");
        checkCacheRange(g, -1, std::int64_t(m.categories.size()), file, "category",
                        "category indices");
        checkCacheRange(b, 0, m.bins, file, "bin", "timeline bins");
        const at::Tensor ev = expectVideo.slice(0, row, row + n);
        if (!v.equal(ev)) {
            const at::Tensor bad = v.ne(ev);
            const std::int64_t k = bad.nonzero().index({0, 0}).item<std::int64_t>();
            fail("a cache shard's rows are not the videos the manifest assigns to them", file,
                 "video",
                 "video " + std::to_string(ev[k].item<std::int64_t>()) + " at row " +
                     std::to_string(k),
                 firstBadRow(bad, v));
        }
        const at::Tensor eg = expectCategory.slice(0, row, row + n);
        if (!g.equal(eg)) {
            const at::Tensor bad = g.ne(eg);
            const std::int64_t k = bad.nonzero().index({0, 0}).item<std::int64_t>();
            fail("a cache shard's categories are not those of its videos", file, "category",
                 "category " + std::to_string(eg[k].item<std::int64_t>()) + " at row " +
                     std::to_string(k),
                 firstBadRow(bad, g));
        }
        if (m.provenance) {
            at::Tensor e = loadTensor(f, "exemplar").clone();
            // After the video check: every row's video is a done one, whose token count is known.
            checkExemplarRows(e, tokensOfVideo.index_select(0, v.to(at::kLong)), file, "exemplar");
            exemplar.push_back(e);
        }
        r.begin_.push_back(row);
        row += n;
        r.reps_.push_back(reps);
        weights.push_back(w);
        category.push_back(g);
        video.push_back(v);
        bin.push_back(b);
    }
    r.begin_.push_back(row);
    r.rows_ = row;
    auto join = [](const std::vector<at::Tensor>& parts) {
        return parts.empty() ? at::empty({0}, at::kInt) : at::cat(parts);
    };
    r.weights_ = join(weights);
    r.category_ = join(category);
    r.video_ = join(video);
    r.bin_ = join(bin);
    if (m.provenance) {
        r.exemplar_ =
            exemplar.empty() ? at::empty({0, kExemplarColumns}, at::kInt) : at::cat(exemplar);
    }
    // Every done video's source counts sum to its token count.
    at::Tensor sums = at::zeros({std::int64_t(m.videos.size())}, at::kLong)
                          .index_add_(0, r.video_.to(at::kLong), r.weights_.to(at::kLong));
    const std::int64_t* ps = sums.data_ptr<std::int64_t>();
    for (std::size_t i = 0; i < m.videos.size(); ++i) {
        if (videoTokens[i] >= 0 && ps[i] != videoTokens[i]) {
            fail("a video's source counts in the cache do not sum to its token count",
                 (fs::path(cacheDir) / m.videos[i].shard).string(), "weights",
                 std::to_string(videoTokens[i]) + " (videos[" + std::to_string(i) +
                     "].tokens in manifest.json)",
                 std::to_string(ps[i]));
        }
    }
    return r;
}

SketchCache SketchCache::load(const std::string& cacheDir) {
    const CacheReader r = CacheReader::open(cacheDir);
    const StageAManifest& m = r.manifest();
    SketchCache c;
    std::vector<at::Tensor> reps;
    for (std::size_t i = 0; i < r.shardCount(); ++i) {
        reps.push_back(r.shardReps(i));
    }
    c.reps = at::cat(reps);  // a copy: the mappings may go
    c.weights = r.weights();
    c.category = r.category();
    c.video = r.video();
    c.bin = r.bin();
    c.exemplar = r.exemplar();
    c.categories = m.categories;
    c.sources = m.sources;
    c.backbone = m.backbone;
    c.featureSource = m.featureSource;
    c.manifestJson = m.toJson().dump();
    return c;
}

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
