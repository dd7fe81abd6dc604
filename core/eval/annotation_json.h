#pragma once
// Reading the benchmarks' JSON / JSONL annotation files with errors that name the file, the
// record and the field (shared by the four readers). Annotation files are untrusted: they are
// read with the size and depth limits of util/json_file.h (kMaxAnnotationBytes) and every field
// is type-checked.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace once {

/// Largest annotation file read (the public ones are a few MB; LongVideoBench's is about 6 MB).
constexpr std::size_t kMaxAnnotationBytes = std::size_t(64) << 20;
/// Most options a multiple-choice question may have (letters A..Z).
constexpr std::size_t kMaxOptions = 26;

/// A JSON document; a .jsonl file (or one with a record per line) becomes an array. Throws
/// OnceError naming the file (and the line) when it is neither, too large or nested too deeply.
nlohmann::json readJsonFile(const std::string& path);

struct Benchmark;
struct EvalQuestion;

/// What a benchmark reader sets besides the questions.
struct BenchmarkInfo {
    std::string name;           ///< Benchmark::name
    std::string label;          ///< the benchmark as errors name it ("Video-MME")
    std::int64_t maxNewTokens;  ///< the task's generation_kwargs.max_new_tokens
};

/// A benchmark whose annotation file (readJsonFile) is a list of question records:
/// `question(r, i, where)` reads record i, `where` being "[i]" for its errors. OnceError naming
/// the file when it is not a list. The caller sets Benchmark::parse.
Benchmark readQuestionList(const std::string& annotations, const BenchmarkInfo& info,
                           const std::function<EvalQuestion(const nlohmann::json& r, std::size_t i,
                                                            const std::string& where)>& question);

/// Field `key` of record `where` (e.g. "[3]") as a string; numbers are printed. Throws OnceError
/// naming file, field and what was found when it is missing or of another type.
std::string jsonString(const nlohmann::json& record, const std::string& key,
                       const std::string& file, const std::string& where);
/// Field `key` as an integer (a number or a string of digits) that fits an int.
int jsonInt(const nlohmann::json& record, const std::string& key, const std::string& file,
            const std::string& where);
/// Field `key` as a list of strings.
std::vector<std::string> jsonStrings(const nlohmann::json& record, const std::string& key,
                                     const std::string& file, const std::string& where);

}  // namespace once
