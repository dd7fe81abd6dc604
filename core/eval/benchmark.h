#pragma once
// A video question-answering benchmark as the evaluation harness sees it: questions with their
// local video, the prompt of the benchmark's lmms-eval task and its answer parser. One reader per
// benchmark (mvbench.h, egoschema.h, videomme.h, longvideobench.h) builds it from the public
// annotation files; loadBenchmark() picks the reader by name.
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "eval/eval_record.h"

namespace once {

struct EvalQuestion {
    std::string id;         ///< unique within the benchmark (the key of resumable results)
    std::string videoId;    ///< questions of one video share the encoded features
    std::string videoPath;  ///< resolved local file (may not exist; the runner checks)
    std::string task;       ///< per-task accuracy: MVBench task, Video-MME task_type, ...
    std::string question;
    std::vector<std::string> options;  ///< option texts without their letters
    int answer = -1;                   ///< index of the correct option
    std::string prompt;                ///< the user text of the lmms-eval task (doc_to_text)
};

struct Benchmark {
    std::string name;  ///< mvbench, egoschema, videomme, longvideobench
    std::vector<EvalQuestion> questions;
    std::int64_t maxNewTokens = 16;  ///< generation_kwargs.max_new_tokens of the task
    /// The task's answer parsing (process_results): the letter the output is read as, or the
    /// processed text when it names no letter. Correct iff it equals the answer's letter.
    std::function<std::string(const std::string& output, const EvalQuestion& q)> parse;
};

/// "A" for 0, "B" for 1, ...
std::string optionLetter(int index);

/// `output` without surrounding whitespace and with every occurrence of each of `prefixes`
/// removed, in order: the first steps of the lmms-eval parsers of Video-MME and LongVideoBench
/// (each with its own prefix list).
std::string withoutAnswerPrefixes(const std::string& output,
                                  std::initializer_list<const char*> prefixes);

/// Reads `annotations` (file or folder, see each reader) with videos under `videoDir`.
/// Throws OnceError naming the file and field for a bad annotation and, for an unknown name,
/// the known benchmarks.
Benchmark loadBenchmark(const std::string& name, const std::string& annotations,
                        const std::string& videoDir);
std::vector<std::string> benchmarkNames();

/// The first of `candidates` (relative to `dir`) that exists, else the first one; so a missing
/// video is reported under the name the task's own loader would have used. Every candidate must
/// stay inside `dir` (util/safe_path.h): an absolute name, a `..` escape or a symlink leading
/// out is refused with an OnceError naming the annotation `file` and the entry `field`.
std::string resolveVideo(const std::string& dir, const std::vector<std::string>& candidates,
                         const std::string& file, const std::string& field);

/// The record of question `q` of `benchmark` answered by `method` with `params` at `budget`,
/// before the model runs: the question's identity and task, the run's key fields and the correct
/// letter (what the runner starts each record from).
EvalRecord questionRecord(const std::string& benchmark, const EvalQuestion& q,
                          const std::string& method,
                          const std::map<std::string, std::string>& params, std::int64_t budget,
                          std::uint64_t seed);

}  // namespace once
