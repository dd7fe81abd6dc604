#include "train/exemplar_selection.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <numeric>

#include "codebook/codebook_exemplars.h"
#include "io/tensor_io.h"
#include "train/cache_reader.h"
#include "train/exemplar_pixels.h"
#include "train/sketch_cache.h"
#include "train/sketch_provenance.h"
#include "train/spherical_kmeans.h"
#include "util/error.h"

namespace fs = std::filesystem;

namespace once {

namespace {

std::vector<std::string> parts(const fs::path& p) {
    std::vector<std::string> out;
    for (const auto& c : p) {
        out.push_back(c.string());
    }
    return out;
}

}  // namespace

std::pair<std::string, std::vector<std::string>> commonRoot(const std::vector<std::string>& paths) {
    auto attempt = [&](bool absolute) -> std::pair<std::string, std::vector<std::string>> {
        std::vector<fs::path> normal;
        for (const auto& p : paths) {
            fs::path q(p);
            if (absolute && q.is_relative()) {
                std::error_code ec;
                q = fs::absolute(q, ec);
            }
            normal.push_back(q.lexically_normal());
        }
        std::vector<std::string> common;
        for (std::size_t i = 0; i < normal.size(); ++i) {
            std::vector<std::string> dir = parts(normal[i].parent_path());
            if (i == 0) {
                common = dir;
                continue;
            }
            std::size_t n = 0;
            while (n < common.size() && n < dir.size() && common[n] == dir[n]) {
                ++n;
            }
            common.resize(n);
        }
        fs::path root;
        for (const auto& c : common) {
            root /= c;
        }
        std::vector<std::string> rel;
        for (const auto& q : normal) {
            std::string r =
                root.empty() ? q.generic_string() : q.lexically_relative(root).generic_string();
            if (!isContainedRelativePath(r)) {
                return {};
            }
            rel.push_back(std::move(r));
        }
        return {root.generic_string(), rel};
    };
    bool mixed = false;
    for (const auto& p : paths) {
        mixed = mixed || fs::path(p).is_absolute() != fs::path(paths.front()).is_absolute();
    }
    if (!mixed) {
        auto r = attempt(false);
        if (r.second.size() == paths.size()) {
            return r;
        }
    }
    return attempt(true);  // relative sources climbing out of their common folder, or a mix
}

std::string CodebookExemplarTables::metadataJson() const {
    const nlohmann::json j = {{"format", kCodebookExemplarsFormat},
                              {"per_codeword", perCodeword},
                              {"thumbnail_size", thumbnailSide},
                              {"thumbnail_context", thumbnailContext},
                              {"root", root},
                              {"videos", videos}};
    return j.dump();
}

void CodebookExemplarTables::addTo(std::map<std::string, std::string>& metadata,
                                   std::vector<std::pair<std::string, at::Tensor>>& tensors) const {
    metadata[kCodebookExemplarsKey] = metadataJson();
    tensors.emplace_back(kCorpusUsageTensor, usage);
    if (perCodeword > 0) {
        tensors.emplace_back(kExemplarsTensor, exemplars);
    }
    if (thumbnailSide > 0) {
        tensors.emplace_back(kExemplarThumbnailsTensor, thumbnails);
    }
}

namespace {

// What the selection reads of a cache, loaded or mapped: the representatives a tile at a time
// and the per-row columns whole.
struct SelectionInput {
    std::int64_t rows = 0, dim = 0;
    std::function<at::Tensor(std::int64_t, std::int64_t)> tile;  ///< BF16 rows [b, e)
    at::Tensor weights, video, exemplar;                         ///< exemplar may be undefined
    const std::vector<std::string>* sources = nullptr;
};

CodebookExemplarTables select(const SelectionInput& in, const at::Tensor& codebook,
                              const ExemplarOptions& options, Progress* progress) {
    if (options.perCodeword < 0 || options.perCodeword > kMaxExemplarsPerCodeword) {
        fail("invalid exemplar option", {}, "exemplars",
             "0.." + std::to_string(kMaxExemplarsPerCodeword), std::to_string(options.perCodeword));
    }
    if (options.thumbnailSide < 0 || options.thumbnailSide > kMaxExemplarThumbnailSide) {
        fail("invalid exemplar option", {}, "exemplar-thumbnails",
             "0.." + std::to_string(kMaxExemplarThumbnailSide),
             std::to_string(options.thumbnailSide));
    }
    if (options.tileRows < 1) {
        fail("invalid exemplar option", {}, "tileRows", ">= 1", std::to_string(options.tileRows));
    }
    if (codebook.dim() != 2 || codebook.size(1) != in.dim) {
        fail("the codebook's width differs from the cache's", {}, "codebook",
             "[K, " + std::to_string(in.dim) + "]", shapeString(codebook.sizes()));
    }
    const std::vector<std::string>& sources = *in.sources;
    const std::int64_t k = codebook.size(0), u = in.rows;
    const at::Tensor centroids = normalizeRows(codebook);
    at::Tensor nearest = at::empty({u}, at::kLong), cosine = at::empty({u}, at::kFloat);
    if (progress) {
        progress->begin("codebook exemplars", double(u));
    }
    for (std::int64_t b = 0; b < u; b += options.tileRows) {
        const std::int64_t e = b + std::min(u - b, options.tileRows);
        Nearest nn = nearestCentroids(normalizeRows(in.tile(b, e)), centroids);
        nearest.slice(0, b, e).copy_(nn.ids);
        cosine.slice(0, b, e).copy_(nn.cosines);
        if (progress) {
            progress->update(double(e));
        }
    }
    const std::int64_t numVideos = std::max<std::int64_t>(1, std::int64_t(sources.size()));
    const at::Tensor video = in.video.to(at::kLong);

    CodebookExemplarTables t;
    t.usage = at::zeros({k, 3}, at::kLong);
    t.usage.select(1, 0).index_add_(0, nearest, in.weights.to(at::kLong));
    t.usage.select(1, 1).index_add_(0, nearest, at::ones({u}, at::kLong));
    if (u > 0) {  // distinct (codeword, video) pairs
        const at::Tensor pairs = std::get<0>(at::_unique(nearest * numVideos + video, false));
        t.usage.select(1, 2).index_add_(0, at::floor_divide(pairs, numVideos),
                                        at::ones({pairs.size(0)}, at::kLong));
    }
    const auto [root, relative] = commonRoot(sources);
    t.root = root;
    const bool provenance = in.exemplar.defined() && in.exemplar.size(0) == u;
    t.perCodeword = provenance ? options.perCodeword : 0;
    if (t.perCodeword == 0) {
        return t;
    }
    // Representatives by (codeword, cosine descending, row): each codeword's candidates in
    // order of typicality.
    const std::int64_t* near = nearest.data_ptr<std::int64_t>();
    const float* cos = cosine.data_ptr<float>();
    const at::Tensor videoC = video.contiguous();
    const std::int64_t* vid = videoC.data_ptr<std::int64_t>();
    std::vector<std::int64_t> order(static_cast<std::size_t>(u));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
        if (near[a] != near[b]) {
            return near[a] < near[b];
        }
        if (cos[a] != cos[b]) {
            return cos[a] > cos[b];
        }
        return a < b;
    });
    const int e = t.perCodeword;
    std::vector<std::int64_t> chosen(static_cast<std::size_t>(k * e), -1);
    std::size_t at = 0;
    while (at < order.size()) {
        const std::int64_t code = near[order[at]];
        std::size_t end = at;
        while (end < order.size() && near[order[end]] == code) {
            ++end;
        }
        std::vector<std::int64_t> picked, seenVideos;
        for (std::size_t i = at; i < end && std::int64_t(picked.size()) < e; ++i) {
            const std::int64_t r = order[i];
            if (std::find(seenVideos.begin(), seenVideos.end(), vid[r]) == seenVideos.end()) {
                seenVideos.push_back(vid[r]);
                picked.push_back(r);
            }
        }
        for (std::size_t i = at; i < end && std::int64_t(picked.size()) < e; ++i) {
            if (std::find(picked.begin(), picked.end(), order[i]) == picked.end()) {
                picked.push_back(order[i]);
            }
        }
        std::copy(picked.begin(), picked.end(), chosen.begin() + std::ptrdiff_t(code * e));
        at = end;
    }

