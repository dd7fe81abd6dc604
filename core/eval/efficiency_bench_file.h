#pragma once
// The efficiency table of `once bench` (the paper's efficiency table: visual tokens, latency,
// speed-ups over Dense, memory) as data, and its one file format, written by the bench and read
// by the studio's "Budget vs latency" chart:
//   JSON  {"format": "once-bench/1", "machine": {...}, "settings": {...}, "videos": [...],
//          "rows": [{"method", "budget", "visual_tokens", ...}, ...]}
//   CSV   PREFIX_rows.csv (one line per method × budget, the JSON rows' columns) and
//         PREFIX_videos.csv
// Times are milliseconds; a memory peak not measured on this device is null in JSON (−1 here).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "util/atomic_file.h"
#include "util/machine_info.h"

namespace once {

/// One method at one budget, over every video and timed repetition (means; "sd" the standard
/// deviation over all of them).
struct EfficiencyBenchRow {
    std::string method;        ///< "dense" or a compressor of the registry
    std::int64_t budget = 0;   ///< 0 for dense
    std::int64_t samples = 0;  ///< timed runs (videos × repetitions)
    /// Visual tokens entering the LLM (content + layout), the content rows alone, and N.
    double visualTokens = 0, contentTokens = 0, sourceTokens = 0;
    double prepareMs = 0;      ///< the method's prepare(), once per video (mean over videos)
    double compressMs = 0;     ///< compress() at this budget, per question
    double compressionMs = 0;  ///< prepare + compress: what a new video pays
    double prefillMs = 0, prefillMsSd = 0;
    double ttftMs = 0;            ///< time to first token after encoding: compression + prefill
    double decodeMs = 0;          ///< the newTokens − 1 decoding steps after the first token
    double decodeTokensPerS = 0;  ///< (newTokens − 1) / decode time; 0 with one new token
    double e2eMs = 0, e2eMsSd = 0, e2eMsMin = 0, e2eMsMax = 0;  ///< compression + prefill + decode
    double e2eSpeedup = 0, prefillSpeedup = 0;  ///< Dense time ÷ this row's (1 for Dense)
    double prefillFlops = 0;
    std::int64_t newTokens = 0;
    std::int64_t peakRssBytes = -1;  ///< highest process RSS of its compress/prefill/generate
    std::int64_t cudaPeakReservedBytes = -1, cudaPeakAllocatedBytes = -1;
    /// Accuracy (%) per benchmark from `once eval` results given to the bench; empty: none.
    std::map<std::string, double> accuracyPct;
};

struct EfficiencyBenchVideo {
    std::string path;
    bool featureFile = false;  ///< a feature file: loaded, not decoded and encoded
    std::int64_t frames = 0, sourceTokens = 0;
    /// Once per video, the same for every method (a feature file's load time is encodeMs).
    double decodeMs = 0, encodeMs = 0;
};

struct EfficiencyBench {
    MachineInfo machine;
    /// How it was run: model, backbone, device, dtype, sampling, pool stride, question, seed,
    /// new tokens, repetitions, warm-up runs, codebook (strings as given).
    std::map<std::string, std::string> settings;
    std::vector<EfficiencyBenchVideo> videos;
    std::vector<EfficiencyBenchRow> rows;  ///< Dense first, then each method's budgets
};

inline constexpr const char* kEfficiencyBenchFormat = "once-bench/1";
/// Largest efficiency file read (4 MiB: a few thousand rows).
inline constexpr std::size_t kMaxEfficiencyBenchBytes = std::size_t(4) << 20;

std::string efficiencyBenchJson(const EfficiencyBench& bench);
/// The rows as CSV (header line first), and the videos.
std::string efficiencyBenchRowsCsv(const EfficiencyBench& bench);
std::string efficiencyBenchVideosCsv(const EfficiencyBench& bench);
/// The table for a terminal: one line per row, the machine above it.
std::string efficiencyBenchText(const EfficiencyBench& bench);
/// Writes the JSON to `path` (and with a non-empty `csvPrefix`, PREFIX_rows.csv and
/// PREFIX_videos.csv), each atomically, replacing what `replace` allows (util/atomic_file.h).
void saveEfficiencyBench(const EfficiencyBench& bench, const std::string& path,
                         const std::string& csvPrefix = {},
                         OutputReplace replace = OutputReplace::regularFile);
/// Reads a file written by saveEfficiencyBench. Throws OnceError naming the file and the field
/// for anything else: another format, a missing column, a negative time or budget, more than
/// kMaxEfficiencyBenchBytes.
EfficiencyBench loadEfficiencyBench(const std::string& path);

}  // namespace once
