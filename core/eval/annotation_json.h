#pragma once
// Reading the benchmarks' JSON / JSONL annotation files with errors that name the file, the
// record and the field (shared by the four readers). Annotation files are untrusted: they are
// read with the size and depth limits of util/json_file.h (kMaxAnnotationBytes) and every field
// is type-checked.
#include <cstddef>
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