    // The videos the exemplars come from, in corpus order.
    std::vector<std::int64_t> listIndex(sources.size(), -1);
    for (std::int64_t r : chosen) {
        if (r >= 0) {
            listIndex[std::size_t(vid[r])] = 0;
        }
    }
    for (std::size_t v = 0; v < listIndex.size(); ++v) {
        if (listIndex[v] >= 0) {
            listIndex[v] = std::int64_t(t.videos.size());
            t.videos.push_back(relative[v]);
            t.videoSources.push_back(sources[v]);
        }
    }
    t.exemplars = at::full({k, e, kCodebookExemplarColumns}, -1, at::kInt);
    const at::Tensor ex = in.exemplar.contiguous();
    const std::int32_t* src = ex.data_ptr<std::int32_t>();
    std::int32_t* dst = t.exemplars.data_ptr<std::int32_t>();
    for (std::size_t s = 0; s < chosen.size(); ++s) {
        const std::int64_t r = chosen[s];
        if (r < 0) {
            continue;
        }
        const std::int32_t* c = src + r * kExemplarColumns;
        std::int32_t* o = dst + std::int64_t(s) * kCodebookExemplarColumns;
        o[kCbExemplarVideo] = std::int32_t(listIndex[std::size_t(vid[r])]);
        o[kCbExemplarFrame] = c[kExemplarFrame];
        o[kCbExemplarSourceFrame] = c[kExemplarSourceFrame];
        o[kCbExemplarTimeMs] = c[kExemplarTimeMs];
        o[kCbExemplarRow] = c[kExemplarRow];
        o[kCbExemplarCol] = c[kExemplarCol];
        o[kCbExemplarGridRows] = c[kExemplarGridRows];
        o[kCbExemplarGridCols] = c[kExemplarGridCols];
        o[kCbExemplarThumbnail] = 0;
    }
    if (options.thumbnailSide > 0) {
        cutExemplarThumbnails(t, options.thumbnailSide, options.limits, progress);
    }
    return t;
}

}  // namespace

