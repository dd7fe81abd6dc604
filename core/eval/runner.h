#pragma once
// The evaluation run: every question of a benchmark answered dense and by each compressor of
// the registry at each budget, with one model, appending one JSONL record per (question,
// method, budget). Records already in the output are skipped, so an interrupted run resumes
// where it stopped; each video is decoded and encoded once for all its questions, methods and
// budgets (AnswerSession keeps the features and the prepared compressors).
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "eval/benchmark.h"
#include "eval/eval_record.h"
#include "pipeline/answer_session.h"
#include "util/progress.h"

namespace once {

struct EvalMethod {
    std::string method;  ///< registry name (compress/token_compressor.h)
    std::map<std::string, std::string> params;
};

struct EvalOptions {
    /// Model folder and backbone, device, dtype, codebook, sampling (empty: the backbone's),
    /// pool stride, prompt format, positions of pooled tokens.
    AnswerSessionOptions session;
    std::vector<EvalMethod> methods;
    std::vector<std::int64_t> budgets;
    bool dense = true;        ///< also answer with all tokens (the reference row)
    std::int64_t limit = -1;  ///< first N questions in annotation order (-1: all)
    std::uint64_t seed = 42;  ///< compressor seed (the paper's runs use 42)
    std::string output;       ///< results JSONL (appended, resumed)
    /// Replace `output` (whatever it holds) instead of resuming it; the old file stays until the
    /// first new record is complete. Without it, an output that is not a results file of the
    /// same configuration is refused and left as it is.
    bool overwrite = false;
    std::function<void(const EvalRecord&)> onRecord;  ///< after each appended record
};

/// "model=…;sampling=…;pool_stride=…;dtype=…;device=…" (then ";positions=…" and
/// ";prompt_format=…" when not the defaults), stored in every record.
std::string evalConfig(const AnswerSessionOptions& session);

struct EvalRunSummary {
    std::int64_t questions = 0;  ///< after --limit
    std::int64_t written = 0, skipped = 0;
};

/// Throws OnceError for a missing video (naming it), an unknown method or bad parameters
/// (checked before any work), an output file written under another configuration (model
/// folder, sampling, pool stride, dtype, device: its records would not be comparable) or that
/// is not a results file at all (unless options.overwrite), and Cancelled when `progress` is
/// cancelled (whole records only). The output is not touched until the first record is ready.
EvalRunSummary runEvaluation(const Benchmark& benchmark, const EvalOptions& options,
                             Progress* progress = nullptr);

}  // namespace once
