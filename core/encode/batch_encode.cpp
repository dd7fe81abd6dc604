#include "encode/batch_encode.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cluster/shard_encode.h"
#include "encode/batch_outputs.h"
#include "io/file_kind.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/regular_file.h"

namespace fs = std::filesystem;

namespace once {
namespace {

/// Largest manifest (and list of finished videos) read: some 2 million lines of a long path.
constexpr std::size_t kMaxBatchManifestBytes = std::size_t(512) << 20;

/// "a/b/clip.mp4" -> "a__b__clip.safetensors"; "../x/frames/" -> "up__x__frames.safetensors"
std::string outputName(const fs::path& relative) {
    std::string s = relative.generic_string();
    while (!s.empty() && s.back() == '/') {
        s.pop_back();
    }
    if (hasVideoExtension(s)) {
        s = s.substr(0, s.size() - fs::path(s).extension().string().size());
    }
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '/') {
            out += "__";
        } else if (s[i] == '.' && i + 1 < s.size() && s[i + 1] == '.') {
            out += "up";
            ++i;
        } else {
            out += s[i];
        }
    }
    return out + ".safetensors";
}

void uniqueOutputs(std::vector<BatchItem>& items) {
    std::map<std::string, int> seen;
    for (auto& it : items) {
        int n = seen[it.output]++;
        if (n > 0) {
            it.output = it.output.substr(0, it.output.size() - 12) + "-" + std::to_string(n + 1) +
                        ".safetensors";
        }
    }
}

std::vector<BatchItem> listManifest(const std::string& manifest) {
    std::istringstream in(readRegularFile(manifest, kMaxBatchManifestBytes, "path"));
    const fs::path base = fs::path(manifest).parent_path();
    std::vector<BatchItem> items;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        const std::string where = "line " + std::to_string(number);
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(line);
        } catch (const std::exception& e) {
            fail("manifest line is not JSON (" + std::string(e.what()) + ")", manifest, where,
                 "{\"video\": path, \"category\": name}", line.substr(0, 80));
        }
        if (!j.is_object() || !j.contains("video") || !j["video"].is_string()) {
            fail("manifest line has no \"video\" string", manifest, where,
                 "{\"video\": path, \"category\": name}", line.substr(0, 80));
        }
        BatchItem it;
        fs::path v = j["video"].get<std::string>();
        fs::path rel = v.is_absolute() ? v.filename() : v;
        it.video = (v.is_absolute() ? v : base / v).lexically_normal().string();
        if (j.contains("category") && j["category"].is_string()) {
            it.category = j["category"].get<std::string>();
        } else if (j.contains("category") && !j["category"].is_null()) {
            it.category = j["category"].dump();
        }
        it.output = outputName(rel);
        items.push_back(std::move(it));
    }
    return items;
}

std::vector<BatchItem> listFolder(const std::string& folder) {
    std::vector<fs::path> entries;
    for (const auto& e : fs::directory_iterator(folder)) {
        if ((e.is_regular_file() && hasVideoExtension(e.path().string())) ||
            (e.is_directory() && holdsFrameImages(e.path().string()))) {
            entries.push_back(e.path());
        }
    }
    std::sort(entries.begin(), entries.end());
    std::vector<BatchItem> items;
    for (const auto& p : entries) {
        BatchItem it;
        it.video = p.string();
        it.output = outputName(p.filename());
        items.push_back(std::move(it));
    }
    return items;
}

std::map<std::string, nlohmann::json> readFinished(const std::string& path) {
    std::map<std::string, nlohmann::json> out;
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        return out;
    }
    std::istringstream in(readRegularFile(path, kMaxBatchManifestBytes, "finished list"));
    std::string line;
    while (std::getline(in, line)) {
        try {
            auto j = nlohmann::json::parse(line);
            if (j.is_object() && j.contains("features") && j["features"].is_string()) {
                out[j["features"].get<std::string>()] = j;
            }
        } catch (const std::exception&) {
            // A damaged line only means that video is encoded again.
        }
    }
    return out;
}

void writeFinished(const std::string& path, const std::map<std::string, nlohmann::json>& done,
                   OutputReplace replace) {
    std::string text;
    for (const auto& [_, j] : done) {
        text += j.dump() + "\n";
    }
    writeFileAtomically(path, text, replace);
}

}  // namespace

std::vector<BatchItem> listBatch(const std::string& input) {
    std::error_code ec;
    if (!fs::exists(input, ec)) {
        fail("batch input not found", input, "input", "a folder of videos or a JSONL manifest",
             "nothing");
    }
    std::vector<BatchItem> items =
        fs::is_directory(input, ec) ? listFolder(input) : listManifest(input);
    uniqueOutputs(items);
    return items;
}

BatchReport encodeBatch(const std::string& input, const std::string& outDir,
                        const EncodeOptions& options, Progress* progress) {
    return encodeBatchShard(input, outDir, options, ShardSpec{}, progress);
}

std::string shardFinishedListName(const ShardSpec& shard) {
    if (!shard.sharded()) {
        return kBatchManifestName;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "encoded-shard-%05lld-of-%05lld.jsonl",
                  static_cast<long long>(shard.index), static_cast<long long>(shard.count));
    return buf;
}

