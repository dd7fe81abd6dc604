#pragma once
// `once bench`: the paper's efficiency table from any model folder and any video. Every method
// gets the same protocol: the same sampled frames, the same prompt and a fixed number of new
// tokens (greedy, past the stop tokens). One pipeline session runs it all: each video is
// decoded and encoded once (reported apart: the same for every method) and each method is
// prepared once per video, its prepare() timed and added to every budget's compression time.
// After `warmup` untimed runs, each method × budget is timed `reps` times per video:
//   compression = prepare (once per video) + compress(B)
//   TTFT        = compression + prefill (the first token comes out of the prefill)
//   end to end  = compression + prefill + decoding the other newTokens − 1 tokens
// with speed-ups over Dense (its own row: 1) and the highest RSS and CUDA memory (reserved and
// allocated) of the compress, prefill and generate stages.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "eval/efficiency_bench_file.h"
#include "pipeline/answer_session.h"
#include "util/atomic_file.h"
#include "util/progress.h"

namespace once {

struct EfficiencyBenchMethod {
    std::string name;  ///< "dense" or a compressor of the registry
    std::map<std::string, std::string> params{};
};

struct EfficiencyBenchOptions {
    AnswerSessionOptions session;  ///< model folder, device, dtype, sampling, codebook, …
    std::vector<std::string> videos;
    /// Feature files (`once encode`) measured like videos but without decoding and encoding:
    /// for builds without a video decoder (the GPU preset has no FFmpeg).
    std::vector<std::string> featureFiles{};
    std::vector<EfficiencyBenchMethod> methods;
    std::vector<std::int64_t> budgets;  ///< for every method but Dense
    std::string question = "Describe what happens in the video.";
    std::int64_t newTokens = 16;
    int reps = 3, warmup = 1;
    std::uint64_t seed = 42;  ///< compressor seed
    /// `once eval` results (JSONL) whose overall accuracy per benchmark joins the rows of the
    /// same method and budget; empty: none.
    std::string accuracyResults{};
    /// Where the caller will write the table (checked before any work, written by the caller),
    /// and what may stand there to be replaced (util/atomic_file.h; `--overwrite`).
    std::string output{}, csvPrefix{};
    OutputReplace replace = OutputReplace::regularFile;
};

/// Throws OnceError for options that cannot give a table, before anything is loaded: no video
/// or feature file, or a missing one, no method, an unknown or repeated method, a parameter of a
/// method that does not have it, a budget < 1 (or none for a compressing method), a method that
/// needs a codebook without one, reps < 1, warmup < 0, newTokens < 1, an output in a missing
/// folder, naming a folder or something `replace` does not allow (checkOutputPath), a missing
/// accuracy file.
void checkEfficiencyBenchOptions(const EfficiencyBenchOptions& options);

/// checkEfficiencyBenchOptions, then loads the model (refusing a codebook of another backbone
/// or width before encoding anything) and measures. Writes nothing. Throws OnceError or
/// Cancelled (through `progress`, between runs).
EfficiencyBench runEfficiencyBench(const EfficiencyBenchOptions& options,
                                   Progress* progress = nullptr);

}  // namespace once
