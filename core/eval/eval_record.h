#pragma once
// One line of an evaluation results file (JSONL): a question answered by one method at one
// budget, with what the model said, how it was scored, the tokens and per-stage timings. The
// report, the GUI's charts and the break-even analysis read these records.
#include <cstdint>
#include <map>
#include <string>

namespace once {

// Fields a record starts without are value-initialised ({}), so that questionRecord names only
// the ones it sets.
struct EvalRecord {
    std::string benchmark, questionId, videoId, task;
    std::string method;  ///< "dense" for the uncompressed reference
    std::map<std::string, std::string> params;
    std::int64_t budget = 0;  ///< 0 for dense
    std::uint64_t seed = 42;
    std::string prediction{};  ///< raw model output
    std::string parsed{};      ///< the benchmark parser's reading of it
    std::string answer;        ///< correct letter
    bool correct = false;
    std::int64_t contentTokens = 0, layoutTokens = 0, sourceTokens = 0, promptTokens = 0;
    double prefillFlops = 0;
    /// Seconds per stage: decode, encode (as first measured for the video, even when reused),
    /// compress, prefill, generate; "e2e" is their sum (the paper's end-to-end latency).
    std::map<std::string, double> seconds{};
    bool reusedEncoding = false;  ///< the video's features came from an earlier record
    /// Model folder, frame sampling, pool stride, dtype and device of the run: a results file
    /// resumes only under the same configuration (see runner.h).
    std::string config{};

    /// The resume key: benchmark, question, method with parameters, budget.
    std::string key() const;
    /// "once" or "tome{r=4}": method with its non-default-free parameter list.
    std::string methodLabel() const;
    std::string toJsonLine() const;  ///< one line, no newline
    /// Throws OnceError naming `file` and `line` for a malformed record.
    static EvalRecord fromJsonLine(const std::string& text, const std::string& file, int line);
};

}  // namespace once
