#pragma once
// Reading the benchmarks' JSON / JSONL annotation files with errors that name the file, the
// record and the field (shared by the four readers).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace once {

/// A JSON document; a .jsonl file (or one with a record per line) becomes an array.
nlohmann::json readJsonFile(const std::string& path);

/// Field `key` of record `where` (e.g. "[3]") as a string; numbers are printed. Throws OnceError
/// naming file, field and what was found when it is missing or of another type.
std::string jsonString(const nlohmann::json& record, const std::string& key,
                       const std::string& file, const std::string& where);
/// Field `key` as an integer (a number or a string of digits).
int jsonInt(const nlohmann::json& record, const std::string& key, const std::string& file,
            const std::string& where);
/// Field `key` as a list of strings.
std::vector<std::string> jsonStrings(const nlohmann::json& record, const std::string& key,
                                     const std::string& file, const std::string& where);

}  // namespace once
