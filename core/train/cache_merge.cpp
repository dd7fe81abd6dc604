#include "train/cache_merge.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "train/cache_reader.h"
#include "train/stage_a_manifest.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/json_file.h"

namespace fs = std::filesystem;

namespace once {

namespace {

std::string shardText(const StageAManifest& m) {
    return std::to_string(m.shardIndex) + "/" + std::to_string(m.shardCount);
}

nlohmann::json withoutShard(nlohmann::json request) {
    request.erase("shard");
    return request;
}

// The first option (or corpus entry) in which `found` differs from `expected`, or "".
std::string firstDifference(const nlohmann::json& expected, const nlohmann::json& found) {
    for (auto& [key, value] : expected.items()) {
        const nlohmann::json other = found.contains(key) ? found[key] : nullptr;
        if (other == value) {
            continue;
        }
        if (key == "corpus" && other.is_array() && value.is_array()) {
            for (std::size_t i = 0; i < std::max(value.size(), other.size()); ++i) {
                if (i >= value.size() || i >= other.size() || value[i] != other[i]) {
                    return "corpus[" + std::to_string(i) + "]";
                }
            }
        }
        return key;
    }
    for (auto& [key, value] : found.items()) {
        if (!expected.contains(key)) {
            return key;
        }
    }
    return {};
}

std::string excerptAt(const nlohmann::json& j, const std::string& field) {
    if (field.rfind("corpus[", 0) == 0) {
        const std::size_t i = std::stoul(field.substr(7));
        const nlohmann::json& c = j.contains("corpus") ? j["corpus"] : nlohmann::json();
        return c.is_array() && i < c.size() ? printableExcerpt(c[i].dump(), 200) : "nothing";
    }
    return j.contains(field) ? printableExcerpt(j[field].dump(), 200) : "nothing";
}

// Output shards cut exactly as buildSketchCache cuts them (train/sketch_cache.cpp `flush`).
struct Writer {
    fs::path dir;
    StageAManifest m;
    std::int64_t shardRows = 0;
    std::vector<at::Tensor> reps, weights, category, video, bin, exemplar;
    std::vector<std::size_t> videos;  // corpus indices buffered (done or failed)
    std::int64_t rows = 0;

