// fuzz-sources: core/train/stage_a_manifest.cpp core/util/json_file.cpp core/util/error.cpp
// fuzz-sources: core/util/regular_file.cpp
// libFuzzer target for the Stage-A cache manifest (manifest.json): any byte string must either
// parse into a manifest whose row ranges, shard names and counts are consistent, or throw
// OnceError. A parsed manifest must also survive its own round trip (toJson, parse again) to the
// same value. Crashes, other exceptions and sanitizer reports are bugs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "train/stage_a_manifest.h"
#include "util/error.h"

namespace {

void check(const once::StageAManifest& m) {
    const std::int64_t total = m.committedRows();
    if (m.videos.size() != m.sources.size() || m.sources.size() != m.sourceCategories.size()) {
        std::abort();
    }
    for (std::size_t i = 0; i < m.shards.size(); ++i) {
        if (m.shards[i].file != once::stageAShardName(i) || m.shards[i].rows < 1) {
            std::abort();  // a name other than the tool's, e.g. "../x", got through
        }
    }
    for (const auto& v : m.videos) {
        if (v.status != once::StageAVideoRecord::Status::Done) {
            continue;
        }
        if (v.rowBegin < 0 || v.rowEnd < v.rowBegin || v.rowEnd > total ||
            v.rowEnd - v.rowBegin != v.reps || v.reps > v.tokens) {
            std::abort();
        }
    }
    if (m.bins < 1 || m.bins > once::kMaxSketchBins || m.mMax < m.mMin) {
        std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    once::StageAManifest m;
    try {
        m = once::parseStageAManifest({reinterpret_cast<const char*>(data), size}, "fuzz");
    } catch (const once::OnceError&) {
        return 0;
    }
    check(m);
    try {
        const auto again = once::parseStageAManifest(m.toJson().dump(1), "fuzz-roundtrip");
        if (again.toJson() != m.toJson()) {
            std::abort();
        }
    } catch (const once::OnceError&) {
        std::abort();  // what the tool writes it must read back
    }
    return 0;
}
