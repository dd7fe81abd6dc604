#include "train/stage_a_manifest.h"

#include <cstdio>
#include <set>

#include "cluster/shard.h"
#include "util/error.h"
#include "util/json_file.h"

namespace once {

namespace {

std::string at(const std::string& array, std::size_t i) {
    return array + "[" + std::to_string(i) + "]";
}

std::int64_t countField(const nlohmann::json& obj, const std::string& key, const std::string& file,
                        const std::string& field, std::int64_t min = 0,
                        std::int64_t max = kMaxStageACount) {
    return jsonToInt(jsonRequire(obj, key, file, field), file, field + "." + key, min, max);
}

std::string stringField(const nlohmann::json& obj, const std::string& key, const std::string& file,
                        const std::string& field) {
    return jsonToString(jsonRequire(obj, key, file, field), file, field + "." + key);
}

const nlohmann::json& arrayField(const nlohmann::json& obj, const std::string& key,
                                 const std::string& file, const std::string& field) {
    const nlohmann::json& v = jsonRequire(obj, key, file, field);
    if (!v.is_array()) {
        fail("wrong JSON type", file, field.empty() ? key : field + "." + key, "an array",
             jsonTypeName(v));
    }
    return v;
}

// Digits of `name` between `prefix` and `suffix`, exactly `digits` of them, or -1.
std::int64_t numberedName(std::string_view name, std::string_view prefix, std::string_view suffix,
                          std::size_t digits) {
    if (name.size() != prefix.size() + digits + suffix.size() ||
        name.substr(0, prefix.size()) != prefix || name.substr(prefix.size() + digits) != suffix) {
        return -1;
    }
    std::int64_t n = 0;
    for (char c : name.substr(prefix.size(), digits)) {
        if (c < '0' || c > '9') {
            return -1;
        }
        n = n * 10 + (c - '0');
    }
    return n;
}

void validateRequest(StageAManifest& m, const std::string& file) {
    const nlohmann::json& r = m.request;
    if (!r.is_object()) {
        fail("wrong JSON type", file, "request", "an object", jsonTypeName(r));
    }
    m.bins = countField(r, "bins", file, "request", 1, kMaxSketchBins);
    const double rr = jsonToNumber(jsonRequire(r, "R", file, "request"), file, "request.R");
    if (!(rr > 0)) {
        fail("invalid Stage-A option in the cache manifest", file, "request.R", "> 0",
             std::to_string(rr));
    }
    m.mMin = countField(r, "m_min", file, "request", 1);
    m.mMaxRequested = countField(r, "m_max_requested", file, "request", m.mMin);
    countField(r, "cap", file, "request", 0);
    countField(r, "iterations", file, "request", 0, 1'000'000);
    const nlohmann::json& seed = jsonRequire(r, "seed", file, "request");
    if (!seed.is_number_unsigned() &&
        !(seed.is_number_integer() && seed.get<std::int64_t>() >= 0)) {
        fail("wrong JSON type", file, "request.seed", "an unsigned integer", seed.dump());
    }
    m.shardRows = countField(r, "shard_rows", file, "request", 1);
    if (const nlohmann::json* shard = jsonFind(r, "shard", file, "request")) {
        if (!shard->is_object()) {
            fail("wrong JSON type", file, "request.shard", "an object", jsonTypeName(*shard));
        }
        m.shardCount = countField(*shard, "count", file, "request.shard", 2, kMaxShardCount);
        m.shardIndex = countField(*shard, "index", file, "request.shard", 0, m.shardCount - 1);
    }
    stringField(r, "backbone", file, "request");
    const nlohmann::json& corpus = arrayField(r, "corpus", file, "request");
    if (corpus.empty()) {
        fail("the cache manifest lists no corpus video", file, "request.corpus", ">= 1 entry", "0");
    }
    for (std::size_t i = 0; i < corpus.size(); ++i) {
        const std::string field = at("request.corpus", i);
        std::string source = stringField(corpus[i], "source", file, field);
        if (source.empty() || source.find('\0') != std::string::npos) {
            fail("invalid corpus path in the cache manifest", file, field + ".source",
                 "a non-empty path without NUL bytes", printableExcerpt(source));
        }
        m.sources.push_back(std::move(source));
        m.sourceCategories.push_back(stringField(corpus[i], "category", file, field));
    }
}

}  // namespace

std::string stageAShardName(std::size_t index) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "shard-%05zu.safetensors", index);
    return buf;
}

std::string stageAPendingName(std::size_t video) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "pending-%08zu.safetensors", video);
    return buf;
}

std::int64_t stageAShardIndex(std::string_view name) {
    return numberedName(name, "shard-", ".safetensors", 5);
}

std::int64_t stageAPendingIndex(std::string_view name) {
    return numberedName(name, "pending-", ".safetensors", 8);
}

int StageAManifest::categoryIndexOf(std::size_t video) const {
    const std::string& c = sourceCategories.at(video);
    for (std::size_t i = 0; i < categories.size(); ++i) {
        if (categories[i] == c) {
            return int(i);
        }
    }
    return -1;
}