    void flush() {
        if (videos.empty()) {
            return;
        }
        const std::size_t shard = m.shards.size();
        std::int64_t row = m.committedRows();
        if (rows > 0) {
            SafetensorsWriter w;
            addFiniteTensor(w, "reps", at::cat(reps).to(at::kBFloat16),
                            (dir / stageAShardName(shard)).string());
            addTensor(w, "weights", at::cat(weights));
            addTensor(w, "category", at::cat(category));
            addTensor(w, "video", at::cat(video));
            addTensor(w, "bin", at::cat(bin));
            if (m.provenance) {  // as buildSketchCache's flush writes it
                addTensor(w, "exemplar", at::cat(exemplar));
            }
            w.setMetadata("format", kStageAShardFormat);
            w.write((dir / stageAShardName(shard)).string());
            m.shards.push_back({stageAShardName(shard), rows});
        }
        for (std::size_t i : videos) {
            StageAVideoRecord& v = m.videos[i];
            if (v.status == StageAVideoRecord::Status::Done) {
                v.shard = stageAShardName(shard);
                v.rowBegin = row;
                row += v.reps;
                v.rowEnd = row;
            }
        }
        reps.clear();
        weights.clear();
        category.clear();
        video.clear();
        bin.clear();
        exemplar.clear();
        videos.clear();
        rows = 0;
    }
};

}  // namespace

CacheMergeSummary mergeSketchCaches(const std::vector<std::string>& shardDirs,
                                    const std::string& outDir, Progress* progress) {
    if (shardDirs.empty()) {
        fail("no shard cache to merge", outDir, "shards", "the folders of every task", "none");
    }
    // Every shard opened and checked (mapped: nothing large is read yet).
    std::vector<CacheReader> readers;
    std::vector<std::string> dirs;
    for (const auto& d : shardDirs) {
        CacheReader r = CacheReader::open(d, true);
        if (r.manifest().shardCount < 2) {
            fail("not the cache of a task of a sharded run (`once train sketch --shard I/N`)",
                 r.manifestPath(), "request.shard", "{\"index\": I, \"count\": N}",
                 "none (a whole-corpus cache)");
        }
        readers.push_back(std::move(r));
        dirs.push_back(d);
    }
    // The first shard given is the reference every other is compared with.
    const StageAManifest& ref = readers.front().manifest();
    const std::string refName =
        "shard " + shardText(ref) + " (" + readers.front().manifestPath() + ")";
    const nlohmann::json refRequest = withoutShard(ref.request);
    const std::int64_t n = ref.shardCount;
    std::vector<int> byIndex(std::size_t(n), -1);
    std::string backbone = ref.request.value("backbone", std::string());
    std::int64_t dim = 0;
    std::string backboneFrom;
    for (std::size_t k = 0; k < readers.size(); ++k) {
        const StageAManifest& m = readers[k].manifest();
        const std::string& file = readers[k].manifestPath();
        if (m.shardCount != n) {
            fail("the shard belongs to a run with another number of shards than " + refName, file,
                 "request.shard.count", std::to_string(n), std::to_string(m.shardCount));
        }
        const nlohmann::json request = withoutShard(m.request);
        const std::string diff = firstDifference(refRequest, request);
        if (!diff.empty()) {
            fail("shard " + shardText(m) + " was run with other options or another corpus than " +
                     refName,
                 file, "request." + diff, excerptAt(refRequest, diff), excerptAt(request, diff));
        }
        if (m.mMax != ref.mMax) {
            fail("shard " + shardText(m) + " resolved another m_max than " + refName, file, "m_max",
                 std::to_string(ref.mMax), std::to_string(m.mMax));
        }
        if (m.provenance != ref.provenance) {
            fail("shard " + shardText(m) +
                     " was sketched by a version with other provenance than " + refName +
                     "; rerun it with the same version",
                 file, "provenance", ref.provenance ? kStageAProvenanceFormat : "none",
                 m.provenance ? kStageAProvenanceFormat : "none");
        }
        if (m.categories != ref.categories) {
            fail("shard " + shardText(m) + " lists other categories than " + refName, file,
                 "categories", printableExcerpt(nlohmann::json(ref.categories).dump(), 200),
                 printableExcerpt(nlohmann::json(m.categories).dump(), 200));
        }
        if (int other = byIndex[std::size_t(m.shardIndex)]; other >= 0) {
            fail("the same shard was given twice (or two runs of it)", file, "request.shard.index",
                 "each of 0.." + std::to_string(n - 1) + " once",
                 std::to_string(m.shardIndex) + ", also in " +
                     readers[std::size_t(other)].manifestPath());
        }
        byIndex[std::size_t(m.shardIndex)] = int(k);
        if (!m.backbone.empty()) {
            if (backbone.empty()) {
                backbone = m.backbone;
                backboneFrom = file;
            } else if (m.backbone != backbone) {
                fail("shard " + shardText(m) + " was encoded by another backbone", file, "backbone",
                     backbone +
                         (backboneFrom.empty() ? " (request.backbone)" : " (" + backboneFrom + ")"),
                     m.backbone);
            }
        }
        if (m.dim != 0) {
            if (dim == 0) {
                dim = m.dim;
            } else if (m.dim != dim) {
                fail("shard " + shardText(m) + " holds features of another width", file, "dim",
                     std::to_string(dim), std::to_string(m.dim));
            }
        }
    }
    for (std::int64_t i = 0; i < n; ++i) {
        if (byIndex[std::size_t(i)] < 0) {
            std::string given;
            for (const auto& r : readers) {
                given += (given.empty() ? "" : ", ") + shardText(r.manifest());
            }
            fail("shard " + std::to_string(i) + "/" + std::to_string(n) +
                     " is missing: pass the cache folder of every task of the run",
                 readers.front().manifestPath(), "request.shard.index",
                 "all of 0.." + std::to_string(n - 1), "only " + given);
        }
    }

    // The output: new or empty; built in a temporary sibling and renamed into place.
    std::error_code ec;
    const fs::path out(outDir);
    const auto st = fs::symlink_status(out, ec);
    bool emptyExisting = false;
    if (fs::exists(st)) {
        if (!fs::is_directory(st) || !fs::is_empty(out, ec)) {
            fail("the merged cache needs a new or empty folder", outDir, "output",
                 "a new or empty folder", fs::is_directory(st) ? "a folder with files" : "a file");
        }
        emptyExisting = true;
    }
    // Created exclusively under a random name: a folder or link planted at a guessable name
    // ("OUT.merge-tmp-PID") cannot receive the shards.
    const fs::path tmp = makeTemporaryFolder(out.string());
    CacheMergeSummary sum;
    sum.shards = n;
    try {
        Writer w;
        w.dir = tmp;
        w.m = ref;
        w.m.request = refRequest;
        w.m.shardIndex = 0;
        w.m.shardCount = 1;
        w.m.shards.clear();
        w.m.backbone = backbone;
        w.m.dim = dim;
        w.m.complete = true;
        w.shardRows = ref.shardRows;
        const std::size_t videos = ref.sources.size();
        w.m.videos.assign(videos, StageAVideoRecord{});
        sum.videos = std::int64_t(videos);
        if (progress) {
            progress->begin("merging " + std::to_string(n) + " Stage-A shards", double(videos));
        }
        for (std::size_t i = 0; i < videos; ++i) {
            const CacheReader& r = readers[std::size_t(byIndex[i % std::size_t(n)])];
            const StageAVideoRecord& v = r.manifest().videos[i];
            StageAVideoRecord& o = w.m.videos[i];
            if (v.status == StageAVideoRecord::Status::Done) {
                o.status = v.status;
                o.tokens = v.tokens;
                o.reps = v.reps;
                w.reps.push_back(r.slice(v.rowBegin, v.rowEnd));
                w.weights.push_back(r.weights().slice(0, v.rowBegin, v.rowEnd));
                w.category.push_back(r.category().slice(0, v.rowBegin, v.rowEnd));
                w.video.push_back(r.video().slice(0, v.rowBegin, v.rowEnd));
                w.bin.push_back(r.bin().slice(0, v.rowBegin, v.rowEnd));
                if (w.m.provenance) {
                    w.exemplar.push_back(r.exemplar().slice(0, v.rowBegin, v.rowEnd));
                }
                w.rows += v.reps;
                ++sum.done;
                sum.reps += v.reps;
            } else if (v.status == StageAVideoRecord::Status::Failed) {
                o.status = v.status;
                o.error = v.error;
                ++sum.failed;
            } else {  // the parser guarantees an owned video is never other_shard
                fail("a video of the shard is not finished", r.manifestPath(),
                     "videos[" + std::to_string(i) + "].status", "done or failed", "pending");
            }
            w.videos.push_back(i);
            if (w.rows >= w.shardRows) {
                w.flush();
            }
            if (progress) {
                progress->update(double(i + 1));
            }
        }
        w.flush();
        sum.files = std::int64_t(w.m.shards.size());
        writeFileAtomically((tmp / "manifest.json").string(), w.m.toJson().dump(1));
        if (emptyExisting) {
            fs::remove(out, ec);  // empty: checked above
        }
        fs::rename(tmp, out, ec);
        if (ec) {
            fail("cannot move the merged cache into place: " + ec.message(), outDir, "output",
                 "a new or empty folder", "an error");
        }
    } catch (...) {
        fs::remove_all(tmp, ec);  // the merge's own temporary folder only
        throw;
    }
    return sum;
}

}  // namespace once
