#include "eval/efficiency_bench_file.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "util/atomic_file.h"
#include "util/csv.h"
#include "util/error.h"
#include "util/json_file.h"
#include "util/json_text.h"

namespace once {
namespace {

using Row = EfficiencyBenchRow;
using nlohmann::json;

// The columns, one place for the JSON keys, the CSV header and the reader's checks.
struct NumberColumn {
    const char* name;
    double Row::*field;
    bool nullable;  ///< NaN is written as null (the speed-ups without a Dense row)
};
const NumberColumn kNumbers[] = {
    {"visual_tokens", &Row::visualTokens, false},
    {"content_tokens", &Row::contentTokens, false},
    {"source_tokens", &Row::sourceTokens, false},
    {"prepare_ms", &Row::prepareMs, false},
    {"compress_ms", &Row::compressMs, false},
    {"compression_ms", &Row::compressionMs, false},
    {"prefill_ms", &Row::prefillMs, false},
    {"prefill_ms_sd", &Row::prefillMsSd, false},
    {"ttft_ms", &Row::ttftMs, false},
    {"decode_ms", &Row::decodeMs, false},
    {"decode_tokens_per_s", &Row::decodeTokensPerS, false},
    {"e2e_ms", &Row::e2eMs, false},
    {"e2e_ms_sd", &Row::e2eMsSd, false},
    {"e2e_ms_min", &Row::e2eMsMin, false},
    {"e2e_ms_max", &Row::e2eMsMax, false},
    {"e2e_speedup", &Row::e2eSpeedup, true},
    {"prefill_speedup", &Row::prefillSpeedup, true},
    {"prefill_flops", &Row::prefillFlops, false},
};
struct IntColumn {
    const char* name;
    std::int64_t Row::*field;
    std::int64_t min;
    bool nullable;  ///< −1 is written as null (a memory peak this device does not have)
};
const IntColumn kInts[] = {
    {"samples", &Row::samples, 1, false},
    {"new_tokens", &Row::newTokens, 1, false},
    {"peak_rss_bytes", &Row::peakRssBytes, 0, true},
    {"cuda_peak_reserved_bytes", &Row::cudaPeakReservedBytes, 0, true},
    {"cuda_peak_allocated_bytes", &Row::cudaPeakAllocatedBytes, 0, true},
};

std::string number(double v) {
    if (std::isnan(v)) {
        return "";
    }
    std::ostringstream s;
    s.precision(10);
    s << v;
    return s.str();
}

json machineJson(const MachineInfo& m) {
    json j = {
        {"cpu_model", m.cpuModel}, {"cpu_flags", m.cpuFlags}, {"logical_cpus", m.logicalCpus},
        {"threads", m.threads},    {"device", m.device},      {"torch_version", m.torchVersion}};
    j["gpu"] = m.gpuName.empty() ? json(nullptr) : json(m.gpuName);
    return j;
}

}  // namespace

std::string efficiencyBenchJson(const EfficiencyBench& bench) {
    json rows = json::array(), videos = json::array();
    for (const Row& r : bench.rows) {
        json j = {{"method", r.method}};
        j["budget"] = r.method == "dense" ? json(nullptr) : json(r.budget);
        for (const IntColumn& c : kInts) {
            j[c.name] = c.nullable && r.*c.field < 0 ? json(nullptr) : json(r.*c.field);
        }
        for (const NumberColumn& c : kNumbers) {
            j[c.name] = std::isnan(r.*c.field) ? json(nullptr) : json(r.*c.field);
        }
        if (!r.accuracyPct.empty()) {
            j["accuracy_pct"] = r.accuracyPct;
        }
        rows.push_back(j);
    }
    for (const EfficiencyBenchVideo& v : bench.videos) {
        videos.push_back({{"path", v.path},
                          {"input", v.featureFile ? "features" : "video"},
                          {"frames", v.frames},
                          {"source_tokens", v.sourceTokens},
                          {"decode_ms", v.decodeMs},
                          {"encode_ms", v.encodeMs}});
    }
    json j = {{"format", kEfficiencyBenchFormat},
              {"machine", machineJson(bench.machine)},
              {"settings", bench.settings},
              {"videos", videos},
              {"rows", rows}};
    return jsonText(j, 2) + "\n";
}

std::string efficiencyBenchRowsCsv(const EfficiencyBench& bench) {
    std::vector<std::string> benchmarks;
    for (const Row& r : bench.rows) {
        for (const auto& [b, acc] : r.accuracyPct) {
            if (std::find(benchmarks.begin(), benchmarks.end(), b) == benchmarks.end()) {
                benchmarks.push_back(b);
            }
        }
    }
    std::string out = "method,budget";
    for (const IntColumn& c : kInts) {
        out += std::string(",") + c.name;
    }
    for (const NumberColumn& c : kNumbers) {
        out += std::string(",") + c.name;
    }
    for (const std::string& b : benchmarks) {
        out += "," + csvField("accuracy_pct_" + b);
    }
    out += "\n";
    for (const Row& r : bench.rows) {
        out += csvField(r.method) + "," + (r.method == "dense" ? "" : std::to_string(r.budget));
        for (const IntColumn& c : kInts) {
            out += "," + (c.nullable && r.*c.field < 0 ? "" : std::to_string(r.*c.field));
        }
        for (const NumberColumn& c : kNumbers) {
            out += "," + number(r.*c.field);
        }
        for (const std::string& b : benchmarks) {
            auto it = r.accuracyPct.find(b);
            out += "," + (it == r.accuracyPct.end() ? std::string() : number(it->second));
        }
        out += "\n";
    }
    return out;
}

std::string efficiencyBenchVideosCsv(const EfficiencyBench& bench) {
    std::string out = "path,input,frames,source_tokens,decode_ms,encode_ms\n";
    for (const EfficiencyBenchVideo& v : bench.videos) {
        out += csvField(v.path) + "," + (v.featureFile ? "features," : "video,") +
               std::to_string(v.frames) + "," + std::to_string(v.sourceTokens) + "," +
               number(v.decodeMs) + "," + number(v.encodeMs) + "\n";
    }
    return out;
}

std::string efficiencyBenchText(const EfficiencyBench& bench) {
    const MachineInfo& m = bench.machine;
    std::string flags;
    for (const std::string& f : m.cpuFlags) {
        flags += (flags.empty() ? "" : " ") + f;
    }
    std::ostringstream s;
    s << "machine: " << m.cpuModel << " [" << flags << "], " << m.threads << " of " << m.logicalCpus
      << " threads, " << m.device << (m.gpuName.empty() ? std::string() : " (" + m.gpuName + ")")
      << ", LibTorch " << m.torchVersion << "\n";
    for (const EfficiencyBenchVideo& v : bench.videos) {
        s << (v.featureFile ? "features: " : "video: ") << v.path << ": " << v.frames << " frames, "
          << v.sourceTokens << " tokens, "
          << (v.featureFile ? "loaded in " + number(v.encodeMs)
                            : "decode " + number(v.decodeMs) + " ms, encode " + number(v.encodeMs))
          << " ms (once, not in the rows)\n";
    }
    char line[512];
    std::snprintf(line, sizeof line, "%-14s %6s %8s %10s %10s %10s %18s %7s %7s %8s %9s %8s %9s\n",
                  "method", "B", "tokens", "compress", "prefill", "TTFT", "e2e ms (sd)", "e2e x",
                  "pre x", "TFLOPs", "decode/s", "RSS GiB", "CUDA GiB");
    s << line;
    // Absent values (a ratio without Dense, a peak this device does not have) print as "-".
    auto fixed = [](double v, int decimals) {
        char b[64];
        std::snprintf(b, sizeof b, "%.*f", decimals, v);
        return std::isnan(v) || v < 0 ? std::string("-") : std::string(b);
    };
    for (const Row& r : bench.rows) {
        const std::string e2e = fixed(r.e2eMs, 1) + " (" + fixed(r.e2eMsSd, 1) + ")";
        std::snprintf(line, sizeof line,
                      "%-14s %6s %8.0f %10.1f %10.1f %10.1f %18s %7s %7s %8.3f %9.1f %8s %9s\n",
                      r.method.c_str(),
                      r.method == "dense" ? "-" : std::to_string(r.budget).c_str(), r.visualTokens,
                      r.compressionMs, r.prefillMs, r.ttftMs, e2e.c_str(),
                      fixed(r.e2eSpeedup, 2).c_str(), fixed(r.prefillSpeedup, 2).c_str(),
                      r.prefillFlops / 1e12, r.decodeTokensPerS,
                      fixed(double(r.peakRssBytes) / 1073741824.0, 2).c_str(),
                      fixed(double(r.cudaPeakReservedBytes) / 1073741824.0, 2).c_str());
        s << line;
    }
    return s.str();
}

void saveEfficiencyBench(const EfficiencyBench& bench, const std::string& path,
                         const std::string& csvPrefix, OutputReplace replace) {
    writeFileAtomically(path, efficiencyBenchJson(bench), replace);
    if (!csvPrefix.empty()) {
        writeFileAtomically(csvPrefix + "_rows.csv", efficiencyBenchRowsCsv(bench), replace);
        writeFileAtomically(csvPrefix + "_videos.csv", efficiencyBenchVideosCsv(bench), replace);
    }
}

EfficiencyBench loadEfficiencyBench(const std::string& path) {
    const json j = parseJsonFile(path, {kMaxEfficiencyBenchBytes, kMaxJsonDepth});
    const std::string format = jsonToString(jsonRequire(j, "format", path, ""), path, "format");
    if (format != kEfficiencyBenchFormat) {
        fail("not an efficiency table of `once bench`", path, "format", kEfficiencyBenchFormat,
             printableExcerpt(format));
    }
    EfficiencyBench b;
    const json& machine = jsonRequire(j, "machine", path, "");
    b.machine.cpuModel = jsonStringOr(machine, "cpu_model", "unknown", path, "machine");
    b.machine.device = jsonStringOr(machine, "device", "", path, "machine");
    b.machine.gpuName = jsonStringOr(machine, "gpu", "", path, "machine");
    b.machine.torchVersion = jsonStringOr(machine, "torch_version", "", path, "machine");
    if (const json* s = jsonFind(j, "settings", path, "")) {
        if (!s->is_object()) {
            fail("settings must be an object", path, "settings", "an object", jsonTypeName(*s));
        }
        for (const auto& [k, v] : s->items()) {
            b.settings[k] = jsonToString(v, path, "settings." + k);
        }
    }
    const json& rows = jsonRequire(j, "rows", path, "");
    if (!rows.is_array()) {
        fail("rows must be an array", path, "rows", "an array", jsonTypeName(rows));
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::string at = "rows[" + std::to_string(i) + "]";
        const json& o = rows[i];
        Row r;
        r.method = jsonToString(jsonRequire(o, "method", path, at), path, at + ".method");
        const json* budget = jsonFind(o, "budget", path, at);
        if (r.method == "dense" ? budget != nullptr : budget == nullptr) {
            fail("Dense has no budget and every other method one", path, at + ".budget",
                 r.method == "dense" ? "null" : "an integer >= 1",
                 budget ? budget->dump() : "null");
        }
        r.budget = budget ? jsonToInt(*budget, path, at + ".budget", 1,
                                      std::numeric_limits<std::int64_t>::max())
                          : 0;
        for (const IntColumn& c : kInts) {
            const json* v = jsonFind(o, c.name, path, at);
            if (!v && !c.nullable) {
                jsonRequire(o, c.name, path, at);  // names the missing column
            }
            r.*c.field = v ? jsonToInt(*v, path, at + "." + c.name, c.min,
                                       std::numeric_limits<std::int64_t>::max())
                           : -1;
        }
        for (const NumberColumn& c : kNumbers) {
            const json* v = jsonFind(o, c.name, path, at);
            if (!v && !c.nullable) {
                jsonRequire(o, c.name, path, at);
            }
            r.*c.field = v ? jsonToNumber(*v, path, at + "." + c.name)
                           : std::numeric_limits<double>::quiet_NaN();
            if (r.*c.field < 0) {
                fail("a negative count or time", path, at + "." + c.name, ">= 0",
                     number(r.*c.field));
            }
        }
        if (const json* acc = jsonFind(o, "accuracy_pct", path, at)) {
            if (!acc->is_object()) {
                fail("accuracy_pct must map benchmarks to percentages", path, at + ".accuracy_pct",
                     "an object", jsonTypeName(*acc));
            }
            for (const auto& [k, v] : acc->items()) {
                r.accuracyPct[k] = jsonToNumber(v, path, at + ".accuracy_pct." + k);
            }
        }
        b.rows.push_back(std::move(r));
    }
    if (const json* videos = jsonFind(j, "videos", path, "")) {
        for (std::size_t i = 0; videos->is_array() && i < videos->size(); ++i) {
            const std::string at = "videos[" + std::to_string(i) + "]";
            const json& v = (*videos)[i];
            EfficiencyBenchVideo e;
            e.path = jsonToString(jsonRequire(v, "path", path, at), path, at + ".path");
            e.featureFile = jsonStringOr(v, "input", "video", path, at) == "features";
            e.frames = jsonToInt(jsonRequire(v, "frames", path, at), path, at + ".frames", 0,
                                 std::numeric_limits<std::int64_t>::max());
            e.sourceTokens =
                jsonToInt(jsonRequire(v, "source_tokens", path, at), path, at + ".source_tokens", 0,
                          std::numeric_limits<std::int64_t>::max());
            e.decodeMs =
                jsonToNumber(jsonRequire(v, "decode_ms", path, at), path, at + ".decode_ms");
            e.encodeMs =
                jsonToNumber(jsonRequire(v, "encode_ms", path, at), path, at + ".encode_ms");
            b.videos.push_back(e);
        }
    }
    return b;
}

}  // namespace once