std::int64_t StageAManifest::committedRows() const {
    std::int64_t n = 0;
    for (const auto& s : shards) {
        n += s.rows;
    }
    return n;
}

nlohmann::json StageAManifest::toJson() const {
    nlohmann::json vs = nlohmann::json::array();
    for (const auto& v : videos) {
        switch (v.status) {
            case StageAVideoRecord::Status::Pending:
                vs.push_back({{"status", "pending"}});
                break;
            case StageAVideoRecord::Status::Done:
                vs.push_back({{"status", "done"},
                              {"tokens", v.tokens},
                              {"reps", v.reps},
                              {"shard", v.shard},
                              {"row_begin", v.rowBegin},
                              {"row_end", v.rowEnd}});
                break;
            case StageAVideoRecord::Status::Failed:
                vs.push_back({{"status", "failed"}, {"error", v.error}});
                break;
            case StageAVideoRecord::Status::OtherShard:
                vs.push_back({{"status", "other_shard"}});
                break;
        }
    }
    nlohmann::json ss = nlohmann::json::array();
    for (const auto& s : shards) {
        ss.push_back({{"file", s.file}, {"rows", s.rows}});
    }
    nlohmann::json j = {{"format", kStageACacheFormat},
                        {"request", request},
                        {"m_max", mMax},
                        {"categories", categories},
                        {"backbone", backbone},
                        {"feature_source", featureSource},
                        {"dim", dim},
                        {"videos", vs},
                        {"shards", ss},
                        {"complete", complete}};
    if (provenance) {  // absent otherwise: a cache without it keeps the bytes it always had
        j["provenance"] = kStageAProvenanceFormat;
    }
    return j;
}