BatchReport encodeBatchShard(const std::string& input, const std::string& outDir,
                             const EncodeOptions& options, const ShardSpec& shard,
                             Progress* progress) {
    // Names are made unique over the whole list first, so a video's file name does not depend
    // on the shard; then the task keeps the videos it owns (position v mod N).
    const std::vector<BatchItem> all = listBatch(input);
    std::vector<BatchItem> items;
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (shard.owns(std::int64_t(i))) {
            items.push_back(all[i]);
        }
    }
    std::error_code ec;
    fs::create_directories(outDir, ec);
    if (ec || !fs::is_directory(outDir)) {
        fail("cannot create the output folder", outDir, "out-dir", "a writable folder",
             ec ? ec.message() : "not a folder");
    }
    // Tasks of a sharded run share the folder: each rewrites only its own list
    // (encoded-shard-I-of-N.jsonl), and every list there counts as finished work, so a rerun
    // with or without --shard skips what any task finished.
    const std::string finishedPath = (fs::path(outDir) / shardFinishedListName(shard)).string();
    checkFinishedList(finishedPath, options.replace);
    std::map<std::string, nlohmann::json> finished = readFinished(finishedPath);
    std::map<std::string, nlohmann::json> elsewhere;
    for (const auto& e : fs::directory_iterator(outDir, ec)) {
        const std::string name = e.path().filename().string();
        if ((name == kBatchManifestName ||
             (name.rfind("encoded-shard-", 0) == 0 && e.path().extension() == ".jsonl")) &&
            e.path().string() != finishedPath) {
            elsewhere.merge(readFinished(e.path().string()));
        }
    }
    const std::string sampling = options.sampling.toString();
    // Every output name before any video is encoded: a file the batch did not write is refused
    // here, whole, rather than after hours of work (encode/batch_outputs.h). A finished output
    // is skipped whether or not a list names it (a kill between the two writes, a lost list).
    std::vector<BatchOutputCheck> outputs;
    bool listed = true;
    for (const BatchItem& it : items) {
        outputs.push_back(checkBatchOutput((fs::path(outDir) / it.output).string(), it.video,
                                           options.backbone, sampling, options.replace));
        const BatchOutputCheck& o = outputs.back();
        if (o.state == BatchOutputCheck::State::finished && !finished.count(it.output) &&
            !elsewhere.count(it.output)) {
            finished[it.output] = {{"video", it.video},
                                   {"category", it.category},
                                   {"features", it.output},
                                   {"frames", o.frames},
                                   {"backbone", options.backbone},
                                   {"sampling", sampling},
                                   {"source_sha256", o.sourceSha256}};
            listed = false;
        }
    }
    if (!listed) {
        writeFinished(finishedPath, finished, options.replace);
    }

    BatchReport report;
    report.total = std::int64_t(items.size());
    // Inner stages report to nobody but share the cancel flag; the bar shows videos.
    Progress inner(Progress::Sink{}, progress ? progress->token() : CancelToken{});
    std::unique_ptr<VisualEncoder> encoder;
    if (progress) {
        progress->begin("encoding videos", double(items.size()));
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
        const BatchItem& it = items[i];
        const fs::path out = fs::path(outDir) / it.output;
        if (outputs[i].state == BatchOutputCheck::State::finished) {
            ++report.skipped;
        } else {
            try {
                if (!encoder) {
                    encoder = makeVisualEncoder(options.backbone, options.encoder);
                }
                EncodeReport r;
                saveFeatureFile(encodeVideo(it.video, *encoder, options, &inner, &r), out.string(),
                                options.replace);
                r.output = out.string();
                finished[it.output] = {{"video", it.video},
                                       {"category", it.category},
                                       {"features", it.output},
                                       {"frames", r.frames},
                                       {"backbone", r.backbone},
                                       {"sampling", r.sampling},
                                       {"source_sha256", r.sourceSha256}};
                writeFinished(finishedPath, finished, options.replace);
                report.reports.push_back(std::move(r));
                ++report.encoded;
            } catch (const OnceError& e) {
                report.failures.emplace_back(it.video, e.what());
            }
        }
        if (progress) {
            progress->update(double(i + 1), fs::path(it.video).filename().string());
        }
    }
    return report;
}

nlohmann::json batchReportJson(const BatchReport& r, const std::string& outDir) {
    nlohmann::json j;
    j["out_dir"] = outDir;
    j["manifest"] = (fs::path(outDir) / kBatchManifestName).string();
    j["total"] = r.total;
    j["encoded"] = r.encoded;
    j["skipped"] = r.skipped;
    j["failed"] = r.failures.size();
    j["failures"] = nlohmann::json::array();
    for (const auto& [video, message] : r.failures) {
        j["failures"].push_back({{"video", video}, {"error", message}});
    }
    j["videos"] = nlohmann::json::array();
    for (const auto& rep : r.reports) {
        j["videos"].push_back(encodeReportJson(rep));
    }
    return j;
}

}  // namespace once