CodebookExemplarTables selectCodebookExemplars(const SketchCache& cache, const at::Tensor& codebook,
                                               const ExemplarOptions& options, Progress* progress) {
    SelectionInput in;
    in.rows = cache.reps.size(0);
    in.dim = cache.reps.size(1);
    in.tile = [&cache](std::int64_t b, std::int64_t e) { return cache.reps.slice(0, b, e); };
    in.weights = cache.weights;
    in.video = cache.video;
    in.exemplar = cache.exemplar;
    in.sources = &cache.sources;
    return select(in, codebook, options, progress);
}

CodebookExemplarTables selectCodebookExemplars(const CacheReader& cache, const at::Tensor& codebook,
                                               const ExemplarOptions& options, Progress* progress) {
    SelectionInput in;
    in.rows = cache.rows();
    in.dim = cache.dim();
    in.tile = [&cache](std::int64_t b, std::int64_t e) { return cache.slice(b, e); };
    in.weights = cache.weights();
    in.video = cache.video();
    in.exemplar = cache.exemplar();
    in.sources = &cache.manifest().sources;
    return select(in, codebook, options, progress);
}

void cutExemplarThumbnails(CodebookExemplarTables& t, int side, const VideoLimits& limits,
                           Progress* progress, int context) {
    if (side < 1 || side > kMaxExemplarThumbnailSide || t.perCodeword == 0) {
        return;
    }
    t.thumbnailContext = std::clamp(context, 0, int(kMaxExemplarThumbnailContext));
    const std::int64_t k = t.exemplars.size(0), e = t.perCodeword;
    t.thumbnailSide = side;
    t.thumbnails = at::zeros({k, e, side, side, 3}, at::kByte);
    t.thumbnailsMissing = 0;
    std::vector<std::vector<std::int64_t>> slotsOf(t.videos.size());
    std::int32_t* ex = t.exemplars.data_ptr<std::int32_t>();
    for (std::int64_t s = 0; s < k * e; ++s) {
        const std::int32_t v = ex[s * kCodebookExemplarColumns + kCbExemplarVideo];
        if (v >= 0) {
            slotsOf[std::size_t(v)].push_back(s);
        }
    }
    if (progress) {
        progress->begin("exemplar thumbnails", double(t.videos.size()));
    }
    at::Tensor flat = t.thumbnails.view({k * e, side, side, 3});
    for (std::size_t v = 0; v < t.videos.size(); ++v) {
        std::vector<ExemplarLocation> where;
        for (std::int64_t s : slotsOf[v]) {
            const std::int32_t* c = ex + s * kCodebookExemplarColumns;
            where.push_back({c[kCbExemplarSourceFrame], c[kCbExemplarTimeMs], c[kCbExemplarRow],
                             c[kCbExemplarCol], c[kCbExemplarGridRows], c[kCbExemplarGridCols]});
        }
        std::vector<bool> found(where.size(), false);
        try {
            const std::string pixels = exemplarPixelSource(t.videoSources[v]);
            if (!pixels.empty()) {
                const at::Tensor cut =
                    cutExemplarPatches(pixels, where, side, found, limits, t.thumbnailContext);
                for (std::size_t i = 0; i < where.size(); ++i) {
                    if (found[i]) {
                        flat[slotsOf[v][i]].copy_(cut[std::int64_t(i)]);
                    }
                }
            }
        } catch (const OnceError&) {
            found.assign(where.size(), false);  // unreadable: its exemplars stay without pixels
        }
        for (std::size_t i = 0; i < where.size(); ++i) {
            ex[slotsOf[v][i] * kCodebookExemplarColumns + kCbExemplarThumbnail] = found[i] ? 1 : 0;
            t.thumbnailsMissing += found[i] ? 0 : 1;
        }
        if (progress) {
            progress->update(double(v + 1));
        }
    }
}

}  // namespace once