StageAManifest parseStageAManifest(std::string_view bytes, const std::string& file) {
    if (bytes.size() > kMaxStageAManifestBytes) {
        fail("the Stage-A cache manifest is too large", file, {},
             "at most " + std::to_string(kMaxStageAManifestBytes) + " bytes",
             std::to_string(bytes.size()) + " bytes");
    }
    JsonLimits limits;
    limits.maxBytes = kMaxStageAManifestBytes;
    const nlohmann::json j = parseJsonText(bytes, file, {}, limits);
    if (!j.is_object()) {
        fail("not a Stage-A cache manifest", file, "(top level)", "a JSON object", jsonTypeName(j));
    }
    const nlohmann::json* format = jsonFind(j, "format", file, {});
    const std::string fmt = format && format->is_string() ? format->get<std::string>() : "";
    if (fmt != kStageACacheFormat) {
        fail("not a Stage-A cache manifest", file, "format", kStageACacheFormat,
             format ? printableExcerpt(format->dump()) : "missing");
    }
    StageAManifest m;
    m.request = jsonRequire(j, "request", file, {});
    validateRequest(m, file);
    const std::size_t corpusSize = m.sources.size();

    m.mMax = countField(j, "m_max", file, {}, m.mMin, m.mMaxRequested);
    const nlohmann::json& cats = arrayField(j, "categories", file, {});
    std::set<std::string> seen;
    for (std::size_t i = 0; i < cats.size(); ++i) {
        std::string c = jsonToString(cats[i], file, at("categories", i));
        if (c.empty() || !seen.insert(c).second) {
            fail("category names must be distinct and non-empty", file, at("categories", i),
                 "a new name", c.empty() ? "an empty name" : printableExcerpt(c));
        }
        m.categories.push_back(std::move(c));
    }
    for (std::size_t v = 0; v < corpusSize; ++v) {
        if (!m.sourceCategories[v].empty() && m.categoryIndexOf(v) < 0) {
            fail("a corpus category is missing from the category list", file,
                 at("request.corpus", v) + ".category", "one of \"categories\"",
                 printableExcerpt(m.sourceCategories[v]));
        }
    }
    m.backbone = stringField(j, "backbone", file, {});
    m.featureSource = jsonStringOr(j, "feature_source", "", file, {});
    m.dim = countField(j, "dim", file, {}, 0, kMaxStageADim);
    m.complete = jsonToBool(jsonRequire(j, "complete", file, {}), file, "complete");
    if (const nlohmann::json* p = jsonFind(j, "provenance", file, {})) {
        if (!p->is_string() || p->get<std::string>() != kStageAProvenanceFormat) {
            fail("unknown provenance format in the cache manifest", file, "provenance",
                 kStageAProvenanceFormat, printableExcerpt(p->dump()));
        }
        m.provenance = true;
    }

    // Shards: exactly the names the tool writes, in order, each with at least one row.
    const nlohmann::json& shards = arrayField(j, "shards", file, {});
    std::vector<std::int64_t> shardBegin;
    std::int64_t total = 0;
    for (std::size_t i = 0; i < shards.size(); ++i) {
        const std::string field = at("shards", i);
        StageAShardRecord s;
        s.file = stringField(shards[i], "file", file, field);
        if (s.file != stageAShardName(i)) {
            fail("a shard name in the cache manifest is not the one this tool writes", file,
                 field + ".file", stageAShardName(i), printableExcerpt(s.file));
        }
        s.rows = countField(shards[i], "rows", file, field, 1);
        shardBegin.push_back(total);
        total += s.rows;  // ≤ 2^40 each, and fewer than 2^23 shards fit in the size limit
        if (total > kMaxStageACount) {
            fail("the cache's shards hold too many rows", file, field + ".rows",
                 "at most " + std::to_string(kMaxStageACount) + " in all", "more");
        }
        m.shards.push_back(std::move(s));
    }
    shardBegin.push_back(total);

    // Videos: one per corpus entry; finished ones (done or failed) first, in corpus order, each
    // done video's rows right after the previous one's and inside the shard it names.
    const nlohmann::json& videos = arrayField(j, "videos", file, {});
    if (videos.size() != corpusSize) {
        fail("the cache manifest's video list does not match its corpus", file, "videos",
             std::to_string(corpusSize) + " entries (request.corpus)",
             std::to_string(videos.size()));
    }
    std::int64_t row = 0, tokens = 0;
    bool pendingSeen = false;
    for (std::size_t i = 0; i < videos.size(); ++i) {
        const std::string field = at("videos", i);
        const std::string status = stringField(videos[i], "status", file, field);
        StageAVideoRecord v;
        const bool owned = std::int64_t(i) % m.shardCount == m.shardIndex;
        if ((status == "other_shard") != !owned) {
            fail("a video's shard status does not match the cache's shard", file, field + ".status",
                 owned ? "pending, done or failed (the video is in shard " +
                             std::to_string(m.shardIndex) + "/" + std::to_string(m.shardCount) + ")"
                       : "other_shard (video " + std::to_string(i) + " is in shard " +
                             std::to_string(std::int64_t(i) % m.shardCount) + ")",
                 printableExcerpt(status));
        }
        if (status == "other_shard") {
            v.status = StageAVideoRecord::Status::OtherShard;
            m.videos.push_back(std::move(v));
            continue;
        }
        if (status == "pending") {
            pendingSeen = true;
            m.videos.push_back(std::move(v));
            continue;
        }
        if (pendingSeen) {
            fail("a finished video follows a pending one in the cache manifest", file,
                 field + ".status", "pending (videos are sketched in corpus order)", status);
        }
        if (status == "failed") {
            v.status = StageAVideoRecord::Status::Failed;
            v.error = jsonStringOr(videos[i], "error", "", file, field);
        } else if (status == "done") {
            v.status = StageAVideoRecord::Status::Done;
            v.tokens = countField(videos[i], "tokens", file, field);
            tokens += v.tokens;  // summed by the callers: keep the sum far from overflow
            if (tokens > kMaxStageACount) {
                fail("the cache's videos hold too many tokens", file, field + ".tokens",
                     "at most " + std::to_string(kMaxStageACount) + " in all", "more");
            }
            v.reps = countField(videos[i], "reps", file, field, 0, std::min(v.tokens, m.mMax));
            v.shard = stringField(videos[i], "shard", file, field);
            v.rowBegin = countField(videos[i], "row_begin", file, field);
            v.rowEnd = countField(videos[i], "row_end", file, field);
            if (v.rowBegin != row) {
                fail("a video's rows do not follow the previous video's", file,
                     field + ".row_begin", std::to_string(row), std::to_string(v.rowBegin));
            }
            if (v.rowEnd != v.rowBegin + v.reps) {
                fail("a video's row range does not match its representative count", file,
                     field + ".row_end", std::to_string(v.rowBegin + v.reps),
                     std::to_string(v.rowEnd));
            }
            const std::int64_t s = stageAShardIndex(v.shard);
            // A video without representatives names the shard its batch would have gone to.
            const bool inShard =
                s >= 0 && (v.reps == 0 ? std::size_t(s) <= m.shards.size()
                                       : std::size_t(s) < m.shards.size() &&
                                             v.rowBegin >= shardBegin[std::size_t(s)] &&
                                             v.rowEnd <= shardBegin[std::size_t(s) + 1]);
            if (!inShard) {
                fail("a video's rows are not in the shard it names", file, field + ".shard",
                     "the shard holding rows " + std::to_string(v.rowBegin) + ".." +
                         std::to_string(v.rowEnd),
                     printableExcerpt(v.shard));
            }
            row = v.rowEnd;
        } else {
            fail("unknown video status in the cache manifest", file, field + ".status",
                 "pending, done, failed or other_shard", printableExcerpt(status));
        }
        m.videos.push_back(std::move(v));
    }
    if (row != total) {
        fail("the shards hold other rows than the videos the manifest lists", file, "shards",
             std::to_string(row) + " rows (sum of the done videos' reps)",
             std::to_string(total) + " rows");
    }
    if (total > 0 && m.dim == 0) {
        fail("the cache holds rows but no feature width", file, "dim", ">= 1", "0");
    }
    if (m.complete && pendingSeen) {
        fail("the cache manifest says complete but lists pending videos", file, "complete",
             "false while a video is pending", "true");
    }
    return m;
}

}  // namespace once
