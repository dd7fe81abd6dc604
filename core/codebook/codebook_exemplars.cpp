#include "codebook/codebook_exemplars.h"

#include <cstring>
#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/json_file.h"

namespace once {

namespace {

const TensorEntry* findTensor(const SafetensorsHeader& h, const char* name) {
    for (const TensorEntry& e : h.tensors) {
        if (e.name == name) {
            return &e;
        }
    }
    return nullptr;
}

std::string shapeText(const TensorEntry& e) {
    std::string s = std::string(dtypeName(e.dtype)) + " [";
    for (std::size_t i = 0; i < e.shape.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(e.shape[i]);
    }
    return s + "]";
}

void requireShape(const TensorEntry& e, DType dtype, const std::vector<std::int64_t>& shape,
                  const std::string& path) {
    if (e.dtype != dtype || e.shape != shape) {
        TensorEntry want;
        want.dtype = dtype;
        want.shape = shape;
        fail("a codebook exemplar tensor has the wrong type or shape", path, e.name,
             shapeText(want), shapeText(e));
    }
}

// Little-endian integers of a tensor's bytes (the file is little-endian, as is every host this
// builds for); read with memcpy, so no alignment is assumed.
template <typename T>
T readAt(std::span<const std::uint8_t> image, std::uint64_t offset) {
    T v;
    std::memcpy(&v, image.data() + offset, sizeof v);
    return v;
}

}  // namespace

int CodebookExemplars::exemplarCount(std::int64_t codeword) const {
    int n = 0;
    while (n < perCodeword && !exemplar(codeword, n).empty()) {
        ++n;
    }
    return n;
}

std::span<const std::uint8_t> CodebookExemplars::thumbnail(std::span<const std::uint8_t> image,
                                                           std::int64_t codeword, int j) const {
    if (thumbnailBytes == 0 || codeword < 0 || codeword >= codewords || j < 0 || j >= perCodeword ||
        !exemplar(codeword, j).hasThumbnail) {
        return {};
    }
    const std::uint64_t one = std::uint64_t(thumbnailSide) * std::uint64_t(thumbnailSide) * 3;
    const std::uint64_t at =
        thumbnailOffset +
        (std::uint64_t(codeword) * std::uint64_t(perCodeword) + std::uint64_t(j)) * one;
    if (at + one > image.size()) {
        return {};
    }
    return image.subspan(std::size_t(at), std::size_t(one));
}

bool isContainedRelativePath(const std::string& relative) {
    if (relative.empty() || relative.front() == '/' || relative.find('\0') != std::string::npos) {
        return false;
    }
    std::size_t pos = 0;
    while (pos <= relative.size()) {
        const std::size_t end = std::min(relative.find('/', pos), relative.size());
        const std::string_view part(relative.data() + pos, end - pos);
        if (part.empty() || part == "." || part == "..") {
            return false;
        }
        pos = end + 1;
    }
    return true;
}

std::optional<CodebookExemplars> parseCodebookExemplars(const SafetensorsHeader& h,
                                                        std::span<const std::uint8_t> image,
                                                        std::int64_t codewords,
                                                        const std::string& path) {
    const auto metaIt = h.metadata.find(kCodebookExemplarsKey);
    const TensorEntry* usage = findTensor(h, kCorpusUsageTensor);
    const TensorEntry* slots = findTensor(h, kExemplarsTensor);
    const TensorEntry* thumbs = findTensor(h, kExemplarThumbnailsTensor);
    if (metaIt == h.metadata.end()) {
        if (usage || slots || thumbs) {
            fail("the codebook has exemplar tensors but no exemplar metadata", path,
                 std::string("__metadata__.") + kCodebookExemplarsKey,
                 "present beside the tensor " + (usage   ? usage
                                                 : slots ? slots
                                                         : thumbs)
                                                    ->name,
                 "missing");
        }
        return std::nullopt;
    }
    if (codewords < 1) {
        fail("exemplars of an empty codebook", path, "codebook", "K >= 1",
             std::to_string(codewords));
    }
    const std::string field = std::string("__metadata__.") + kCodebookExemplarsKey;
    const std::string& text = metaIt->second;
    if (text.size() > kMaxExemplarMetadataBytes) {
        fail("the codebook's exemplar metadata is too large", path, field,
             "at most " + std::to_string(kMaxExemplarMetadataBytes) + " bytes",
             std::to_string(text.size()) + " bytes");
    }
    const nlohmann::json j = parseJsonText(text, path, field);
    if (!j.is_object()) {
        fail("wrong JSON type", path, field, "an object", jsonTypeName(j));
    }
    const std::string format =
        jsonToString(jsonRequire(j, "format", path, field), path, field + ".format");
    if (format != kCodebookExemplarsFormat) {
        fail("unknown codebook exemplar format", path, field + ".format", kCodebookExemplarsFormat,
             printableExcerpt(format));
    }
    CodebookExemplars out;
    out.codewords = codewords;
    out.perCodeword = int(jsonToInt(jsonRequire(j, "per_codeword", path, field), path,
                                    field + ".per_codeword", 0, kMaxExemplarsPerCodeword));
    out.thumbnailSide = int(jsonToInt(jsonRequire(j, "thumbnail_size", path, field), path,
                                      field + ".thumbnail_size", 0, kMaxExemplarThumbnailSide));
    if (const nlohmann::json* c = jsonFind(j, "thumbnail_context", path, field)) {
        out.thumbnailContext =
            int(jsonToInt(*c, path, field + ".thumbnail_context", 0, kMaxExemplarThumbnailContext));
    }
    out.root = jsonStringOr(j, "root", "", path, field);
    if (out.root.find('\0') != std::string::npos) {
        fail("the exemplar root holds a NUL byte", path, field + ".root", "a folder path",
             printableExcerpt(out.root));
    }
    const nlohmann::json& videos = jsonRequire(j, "videos", path, field);
    if (!videos.is_array()) {
        fail("wrong JSON type", path, field + ".videos", "an array", jsonTypeName(videos));
    }
    if (std::int64_t(videos.size()) > kMaxExemplarVideos) {
        fail("the codebook lists too many exemplar videos", path, field + ".videos",
             "at most " + std::to_string(kMaxExemplarVideos), std::to_string(videos.size()));
    }
    for (std::size_t i = 0; i < videos.size(); ++i) {
        const std::string name = field + ".videos[" + std::to_string(i) + "]";
        std::string v = jsonToString(videos[i], path, name);
        if (!isContainedRelativePath(v)) {
            fail("an exemplar video path leaves the corpus folder", path, name,
                 "a relative path without '..', '.' or empty parts", printableExcerpt(v));
        }
        out.videos.push_back(std::move(v));
    }
    if (out.perCodeword == 0 && out.thumbnailSide != 0) {
        fail("thumbnails without exemplars", path, field + ".thumbnail_size", "0 (per_codeword 0)",
             std::to_string(out.thumbnailSide));
    }

    // Usage: I64 [K, 3], videos <= representatives <= tokens.
    if (!usage) {
        fail("the codebook's exemplar section lacks its usage tensor", path, kCorpusUsageTensor,
             "I64 [" + std::to_string(codewords) + ", 3]", "missing");
    }
    requireShape(*usage, DType::I64, {codewords, 3}, path);
    out.usage.resize(std::size_t(codewords));
    const std::uint64_t usageAt = h.dataOffset + usage->begin;
    for (std::int64_t k = 0; k < codewords; ++k) {
        CodewordUsage& u = out.usage[std::size_t(k)];
        u.tokens = readAt<std::int64_t>(image, usageAt + std::uint64_t(k) * 24);
        u.reps = readAt<std::int64_t>(image, usageAt + std::uint64_t(k) * 24 + 8);
        u.videos = readAt<std::int64_t>(image, usageAt + std::uint64_t(k) * 24 + 16);
        if (u.videos < 0 || u.reps < u.videos || u.tokens < u.reps) {
            fail("a codeword's corpus usage is impossible", path,
                 std::string(kCorpusUsageTensor) + "[" + std::to_string(k) + "]",
                 "0 <= videos <= representatives <= tokens",
                 std::to_string(u.tokens) + " tokens, " + std::to_string(u.reps) +
                     " representatives, " + std::to_string(u.videos) + " videos");
        }
    }

    // Exemplar slots.
    if (out.perCodeword == 0) {
        if (slots || thumbs) {
            fail("exemplar tensors in a codebook that records none", path,
                 (slots ? slots : thumbs)->name, "absent (per_codeword 0)", "present");
        }
        return out;
    }
    if (!slots) {
        fail("the codebook's exemplar section lacks its exemplars", path, kExemplarsTensor,
             "I32 [" + std::to_string(codewords) + ", " + std::to_string(out.perCodeword) + ", " +
                 std::to_string(kCodebookExemplarColumns) + "]",
             "missing");
    }
    requireShape(*slots, DType::I32, {codewords, out.perCodeword, kCodebookExemplarColumns}, path);
    if (out.thumbnailSide > 0) {
        if (!thumbs) {
            fail("the codebook's exemplar section lacks its thumbnails", path,
                 kExemplarThumbnailsTensor, "U8 thumbnails (thumbnail_size > 0)", "missing");
        }
        requireShape(*thumbs, DType::U8,
                     {codewords, out.perCodeword, out.thumbnailSide, out.thumbnailSide, 3}, path);
        out.thumbnailOffset = h.dataOffset + thumbs->begin;
        out.thumbnailBytes = thumbs->end - thumbs->begin;
    } else if (thumbs) {
        fail("thumbnails in a codebook that records none", path, kExemplarThumbnailsTensor,
             "absent (thumbnail_size 0)", "present");
    }
    const std::uint64_t slotsAt = h.dataOffset + slots->begin;
    const std::int64_t nv = std::int64_t(out.videos.size());
    out.entries.resize(std::size_t(codewords * out.perCodeword));
    for (std::int64_t k = 0; k < codewords; ++k) {
        bool emptySeen = false;
        for (int e = 0; e < out.perCodeword; ++e) {
            const std::size_t s = std::size_t(k * out.perCodeword + e);
            std::int32_t c[kCodebookExemplarColumns];
            for (int col = 0; col < kCodebookExemplarColumns; ++col) {
                c[col] = readAt<std::int32_t>(
                    image,
                    slotsAt +
                        (std::uint64_t(s) * kCodebookExemplarColumns + std::uint64_t(col)) * 4);
            }
            const std::string name = std::string(kExemplarsTensor) + "[" + std::to_string(k) +
                                     "][" + std::to_string(e) + "]";
            auto bad = [&](const std::string& what, const std::string& expected, std::int64_t v) {
                fail("a codeword's exemplar is out of range", path, name + "." + what, expected,
                     std::to_string(v));
            };
            if (c[kCbExemplarVideo] == -1) {
                emptySeen = true;
                continue;  // the other columns of an empty slot are not read
            }
            if (emptySeen) {
                bad("video", "-1 (an empty slot came before)", c[kCbExemplarVideo]);
            }
            if (c[kCbExemplarVideo] < 0 || c[kCbExemplarVideo] >= nv) {
                bad("video", "-1.." + std::to_string(nv - 1), c[kCbExemplarVideo]);
            }
            if (c[kCbExemplarGridRows] < 1 || c[kCbExemplarGridRows] > kMaxCodebookExemplarGrid) {
                bad("grid_rows", "1.." + std::to_string(kMaxCodebookExemplarGrid),
                    c[kCbExemplarGridRows]);
            }
            if (c[kCbExemplarGridCols] < 1 || c[kCbExemplarGridCols] > kMaxCodebookExemplarGrid) {
                bad("grid_cols", "1.." + std::to_string(kMaxCodebookExemplarGrid),
                    c[kCbExemplarGridCols]);
            }
            if (c[kCbExemplarRow] < 0 || c[kCbExemplarRow] >= c[kCbExemplarGridRows]) {
                bad("row", "0.." + std::to_string(c[kCbExemplarGridRows] - 1), c[kCbExemplarRow]);
            }
            if (c[kCbExemplarCol] < 0 || c[kCbExemplarCol] >= c[kCbExemplarGridCols]) {
                bad("col", "0.." + std::to_string(c[kCbExemplarGridCols] - 1), c[kCbExemplarCol]);
            }
            if (c[kCbExemplarFrame] < 0) {
                bad("frame", ">= 0", c[kCbExemplarFrame]);
            }
            if (c[kCbExemplarSourceFrame] < -1) {
                bad("source_frame", ">= -1", c[kCbExemplarSourceFrame]);
            }
            if (c[kCbExemplarTimeMs] < -1) {
                bad("time_ms", ">= -1", c[kCbExemplarTimeMs]);
            }
            if (c[kCbExemplarThumbnail] != 0 &&
                (c[kCbExemplarThumbnail] != 1 || out.thumbnailSide == 0)) {
                bad("thumbnail", out.thumbnailSide ? "0 or 1" : "0 (no thumbnails)",
                    c[kCbExemplarThumbnail]);
            }
            if (e + 1 > out.usage[std::size_t(k)].reps) {
                bad("video",
                    "-1 (codeword " + std::to_string(k) + " has only " +
                        std::to_string(out.usage[std::size_t(k)].reps) + " representatives)",
                    c[kCbExemplarVideo]);
            }
            CodewordExemplar& x = out.entries[s];
            x.video = c[kCbExemplarVideo];
            x.frame = c[kCbExemplarFrame];
            x.sourceFrame = c[kCbExemplarSourceFrame];
            x.timeMs = c[kCbExemplarTimeMs];
            x.row = c[kCbExemplarRow];
            x.col = c[kCbExemplarCol];
            x.gridRows = c[kCbExemplarGridRows];
            x.gridCols = c[kCbExemplarGridCols];
            x.hasThumbnail = c[kCbExemplarThumbnail] == 1;
        }
    }
    return out;
}

}  // namespace once
