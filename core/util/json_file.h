#pragma once
// Parsing untrusted JSON (tokenizer.json, benchmark annotations, results lines, manifests) with
// stated limits: a file larger than maxBytes is refused before it is read, and a document nested
// deeper than maxDepth is refused before nlohmann parses it (its DOM, dump() and comparisons
// recurse per level, so a file of 100,000 '[' would exhaust the stack). Every error is an
// OnceError naming the file with the line and column, never the raw `[json.exception...]` text.
// The typed accessors below turn a wrong type or a missing field into the same kind of error.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace once {

/// Largest JSON file read by default (64 MiB: the largest public tokenizer.json, Gemma 3's, is
/// about 33 MB; annotation files are a few MB).
constexpr std::size_t kMaxJsonFileBytes = std::size_t(64) << 20;
/// Deepest nesting of arrays/objects accepted by default (real files nest fewer than 10 levels).
constexpr int kMaxJsonDepth = 64;

struct JsonLimits {
    std::size_t maxBytes = kMaxJsonFileBytes;
    int maxDepth = kMaxJsonDepth;
};

/// Reads and parses the JSON document in `path`. Throws OnceError naming `path` when the file is
/// missing, a folder, larger than limits.maxBytes, nested deeper than limits.maxDepth, or not
/// valid JSON (with line and column).
nlohmann::json parseJsonFile(const std::string& path, const JsonLimits& limits = {});

/// Reads a whole regular file of at most `maxBytes` bytes (util/regular_file.h: a FIFO or a
/// device is refused, never waited on); throws OnceError naming `path` otherwise.
std::string readFileLimited(const std::string& path, std::size_t maxBytes);

/// Parses `text`; `source` (a file name) and `where` (e.g. "line 3"; may be empty) name it in
/// errors. Checks limits.maxDepth (limits.maxBytes applies to files only).
nlohmann::json parseJsonText(std::string_view text, const std::string& source,
                             const std::string& where = {}, const JsonLimits& limits = {});

/// Deepest nesting of [ and { outside strings in `text`, counting stops at `stopAt` + 1.
/// `offset` receives the byte where the deepest level (or stopAt + 1) was reached.
int jsonNestingDepth(std::string_view text, int stopAt, std::size_t* offset = nullptr);

/// `s` for an error message: control and non-ASCII bytes as \xNN, cut at `maxChars` with "...".
std::string printableExcerpt(std::string_view s, std::size_t maxChars = 80);

// Typed access. `file` is the file the value came from; `field` the dotted name of the value in
// messages ("model.vocab", "[3].video"). For the member accessors (jsonRequire, jsonFind,
// json*Or) `field` names the object and the member is reported as field.key.

/// Name of the JSON type for messages ("a string", "an array", ...).
std::string jsonTypeName(const nlohmann::json& v);
/// Member `key` of object `v`; throws when `v` is not an object or lacks `key`.
const nlohmann::json& jsonRequire(const nlohmann::json& v, const std::string& key,
                                  const std::string& file, const std::string& field);
/// Member `key` of object `v`, or nullptr when absent or null; throws when `v` is not an object.
const nlohmann::json* jsonFind(const nlohmann::json& v, const std::string& key,
                               const std::string& file, const std::string& field);
std::string jsonToString(const nlohmann::json& v, const std::string& file,
                         const std::string& field);
bool jsonToBool(const nlohmann::json& v, const std::string& file, const std::string& field);
/// An integer (a JSON integer, or a float with an integral value) in [min, max].
std::int64_t jsonToInt(const nlohmann::json& v, const std::string& file, const std::string& field,
                       std::int64_t min, std::int64_t max);
/// A finite number.
double jsonToNumber(const nlohmann::json& v, const std::string& file, const std::string& field);

/// Optional members with a default when absent or null; a present value of the wrong type is an
/// error (unlike nlohmann's value(), which throws its own type_error).
std::string jsonStringOr(const nlohmann::json& v, const std::string& key, const std::string& def,
                         const std::string& file, const std::string& field);
bool jsonBoolOr(const nlohmann::json& v, const std::string& key, bool def, const std::string& file,
                const std::string& field);

}  // namespace once
